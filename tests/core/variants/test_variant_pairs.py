"""Variant combinations: any two variants that declare no conflict run together. For every such
pair a seeded race on the test oval is played to its end and its record replayed; pairs that
declare a conflict are refused by composition. Values the sources leave open are supplied
(SUPPLY), as a user would with --set. DiceTree 2022 rulebook (DE) S.8-12: options and variants
are "largely combinable".
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml

from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.record import record_lines, replay
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.course.load import load_course
from avecaesar.engine.ruleset.load import RulesetConflictError, load_ruleset

ROOT = Path(__file__).parents[3]
OVAL = ROOT / "tests" / "core" / "courses" / "oval.yaml"
DATA = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))}
DEFAULT_BASE = "dicetree-2022"

# what a group must decide where the sources are silent (docs/rulesets.md, "Open values
# and house rules")
SUPPLY = {
    "disqualification.keeps_place": "false",
    "ownerless.six_rule": "true",
    "ownerless.occupies_places": "true",
    "players.chariots_per_player": "2",
    "teams.turn_order": "player_orders_own_chariots",
    "teams.scoring": "all_chariots_score",
    "scoring.places": "5,3,2,1",
    "alley.race_card": "3",
    "deck.choice": "fast",
    "deck.alternative_compositions":
        "[{name: fast, values: [6,6,6,6,6,6,6,5,5,5,5,4,4,4,3,3,2,1,1]}]",
    "tournament.races": "2",
    "deck.split": "dealt_face_down",
    "prize_money.per_lap": "5,3,1",
    "ramming.tie": "attacker_wins",
    "ramming.attack_chips": "no_effect",
}

# variants the engine cannot race (none now; a refused variant must raise a clear
# UnsupportedRuleError, tested with its scenario)
REFUSED: set[str] = set()


def base_of(*variants: str) -> str | None:
    """The ruleset a combination is raced under: the edition a variant is written for, else
    2022; None if two variants are written for different editions."""
    bases = {e for v in variants for e in DATA[v].get("applies_to", ["any"]) if e != "any"}
    if len(bases) > 1:
        return None
    return bases.pop() if bases else DEFAULT_BASE


def declared_conflict(a: str, b: str) -> bool:
    return b in (DATA[a].get("conflicts") or []) or a in (DATA[b].get("conflicts") or [])


def with_requirements(pair: tuple[str, ...]) -> list[str]:
    """The pair with what it requires, each requirement before the variant needing it."""
    out: list[str] = []
    for v in pair:
        for r in DATA[v].get("requires") or []:
            if r not in out:
                out.append(r)
        if v not in out:
            out.append(v)
    return out


PAIRS = [p for p in itertools.combinations(sorted(DATA), 2)
         if not REFUSED & set(p) and base_of(*p) is not None]


@pytest.fixture(scope="module")
def oval() -> Board:
    return Board.from_graph(load_course(str(OVAL)).graph, "oval")


def conflicting(pair: tuple[str, ...]) -> bool:
    return any(declared_conflict(a, b)
               for a, b in itertools.combinations(with_requirements(pair), 2))


def test_the_pairs_cover_enough_combinations() -> None:
    assert sum(not conflicting(p) for p in PAIRS) > 150
    assert sum(conflicting(p) for p in PAIRS) >= 10


@pytest.mark.parametrize("pair", PAIRS, ids="+".join)
def test_a_pair_races_and_replays_or_is_refused_for_its_conflict(pair, oval):
    variants = with_requirements(pair)
    base = base_of(*variants)
    if conflicting(pair):
        with pytest.raises(RulesetConflictError):
            load_ruleset(base, variants)
        return
    ruleset = load_ruleset(base, variants)
    if ruleset.unknown_keys():  # what a group must decide, supplied as --set would
        ruleset = load_ruleset(base, variants, {k: SUPPLY[k] for k in ruleset.unknown_keys()})
    rules = rules_from_ruleset(ruleset)
    seed = PAIRS.index(pair)
    players = ["a", "b", "c"]
    run = run_race(rules, oval, players, [greedy_policy] * 3, seed=seed,
                   ownerless=greedy_policy)
    assert run.outcome.termination in ("finished", "deadlock")
    lines = record_lines(run, {"players": [{"name": n, "bot": "greedy"} for n in players],
                               "seed": seed})
    lines = [{**line, "_line": n} for n, line in enumerate(lines, start=1)]
    final = replay(lines, rules, oval, f"pair {pair}")
    assert final.notation() == run.state.notation()
