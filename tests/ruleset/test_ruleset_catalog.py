"""The bundled rulesets and variants exist, validate and resolve by name (issue 4)."""

from __future__ import annotations

import pytest

from avecaesar.engine.data.errors import UnknownNameError
from avecaesar.engine.data.paths import RULESETS_DIR
from avecaesar.engine.data.yamlsource import load_yaml
from avecaesar.engine.ruleset.catalog import check_source
from avecaesar.engine.ruleset.load import list_rulesets, load_ruleset


def rulesets() -> list[str]:
    return [e.id for e in list_rulesets() if e.kind != "variant"]


def variants() -> list[str]:
    return [e.id for e in list_rulesets() if e.kind == "variant"]


EXPECTED = {
    "edition": {"ravensburger-1989", "pro-ludo-2006", "dicetree-2022"},
    "homebrew": {"reader-homebrew"},
    "variant": {
        # docs/sources.md, "Where the editions differ", Ravensburger 1989 [001]
        "start-by-result", "missed-turns", "crash-and-burn", "dishonour", "ausgebremst-scoring",
        # Pro Ludo 2006 [002 VII, 003 VII]
        "ownerless-chariots", "several-chariots-per-player", "pro-ludo-team-race",
        # DiceTree 2022, 5 options [000 S.8-12]
        "scoring-by-player-count", "mini-tournament", "no-waiting", "lapse-movement-points",
        "four-hand-cards",
        # DiceTree 2022, 7 variants [000 S.8-12]
        "team-gladiator", "ramming-attacks", "alley-race-card", "split-deck",
        "dicetree-team-race", "deck-sizes", "money-instead-of-laurels",
        # docs/sources.md, "Where the editions differ", source conflicts kept as data
        "ravensburger-1989-courses-sv", "ravensburger-1989-next-race-sv",
        "pro-ludo-2006-water-pt",
        # the other readings of a text (issue 10: kind 'conflict' / a 'read' value's variant)
        "dicetree-2022-alley-laps-1-2", "dicetree-2022-six-rule-example",
        "team-gladiator-skip-first-six",
        # reader homebrew (PT comments)
        "homebrew-bonus-piece", "homebrew-team-pairs",
    },
}


def test_every_ruleset_and_variant_of_rules_md_exists() -> None:
    """docs/sources.md, "Where the editions differ": every edition, variant, option and
    source conflict is a file."""
    found: dict[str, set[str]] = {}
    for e in list_rulesets():
        found.setdefault(e.kind, set()).add(e.id)
    assert found == EXPECTED


@pytest.mark.parametrize("path", sorted(RULESETS_DIR.rglob("*.yaml")), ids=lambda p: p.stem)
def test_bundled_file_is_valid_and_named_by_its_id(path) -> None:
    source = load_yaml(path)
    assert check_source(source) == []
    assert source.data["id"] == path.stem


@pytest.mark.parametrize("name,expected", [
    ("1989", "ravensburger-1989"), ("Ravensburger", "ravensburger-1989"),
    ("RAVENSBURGER-1989", "ravensburger-1989"),
    ("2006", "pro-ludo-2006"), ("proludo", "pro-ludo-2006"), ("Pro-Ludo", "pro-ludo-2006"),
    ("2022", "dicetree-2022"), ("DiceTree", "dicetree-2022"),
    ("homebrew", "reader-homebrew"),
])
def test_names_resolve_case_insensitively_with_aliases(name: str, expected: str) -> None:
    assert load_ruleset(name).id == expected


def test_aliases_are_unique_across_rulesets() -> None:
    seen: dict[str, str] = {}
    for e in list_rulesets():
        for name in (e.id, *e.aliases):
            assert name.lower() not in seen, f"{name} used by {seen.get(name.lower())} and {e.id}"
            seen[name.lower()] = e.id


def test_unknown_ruleset_lists_known_and_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as err:
        load_ruleset("pro-ludo-2007")
    text = str(err.value)
    assert "did you mean 'pro-ludo-2006'" in text
    for rid in rulesets():
        assert rid in text


def test_unknown_variant_lists_known_and_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as err:
        load_ruleset("dicetree-2022", ["four-hand-card"])
    assert "did you mean 'four-hand-cards'" in str(err.value)
    assert all(v in str(err.value) for v in variants())


def test_a_ruleset_may_be_a_file_path() -> None:
    path = RULESETS_DIR / "editions" / "pro-ludo-2006.yaml"
    assert load_ruleset(str(path)).id == "pro-ludo-2006"


def test_homebrew_extends_pro_ludo_and_applies_its_parts() -> None:
    """reader homebrew (PT comments): 4 hand cards, +3 bonus, teams of 2, 3 races."""
    rs = load_ruleset("reader-homebrew")
    assert rs.data["based_on"] == ["pro-ludo-2006"]
    assert rs.variants == ("homebrew-bonus-piece", "homebrew-team-pairs")
    assert rs.value("hand.size") == 4
    assert rs.value("bonus.points") == 3
    assert rs.value("players.chariots_per_player") == 2
    assert rs.value("teams.scoring") == "team_total"
    assert rs.value("tournament.races") == 3
    assert rs.citation("hand.size").startswith("reader homebrew (PT comments)")
    # everything else is Pro Ludo 2006's: water ditches skipped [Pro Ludo 2006 Spielregel (DE) p.5]
    assert rs.value("water.ditches") == "skipped"
    assert rs.citation("water.ditches") == "Pro Ludo 2006 Spielregel (DE) p.5"
