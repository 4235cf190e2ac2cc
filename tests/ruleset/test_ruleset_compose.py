"""Composition: every variant with every ruleset it applies to; conflicts, requirements,
unknown values and overrides give clear errors (issue 4, DESIGN.md "A ruleset is data")."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.paths import RULESETS_DIR
from avecaesar.engine.ruleset.load import RulesetConflictError, list_rulesets, load_ruleset

ENTRIES = {e.id: e for e in list_rulesets()}
RULESETS = [e.id for e in ENTRIES.values() if e.kind != "variant"]
VARIANTS = [e.id for e in ENTRIES.values() if e.kind == "variant"]


def _variant_data(vid: str) -> dict:
    return yaml.safe_load((RULESETS_DIR / "variants" / f"{vid}.yaml").read_text("utf-8"))


def _lineage(rid: str) -> set[str]:
    return {rid, *load_ruleset(rid).data["based_on"]}


def _pairs() -> list[tuple[str, str]]:
    out = []
    for vid in VARIANTS:
        targets = _variant_data(vid)["applies_to"]
        for rid in RULESETS:
            if "any" in targets or set(targets) & _lineage(rid):
                out.append((rid, vid))
    return out


def _conflict_free(rid: str, vid: str) -> bool:
    """The homebrew already applies some variants; skip those a test would apply twice or
    that conflict with them."""
    applied = set(load_ruleset(rid).variants)
    for v in [*_variant_data(vid).get("requires", []), vid]:
        clashes = set(_variant_data(v).get("conflicts", []))
        clashes |= {a for a in applied if v in _variant_data(a).get("conflicts", [])}
        if v in applied or clashes & applied:
            return False
    return True


@pytest.mark.parametrize("rid,vid", _pairs())
def test_variant_composes_with_each_ruleset_it_applies_to(rid: str, vid: str) -> None:
    if not _conflict_free(rid, vid):
        pytest.skip("the homebrew applies a conflicting variant itself")
    chain = [*_variant_data(vid).get("requires", []), vid]
    rs = load_ruleset(rid, chain)
    assert rs.variants[-len(chain):] == tuple(chain)
    for key in rs.stated_keys():
        assert rs.citation(key)
    # every value the variant states is in the result, with the variant's citation
    for group, keys in (_variant_data(vid).get("rules") or {}).items():
        for name, leaf in keys.items():
            assert rs.rule(f"{group}.{name}") == leaf


def test_every_variant_applies_to_at_least_one_edition() -> None:
    covered = {vid for _rid, vid in _pairs()}
    assert covered == set(VARIANTS)


def _declared_conflicts() -> list[tuple[str, str]]:
    out = set()
    for vid in VARIANTS:
        for other in _variant_data(vid).get("conflicts", []):
            out.add((vid, other))
    return sorted(out)


def _target(a: str, b: str) -> str:
    """A ruleset both variants apply to."""
    for rid in ("dicetree-2022", "ravensburger-1989", "pro-ludo-2006"):
        if all("any" in _variant_data(v)["applies_to"] or rid in _variant_data(v)["applies_to"]
               for v in (a, b)):
            return rid
    raise AssertionError(f"no common ruleset for {a} and {b}")


@pytest.mark.parametrize("a,b", _declared_conflicts())
def test_each_declared_conflict_is_a_clear_error_in_both_orders(a: str, b: str) -> None:
    rid = _target(a, b)
    for first, second in ((a, b), (b, a)):
        chain = [*_variant_data(first).get("requires", []), first,
                 *_variant_data(second).get("requires", []), second]
        with pytest.raises(RulesetConflictError) as err:
            load_ruleset(rid, chain)
        assert "conflicts with variant" in str(err.value)
        assert "choose one of them" in str(err.value)


def test_declared_conflicts_include_the_obvious_clashes() -> None:
    """Both set the hand size [DiceTree 2022 rulebook (DE) S.8-12]; both set the scoring
    table; both set the no-move rule."""
    pairs = {frozenset(p) for p in _declared_conflicts()}
    assert frozenset({"four-hand-cards", "split-deck"}) in pairs
    assert frozenset({"ausgebremst-scoring", "scoring-by-player-count"}) in pairs
    assert frozenset({"missed-turns", "lapse-movement-points"}) in pairs
    assert frozenset({"ownerless-chariots", "team-gladiator"}) in pairs


def test_requires_is_a_clear_error() -> None:
    """The 2006 team race is several chariots per player with team scoring [Pro Ludo 2006
    Spielregel (DE) VII]."""
    with pytest.raises(RulesetConflictError) as err:
        load_ruleset("pro-ludo-2006", ["pro-ludo-team-race"])
    assert str(err.value) == (
        "variant 'pro-ludo-team-race' requires variant 'several-chariots-per-player' — add "
        "--variant several-chariots-per-player before --variant pro-ludo-team-race")


def test_applies_to_is_enforced() -> None:
    """The Swedish course recommendation is about the 1989 board only."""
    with pytest.raises(RulesetConflictError) as err:
        load_ruleset("dicetree-2022", ["ravensburger-1989-courses-sv"])
    assert "written for ravensburger-1989, not for 'dicetree-2022'" in str(err.value)


def test_a_variant_twice_is_an_error() -> None:
    with pytest.raises(RulesetConflictError, match="applied twice"):
        load_ruleset("2022", ["four-hand-cards", "four-hand-cards"])


def test_variants_apply_in_order_later_wins() -> None:
    """The issue's example: 2022 rules with 4 hand cards and the Ausgebremst scoring."""
    rs = load_ruleset("dicetree-2022", ["four-hand-cards", "ausgebremst-scoring"])
    assert rs.value("hand.size") == 4
    assert rs.value("scoring.places") == [9, 6, 4, 3, 2, 1]
    assert rs.citation("scoring.places") == \
        "Ravensburger 1989 rules (EN summary), Optional Variants"
    assert rs.origins["scoring.places"] == "variant ausgebremst-scoring"
    assert rs.value("six_rule.at_start") == "first_row_may_not"  # still 2022's


