"""``play`` at the table: ask for each open rule value the race needs, offer to save them.

A race that would stop on open values (:class:`MissingRuleValueError`) asks the people at
the terminal instead, one value at a time with its choices; the answers become house rules
(``--house``), and may be saved as such a file so the group writes them only once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from avecaesar.editor.table.messages import say
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.safeio import write_atomic
from avecaesar.engine.ruleset.compose import parse_override
from avecaesar.engine.ruleset.house import house_file_text

__all__ = ["ask_open_values", "with_answers"]

T = TypeVar("T")
SOURCE = "house rule: asked at the table"


def ask_open_values(err: MissingRuleValueError) -> dict[str, dict[str, Any]]:
    """Ask for every value of ``err``; return them as house rules (dotted key → rule)."""
    typer.echo(say("open_intro", n=len(err.entries)))
    out: dict[str, dict[str, Any]] = {}
    for key, why, choices in err.entries:
        typer.echo(f"  {key}: {why}")
        pick = f" ({say('one_of', choices=', '.join(_text(c) for c in choices))})" \
            if choices else ""
        while True:
            answer = typer.prompt(f"  {key}{pick}").strip()
            try:
                _k, value = parse_override(f"{key}={answer}")
            except AveCaesarError as bad:
                typer.echo(f"  {bad}")
                continue
            if choices and value not in choices:
                typer.echo(say("open_choose", choices=", ".join(_text(c) for c in choices)))
                continue
            out[key] = {"value": value, "source": SOURCE}
            break
    return out


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def offer_to_save(answers: dict[str, dict[str, Any]]) -> None:
    """Offer to write the answers as a house-rules file for ``--house``."""
    where = typer.prompt(say("save_house"), default="", show_default=False).strip()
    if not where:
        return
    text = house_file_text({k: r["value"] for k, r in answers.items()},
                           say("house_note"), where)
    try:
        write_atomic(where, text)
    except AveCaesarError as err:
        typer.echo(say("house_not_saved", file=where, why=str(err).rsplit(": ", 1)[-1]))
        return
    typer.echo(say("house_saved", file=where))


def with_answers(build: Callable[[dict[str, dict[str, Any]] | None], T],
                 house: dict[str, dict[str, Any]] | None) -> tuple[T, dict[str, dict[str, Any]]
                                                                  | None]:
    """``build(house)``; while it stops on open values, ask for them at the table and try
    again with the answers added. Returns the result and the house rules used."""
    asked: dict[str, dict[str, Any]] = {}
    while True:
        try:
            result = build({**(house or {}), **asked} or None)
        except MissingRuleValueError as err:
            if any(k in asked for k, _w, _c in err.entries):
                raise
            try:
                asked.update(ask_open_values(err))
            except typer.Abort:
                raise AveCaesarError("input ended before every open value was answered; "
                                     "nothing was played") from None
            continue
        if asked:
            with contextlib.suppress(typer.Abort):  # no answer: nothing saved
                offer_to_save(asked)
        return result, ({**(house or {}), **asked} or None)
