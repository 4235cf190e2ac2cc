"""The course brief (schemas/brief.schema.json, engine/lab/brief.py): the issue's example
reads with its defaults, and every mistake is a located problem that says what to change."""

from __future__ import annotations

from pathlib import Path

import pytest

from avecaesar.engine.data.errors import InputError, UsageError
from avecaesar.engine.data.schemas import schema
from avecaesar.engine.lab.brief import BRIEF_SCHEMA, Span, brief_rules, read_brief

ROOT = Path(__file__).resolve().parents[2]
ISSUE = """\
# yaml-language-server: $schema=../../schemas/brief.schema.json
name: Short and tight
lanes: 3                    # 2..4
start_places: 6
laps: 3
reserve: [3, 9]
alley: {spaces: [2, 4]}
pieces: {curves: [2, 4], chicanes: [0, 2], walls: [0, 3], bridges: 0}
footprint_cm: [67, 50]
balance: {bots: greedy, over: tournament, spread_max: 12}
ruleset: dicetree-2022
keep: []
"""


def _problems(text: str) -> list[str]:
    with pytest.raises(InputError) as err:
        read_brief("b.yaml", text)
    return [str(p) for p in err.value.problems]


def test_the_schema_is_registered_by_its_id() -> None:
    assert schema(BRIEF_SCHEMA)["$id"] == BRIEF_SCHEMA


def test_the_issues_brief_reads_with_every_key() -> None:
    b = read_brief("b.yaml", ISSUE)
    assert (b.lanes, b.start_places, b.laps) == (3, 6, 3)
    assert b.reserve == Span(3, 9) and b.alley_spaces == Span(2, 4)
    assert b.pieces["bridges"] == Span(0, 0) and b.pieces["walls"] == Span(0, 3)
    assert b.footprint_cm == (67.0, 50.0) and b.space_mm == 36.0
    assert b.balance is not None and b.balance.spread_max == 12.0
    assert b.where("reserve") == "b.yaml:6:10"


def test_a_single_number_is_a_range_of_one() -> None:
    b = read_brief("b.yaml", ISSUE.replace("reserve: [3, 9]", "reserve: 4"))
    assert b.reserve == Span(4, 4) and 4 in b.reserve and 5 not in b.reserve


@pytest.mark.parametrize(("old", "new", "want"), [
    ("lanes: 3 ", "lanes: 5 ", "b.yaml:3:8: 5 is greater than the maximum of 4"),
    ("reserve: [3, 9]", "reserve: [9, 3]",
     "b.yaml:6:10: [9, 3]: the smallest value is above the largest — write [3, 9]"),
    ("chicanes: [0, 2]", "chicane: [0, 2]", "unknown key 'chicane' — did you mean 'chicanes'?"),
    ("footprint_cm: [67, 50]", "footprint_cm: [67]", "b.yaml:9:15: 1 items: too short"),
    ("alley: {spaces: [2, 4]}", "alley: {}", "b.yaml:7:8: missing key 'spaces'"),
    ("name: Short and tight\n", "", "missing key 'name' — add it here"),
    ("over: tournament", "over: league",
     'b.yaml:10:31: "league" is not allowed (one of: tournament, race)'),
])
def test_a_mistake_is_located_and_says_what_to_change(old: str, new: str, want: str) -> None:
    assert old in ISSUE
    problems = _problems(ISSUE.replace(old, new))
    assert any(want in p for p in problems), problems


def test_laps_that_are_not_the_rulesets_are_refused_where_they_are_written() -> None:
    b = read_brief("b.yaml", ISSUE.replace("laps: 3", "laps: 4"))
    with pytest.raises(UsageError, match=r"b.yaml:5:7: laps 4, but the ruleset dicetree-2022 "
                                         r"races 3"):
        brief_rules(b)


def test_the_bundled_briefs_read() -> None:
    briefs = sorted((ROOT / "courses" / "briefs").glob("*.yaml"))
    assert briefs
    for path in briefs:
        assert read_brief(path).name
