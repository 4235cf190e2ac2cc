"""From names to a race: the composed rules and the board of a course, as every command
(race, play, replay, tournament, simulate) builds them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.ruleset_adapter import RaceRules, rules_from_ruleset
from avecaesar.engine.course.load import contract_water, load_course
from avecaesar.engine.data.content_memo import ContentMemo
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.ruleset.embedded import embedded_texts
from avecaesar.engine.ruleset.load import load_ruleset

__all__ = ["CONTENT_KEYS", "content_hashes", "race_setup"]

#: what a record's header ``content`` holds: each a SHA-256 in hex (docs/engine.md, "Game
#: records"); ``house`` only when there are house rules
CONTENT_KEYS = ("course", "ruleset", "house")


def race_setup(ruleset: str, variants: Sequence[str], overrides: Mapping[str, str],
               course: str, house: Mapping[str, Mapping[str, Any]] | None = None
               ) -> tuple[RaceRules, Board]:
    """The race rules and the board for a ruleset (with variants, house rules and ``--set``
    values) and a course id or file. A course with errors is an :class:`InputError`; water
    ditches are contracted where the rules jump them uncounted."""
    composed = load_ruleset(ruleset, list(variants), dict(overrides), house)
    rules = rules_from_ruleset(composed)
    c = load_course(course)
    if c.errors:
        raise InputError(c.errors)
    g = contract_water(c.graph) if rules.water_skipped else c.graph
    return rules, Board.from_graph(g, c.id)


_CONTENT: ContentMemo[dict[str, str]] = ContentMemo(32)


def content_hashes(ruleset: str, variants: Sequence[str], overrides: Mapping[str, str],
                   course: str, house: Mapping[str, Mapping[str, Any]] | None = None
                   ) -> dict[str, str]:
    """What a race is played on, as hashes a record carries (issue 26): ``course``, the
    course's lane graph (spaces, steps, walls, alley, start places, drawing — not where the
    file lives or its id); ``ruleset``, the composed rule values (variants, ``--set`` values
    and house rules applied; not the citations); ``house``, the house rules. Kept while
    the files they were read from are unchanged (the cache rule)."""
    key = (ruleset, tuple(variants), tuple(sorted(overrides.items())), course,
           _canonical(house) if house else "", tuple(sorted(embedded_texts().items())))
    return dict(_CONTENT.get(key, lambda: _content(ruleset, variants, overrides, course,
                                                   house))[0])


def _content(ruleset: str, variants: Sequence[str], overrides: Mapping[str, str],
             course: str, house: Mapping[str, Mapping[str, Any]] | None) -> dict[str, str]:
    import networkx as nx

    rs = load_ruleset(ruleset, list(variants), dict(overrides), house)
    values = {k: {f: v for f, v in rs.rule(k).items() if f in ("value", "unknown")}
              for k in rs.stated_keys()}
    g = load_course(course).graph
    data = nx.node_link_data(g, edges="edges")
    data["graph"] = {k: v for k, v in data["graph"].items() if k not in ("file", "id")}
    out = {"course": _sha(_canonical(data)), "ruleset": _sha(_canonical(values))}
    if house:
        out["house"] = _sha(_canonical(house))
    return out


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