# --- unknown values (docs/rulesets.md, "Open values and house rules") -----------------------

UNKNOWN = [
    ("dicetree-2022", ["scoring-by-player-count"], "scoring.places"),
    ("dicetree-2022", ["deck-sizes"], "deck.alternative_compositions"),
    ("dicetree-2022", ["deck-sizes"], "deck.choice"),
    ("dicetree-2022", ["split-deck"], "deck.split"),
    ("dicetree-2022", ["money-instead-of-laurels"], "prize_money.per_lap"),
    ("dicetree-2022", ["ramming-attacks"], "ramming.attack_chips"),
    ("dicetree-2022", ["ramming-attacks"], "ramming.tie"),
    ("dicetree-2022", ["mini-tournament"], "tournament.races"),
    ("dicetree-2022", ["alley-race-card"], "alley.race_card"),
    ("pro-ludo-2006", ["ownerless-chariots"], "ownerless.occupies_places"),
    ("pro-ludo-2006", ["several-chariots-per-player"], "players.chariots_per_player"),
    ("pro-ludo-2006", ["several-chariots-per-player"], "teams.turn_order"),
    ("reader-homebrew", [], "teams.turn_order"),
]


def test_every_unknown_value_is_listed_here() -> None:
    """Each value declared unknown anywhere in the data has its error-message test."""
    found = set()
    for rid in RULESETS:
        found |= set(load_ruleset(rid).unknown_keys())
    for vid in VARIANTS:
        for group, keys in (_variant_data(vid).get("rules") or {}).items():
            found |= {f"{group}.{k}" for k, leaf in keys.items() if leaf.get("unknown")}
    assert found <= {key for _r, _v, key in UNKNOWN} | {"teams.scoring"}


