"""Reasons as data: why a move or a card is not allowed, as a code, its parameters and the
rule's citation — never a sentence that anyone parses back.

One registry, :data:`REASONS`: each code with its one-line meaning and its English sentence
(``{field}`` filled from the reason's parameters; a parameter may be a reason itself, the
``{lead}`` of the 6-card rule's "you lead jointly, so no 6"). The English sentence is the
engine's one rendering (:meth:`Reason.english`: error messages, records, the API); the
players' other languages render the same value from the editor's catalog
(``editor/render/catalog.json``, section ``why``, keyed by these codes), so a changed English
sentence can never leave a translation behind. A house rule's own ``why:`` text is the code
``house`` with the text as written in its ``text`` parameter: it is shown as its group wrote
it, with its ``{card}``, ``{cards}`` and ``{lead}`` filled in.

No engine imports (as ``core/types.py``): every module of the race may make a reason.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["HOUSE", "REASONS", "Reason", "ReasonCode", "fields_of"]


@dataclass(frozen=True)
class ReasonCode:
    """One kind of reason: what it means (one line, for the docs) and its English sentence."""

    doc: str
    english: str


#: the code of a house rule's restriction in its own words (its ``text`` parameter)
HOUSE = "house"

REASONS: dict[str, ReasonCode] = {
    "race_over": ReasonCode("the race has ended: no chariot moves", "the race is over"),
    "no_ramming": ReasonCode("a ramming attack under rules that have none",
                             "these rules have no ramming attacks"),
    "no_ram_there": ReasonCode(
        "a ramming attack on ``target`` (a chariot letter) from a landing that does not allow "
        "one", "no ramming attack on {target} from there: it must end beside the opponent "
        "with the space straight ahead of both free"),
    "must_play": ReasonCode(
        "waiting while a card can be moved in full (Zugzwang)",
        "you can move a card in full, so you must play one (Zugzwang)"),
    "no_move": ReasonCode("waiting when no move is left: the chariot skips",
                          "there is no move to choose: you skip"),
    "no_bonus": ReasonCode("the bonus piece of ``points`` played without holding it",
                           "you hold no bonus piece of {points}"),
    "top_card": ReasonCode("a chariot nobody drives plays its top card, not ``card``",
                           "this chariot plays its top card, not a {card}"),
    "no_card": ReasonCode("``card`` is not in the hand", "you have no {card} in hand"),
    "exact": ReasonCode("a move of ``card`` from off the board or without a path",
                        "a {card} moves exactly {card} spaces"),
    "exact_not": ReasonCode("a path of ``steps`` spaces for a move of ``card``",
                            "a {card} moves exactly {card} spaces, not {steps}"),
    "not_forward": ReasonCode(
        "space ``to`` is not one step forward from space ``start`` in the lane graph",
        "space {to} is not one step forward from space {start}: forward only, one lane per "
        "step, diagonally, never across a wall"),
    "taken": ReasonCode("the path runs through or onto the taken space ``space``",
                        "space {space} is taken: no jumping"),
    "line_ends": ReasonCode("the path goes on after the step over the line of the last lap",
                            "the race ends at the line: steps beyond it lapse"),
    "no_alley_drive": ReasonCode("a chariot nobody drives that avoids the alley drives into it",
                                 "this chariot does not drive through the alley"),
    "alley_wait": ReasonCode(
        "the move gives up the alley stop the chariot must wait for (the alley is blocked)",
        "the alley is blocked and you still owe the stop: you must wait until it is free"),
    "lead_no": ReasonCode(
        "the 6-card rule's leader clause: ``lead`` (a reason: lead, lead_jointly, lead_not) "
        "forbids ``card``", "{lead}, so no {card}"),
    "first_row": ReasonCode("the 6-card rule's start clause: no first card ``card`` from the "
                            "first start row",
                            "nobody in the first start row may open with a {card}"),
    "no_card_now": ReasonCode("a card restriction without words of its own forbids ``card``",
                              "no {card} now"),
    HOUSE: ReasonCode(
        "a house rule's restriction in its own words: ``text`` as its group wrote it, with "
        "``card``, ``cards`` and ``lead`` filled in", "{text}"),
    "lead_jointly": ReasonCode("the chariot leads level with others (inside lead_no)",
                               "you lead jointly"),
    "lead": ReasonCode("the chariot leads alone (inside lead_no)", "you lead"),
    "lead_not": ReasonCode("the chariot does not lead (inside lead_no)", "you do not lead"),
}


def fields_of(template: str) -> set[str]:
    """The ``{fields}`` a sentence fills in."""
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _english(code: str) -> str:
    return REASONS[code].english


@dataclass(frozen=True)
class Reason:
    """Why something is not allowed: a code of :data:`REASONS`, its parameters (numbers,
    words, card tuples or reasons) and the citation of the rule (None: none to give).

    ``str(reason)`` and :meth:`english` give the English sentence, the citation after
    `` — ``; :meth:`render` gives it in any language from that language's sentences.

    >>> str(Reason("taken", {"space": 49}, "the rulebook, p. 4"))
    'space 49 is taken: no jumping — the rulebook, p. 4'
    """

    code: str
    params: Mapping[str, object] = field(default_factory=dict)
    cite: str | None = None

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise ValueError(f"unknown reason code {self.code!r} (known: "
                             f"{', '.join(REASONS)})")

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items())), self.cite))

    def render(self, sentence: Callable[[str], str] = _english) -> str:
        """The reason in words: ``sentence(code)`` is the sentence of a code in the wanted
        language; parameters that are reasons are rendered the same way, card tuples as
        ``5, 6``; a house rule's ``text`` is filled in as written."""
        fields = {k: _word(v, sentence) for k, v in self.params.items()}
        if self.code == HOUSE:
            fields["text"] = str(fields.get("text", "")).format(**fields)
        text = sentence(self.code).format(**fields)
        return f"{text} — {self.cite}" if self.cite else text

    def english(self) -> str:
        """The English sentence (the engine's words), with its citation."""
        return self.render(_english)

    def __str__(self) -> str:
        return self.render(_english)

    def to_json(self) -> dict[str, Any]:
        """The reason as JSON data (a view, a record of it): code, params, cite."""
        return {"code": self.code,
                "params": {k: v.to_json() if isinstance(v, Reason)
                           else list(v) if isinstance(v, tuple) else v
                           for k, v in self.params.items()},
                "cite": self.cite}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        """The reason :meth:`to_json` wrote."""
        params = {k: cls.from_json(v) if isinstance(v, Mapping)
                  else tuple(v) if isinstance(v, list) else v
                  for k, v in data.get("params", {}).items()}
        return cls(str(data["code"]), params, data.get("cite"))


def _word(value: object, sentence: Callable[[str], str]) -> object:
    if isinstance(value, Reason):
        return value.render(sentence)
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return value
