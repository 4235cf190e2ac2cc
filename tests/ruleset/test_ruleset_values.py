"""Known rule values of each edition, checked against the sources they cite."""

from __future__ import annotations

import pytest

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.ruleset.load import load_ruleset, race_figures


@pytest.mark.parametrize("edition", ["ravensburger-1989", "pro-ludo-2006", "dicetree-2022"])
def test_shared_values(edition: str) -> None:
    """docs/sources.md, "What every edition shares": 24 cards, four each of 1-6 = 84
    points; 3 laps; hand of 3;
    the alley window differs per edition (test_readings.py) [DiceTree 2022 rulebook (DE)
    S.1, Ravensburger 1989 rules (EN summary), Components, Pro Ludo 2006 Spielregel (DE) p.1]."""
    rs = load_ruleset(edition)
    comp = rs.value("deck.composition")
    assert sum(e["count"] for e in comp) == 24
    assert sum(e["card"] * e["count"] for e in comp) == rs.value("deck.points") == 84
    assert rs.value("race.laps") == 3
    assert rs.value("hand.size") == 3
    assert rs.value("tournament.races") == 4
    assert rs.value("turns.no_move") == "skip_turn"


def test_scoring_tables() -> None:
    """6-4-3-2-1-0 [Ravensburger 1989 rules (EN summary), Scoring; Pro Ludo 2006 Spielregel
    (DE) V]; 8-6-4-3-2-1 [DiceTree 2022 rulebook (DE) S.7]."""
    assert load_ruleset("1989").value("scoring.places") == [6, 4, 3, 2, 1, 0]
    assert load_ruleset("2006").value("scoring.places") == [6, 4, 3, 2, 1, 0]
    assert load_ruleset("2022").value("scoring.places") == [8, 6, 4, 3, 2, 1]
    assert load_ruleset("2022").citation("scoring.places") == "DiceTree 2022 rulebook (DE) S.7"


def test_six_rule_at_start_and_end() -> None:
    """Start player may open with a 6 [Pro Ludo 2006 Spielregel (DE) p.5]; nobody in row 1
    [DiceTree 2022 rulebook (DE) S.5]; the rule ends with the first finisher in 1989
    [Ravensburger 1989 regler (SV), En sexa på hand] and 2022, never in 2006."""
    assert load_ruleset("2006").value("six_rule.at_start") == "start_player_may"
    assert load_ruleset("2022").value("six_rule.at_start") == "first_row_may_not"
    assert load_ruleset("2022").value("start.rows") == [[1, 2, 3], [4, 5, 6]]
    assert load_ruleset("1989").value("six_rule.ends_when") == "race_has_finisher"
    assert load_ruleset("2006").value("six_rule.ends_when") == "never"


def test_ownerless_chariots_only_in_1989_edition() -> None:
    """Empty start places are filled [Ravensburger 1989 rules (EN summary), Non-Player
    Chariots]; in 2006 and 2022 they are variants."""
    assert load_ruleset("1989").value("ownerless.when") == "fill_empty_places"
    assert load_ruleset("2006").value("ownerless.when") == "never"
    gl = load_ruleset("2022", ["team-gladiator"])
    assert gl.value("ownerless.position_moves") == {"leading": 2, "middle": 4, "last": 6}


def test_figures_default_edition() -> None:
    assert race_figures(load_ruleset("dicetree-2022")) == RaceFigures(
        alley_laps=(2, 3), source="ruleset dicetree-2022")
    assert race_figures(load_ruleset("1989")).alley_laps == (1, 2)


def test_figures_homebrew_bonus() -> None:
    """+3 bonus piece, usable once [reader homebrew (PT comments), comment 1]."""
    f = race_figures(load_ruleset("reader-homebrew"))
    assert f.bonus_points == 3 and f.budget == 87
    assert race_figures(load_ruleset("2022", ["homebrew-bonus-piece"])).bonus_points == 3


def test_figures_water() -> None:
    """DE: skipped [Pro Ludo 2006 Spielregel (DE) p.5]; PT: decoration [Pro Ludo 2006 rules
    (PT) III]."""
    assert race_figures(load_ruleset("pro-ludo-2006")).water == "skipped"
    assert race_figures(load_ruleset("2006", ["pro-ludo-2006-water-pt"])).water == "space"


def test_figures_alley_race_card_makes_the_stop_optional() -> None:
    """Variant 3: no alley stop no longer disqualifies [DiceTree 2022 rulebook (DE) S.8-12]."""
    assert race_figures(load_ruleset("2022")).alley_required is True
    assert race_figures(load_ruleset("2022", ["alley-race-card"])).alley_required is False


def test_figures_deck_sizes_keep_84_points() -> None:
    """Variant 6: normal, medium and fast decks all have 84 points [DiceTree 2022 rulebook
    (DE) S.11]."""
    assert race_figures(load_ruleset("2022", ["deck-sizes"])).deck_points == 84


def test_figures_money_race_has_six_laps() -> None:
    """Variant 7: 6 laps [DiceTree 2022 rulebook (DE) S.8-12]."""
    assert race_figures(load_ruleset("2022", ["money-instead-of-laurels"])).laps == 6