@pytest.mark.parametrize("rid,variants,key", UNKNOWN, ids=lambda x: str(x))
def test_using_an_unknown_value_names_it_and_how_to_supply_it(rid, variants, key) -> None:
    rs = load_ruleset(rid, variants)
    assert key in rs.unknown_keys()
    with pytest.raises(MissingRuleValueError) as err:
        rs.value(key)
    text = str(err.value)
    assert err.value.key == key
    assert "open that this race needs" in text
    assert f"--set {key}=" in text  # the exact line to copy
    assert "--house house.yaml" in text and f"\n  {key}: " in text  # the file to copy
    assert rs.citation(key) in text  # where the gap is


def test_the_2022_scoring_table_by_player_count_message() -> None:
    """[DiceTree 2022 rulebook (DE) S.8-12]: the option names the table but does not print it."""
    rs = load_ruleset("2022", ["scoring-by-player-count"])
    with pytest.raises(MissingRuleValueError, match="table by number of players is not in"):
        rs.value("scoring.places")
    assert rs.value("scoring.not_finished") == -1


def test_choices_are_offered() -> None:
    rs = load_ruleset("2022", ["mini-tournament"])
    with pytest.raises(MissingRuleValueError, match=r"one of: 2, 3"):
        rs.value("tournament.races")


def test_supplying_an_unknown_value_with_set() -> None:
    rs = load_ruleset("2022", ["scoring-by-player-count"], {"scoring.places": "7,5,3,1"})
    assert rs.value("scoring.places") == [7, 5, 3, 1]
    assert rs.citation("scoring.places") == "user override (--set)"
    rs = load_ruleset("1989", [], {"disqualification.keeps_place": "true"})  # a read value
    assert rs.value("disqualification.keeps_place") is True


def test_supplying_an_unknown_value_with_an_overlay_file(tmp_path: Path) -> None:
    overlay = tmp_path / "our-prizes.yaml"
    overlay.write_text(
        "id: our-prizes\nkind: variant\ntitle: Our prize money\n"
        "source: 'house rule: our club'\napplies_to: [any]\n"
        "rules:\n  prize_money:\n    per_lap: {value: [5, 3, 1], source: 'house rule: our club'}\n"
        "remove: [ownerless.move]\n", encoding="utf-8")
    rs = load_ruleset("2022", ["money-instead-of-laurels", str(overlay)])
    assert rs.value("prize_money.per_lap") == [5, 3, 1]
    assert rs.variants[-1] == "our-prizes"


def test_removing_a_required_rule_fails_validation_of_the_composed_result(tmp_path) -> None:
    overlay = tmp_path / "no-scoring.yaml"
    overlay.write_text(
        "id: no-scoring\nkind: variant\ntitle: Drops the scoring table\n"
        "source: 'house rule: test'\napplies_to: [any]\nremove: [scoring.places]\n",
        encoding="utf-8")
    with pytest.raises(RulesetConflictError) as err:
        load_ruleset("2022", [str(overlay)])
    assert "the composed ruleset dicetree-2022 + no-scoring is not valid" in str(err.value)
    assert "scoring: missing key 'places'" in str(err.value)


def test_composed_result_is_validated_against_the_schema() -> None:
    with pytest.raises(RulesetConflictError) as err:
        load_ruleset("2022", [], {"hand.size": "0"})
    assert "hand.size.value" in str(err.value) and "(from --set)" in str(err.value)
    with pytest.raises(RulesetConflictError, match="the scoring table must not rise"):
        load_ruleset("2022", [], {"scoring.places": "1,2,3"})


def test_set_with_an_unknown_key_suggests_the_closest() -> None:
    with pytest.raises(AveCaesarError, match=r"did you mean 'hand\.size'"):
        load_ruleset("2022", [], {"hand.sise": "4"})


def test_a_variant_file_given_as_ruleset_is_refused() -> None:
    path = RULESETS_DIR / "variants" / "four-hand-cards.yaml"
    with pytest.raises(AveCaesarError, match="this file is a variant"):
        load_ruleset(str(path))
