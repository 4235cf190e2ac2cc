"""Readings (issue 10): where the texts imply a value, the data gives it; each scenario
names its source and quotes the words the reading rests on.

The test oval (courses/oval.yaml): grid places 1-3 on nodes 83, 84, 85 and 4-6 on 80, 81,
82, right behind the line (83 → 0 crosses it), so crossings 1 = lap 1 from place 1; the
alley 9 → 10 → 14 → 18 entered only from 5; the chicane 49 reached from 46, 47, 48.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.race import new_race, outcome
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import WAIT, Move
from avecaesar.engine.ruleset.load import load_ruleset, rule_kind

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def cards(state):
    return {m.card for m in state.legal_moves()}


def a_path(state, c, k):
    return next(walks(state, c, k))


# --- kinds in the data ---------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_no_base_edition_has_an_open_value(edition):
    rs = load_ruleset(edition)
    assert rs.unknown_keys() == []
    kinds = rs.kinds()
    assert set(kinds.values()) <= {"stated", "read", "conflict"}
    for key, kind in kinds.items():
        if kind == "read":
            assert "'" in rs.rule(key)["reading"], key  # it quotes the words it rests on


def test_kinds_of_the_readings():
    k89, k06, k22 = (load_ruleset(e).kinds() for e in EDITIONS)
    assert k89["disqualification.keeps_place"] == k06["disqualification.keeps_place"] == "read"
    assert k89["ownerless.six_rule"] == "read"
    assert load_ruleset("2022", ["team-gladiator"]).kind_of("ownerless.six_rule") == "read"
    assert k22["alley.laps"] == "conflict" and k22["six_rule.forbidden_when"] == "conflict"
    assert k22["disqualification.keeps_place"] == "stated"
    for rule in ("leader.finishers_lead", "six_rule.free_when"):
        assert k89[rule] == k06[rule] == k22[rule] == "read"


# A note that says no text gives the value contradicts the kind ``stated``: such a value is
# ``read`` (its ``reading`` quotes the words it rests on). The test reads every rule of every
# bundled ruleset file, so a new contradiction fails wherever it is written.
NO_TEXT_GIVES_IT = re.compile(r"""
    \b(?:does|do|did)\s+not\s+(?:define|give|say|state|name|mention|specify|tell)\b
  | \bnot\s+(?:given|stated|defined|said|named|mentioned|specified)\b
  | \bno\s+(?:text|source|rulebook|sentence|rule)s?\s+(?:gives?|says?|states?|defines?|names?)\b
  | \bno\s+[\w-]+(?:\s+[\w-]+)?\s+is\s+(?:given|stated|defined|named|mentioned)\b
  | \b(?:is|are)\s+not\s+in\s+the\s+(?:texts?|sources?|rules|rulebook)\b
  | \b(?:texts?|sources?|rules|rulebook)\s+(?:is|are)\s+silent\b
""", re.I | re.X)
RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def _rules_of_file(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for group, keys in (data.get("rules") or {}).items():
        for key, rule in (keys or {}).items():
            if isinstance(rule, dict) and "source" in rule:
                yield f"{group}.{key}", rule


def test_the_criterion_catches_the_notes_that_claimed_too_much():
    # the two notes the re-check found under `stated` (issue 20)
    assert NO_TEXT_GIVES_IT.search("'The player with the most total points wins'; no "
                                   "tie-break is given.")
    assert NO_TEXT_GIVES_IT.search("The rulebook does not define who leads; the common "
                                   "measure of race progress is used.")
    assert not NO_TEXT_GIVES_IT.search("'you miss your turn (do not play a card)'")
    assert not NO_TEXT_GIVES_IT.search("Start places I-VI, no start rows.")


@pytest.mark.parametrize("path", sorted(RULESETS.rglob("*.yaml")), ids=lambda p: p.stem)
def test_no_stated_value_says_no_text_gives_it(path):
    for key, rule in _rules_of_file(path):
        if rule_kind(rule) == "stated":
            note = str(rule.get("note", ""))
            assert not NO_TEXT_GIVES_IT.search(note), (
                f"{path.name}: {key} is stated, but its note says no text gives it: mark it "
                f"read, with a reading that quotes the words it rests on ({note!r})")


@pytest.mark.covers("rule:tournament.tie_break", "rule:leader.measure")
def test_the_tie_breaks_and_2006_leader_measure_are_read():
    k89, k06 = load_ruleset("ravensburger-1989").kinds(), load_ruleset("pro-ludo-2006").kinds()
    assert k89["tournament.tie_break"] == k06["tournament.tie_break"] == "read"
    assert k06["leader.measure"] == "read"


# --- disqualification.keeps_place, read false in 1989 and 2006 ----------------------------

@pytest.mark.parametrize("edition,words", [
    ("ravensburger-1989", "after completing 3 laps and visiting the Imperial Alley wins"),
    ("ravensburger-1989", "har kört igenom kejsarpassagen en gång och som först når mållinjen"),
    ("pro-ludo-2006", "und dabei zuvor ein Mal in die Kaisergasse gefahren ist"),
])
def test_a_disqualified_finisher_takes_no_place_those_behind_move_up(position, edition, words):
    # Ravensburger 1989 rules (EN summary), Scoring; Ravensburger 1989 regler (SV), Slutet på
    # loppet; Pro Ludo 2006 Spielregel (DE) V: the winner is the first over the line who
    # stopped in the alley
    assert words in load_ruleset(edition).rule("disqualification.keeps_place")["reading"]
    text = "-,4,s,-,-,6,f -,4,c,-,-,6,fq -,4,s,-,-,6,f | A 0 90 finished ABC"
    res = outcome(position(edition, text))
    assert [(p.chariot, p.place, p.points) for p in res.placings] == [
        (0, 1, 6), (2, 2, 4), (1, None, 0)]


# --- ownerless.six_rule, read true in 1989 ------------------------------------------------

@pytest.mark.covers("rule:ownerless.six_rule")
def test_1989_a_leading_non_player_chariot_may_not_play_a_6(position):
    # "The leading chariot(s) may not play a 6" (Ravensburger 1989 rules (EN summary),
    # Leader restriction): chariots, not players
    s = position("ravensburger-1989", "19,1,c,123,-,6,r 22,1,c,-,6123,4,r | B 0 2 -",
                 ownerless="B")
    assert s.game.rules.ownerless.six_rule is True
    moves = s.legal_moves()
    assert not moves and moves.skip_reason == "six_rule"
    s.skip(moves.skip_reason)
    assert s.decks[1] == (1, 2, 3, 6)  # "goes back under the deck without moving"


# --- Team Gladiator's first move ----------------------------------------------------------

@pytest.mark.covers("rule:ownerless.forbidden_first_card")
def test_team_gladiator_first_row_reveals_the_next_card_instead_of_a_6(oval):
    # "Aus der ersten Startreihe darf niemand mit einer 6 starten" (DiceTree 2022 rulebook
    # (DE) S.5): 'niemand' binds a TG chariot's first move too; a player would pick another
    # card, so the next card is revealed (variant team-gladiator-skip-first-six: skip it)
    read = rules_from_ruleset(load_ruleset("2022", ["team-gladiator"]))
    skip = rules_from_ruleset(load_ruleset("2022", ["team-gladiator",
                                                    "team-gladiator-skip-first-six"]))
    assert read.ownerless.six_rule and read.ownerless.forbidden_first_card == "reveal_next"
    assert skip.ownerless.forbidden_first_card == "skip_move"
    seen_six = 0
    for seed in range(60):
        a, _ = new_race(read, oval, ["Anna", "Ben"], seed)
        b, _ = new_race(skip, oval, ["Anna", "Ben"], seed)
        tg_row_1 = 2  # chariot C: start place 3, the first row (1-3) of the 2022 grid
        if b.decks[tg_row_1] == (6,):
            seen_six += 1
            assert a.decks[tg_row_1] != (6,)
            b.turn = a.turn = tg_row_1
            assert not b.legal_moves() and b.legal_moves().skip_reason == "six_rule"
        else:
            assert a.decks[tg_row_1] == b.decks[tg_row_1]
        assert a.decks[3:] == b.decks[3:]  # the second row may open with a 6
    assert seen_six > 0


# --- the alley window per edition ---------------------------------------------------------

@pytest.mark.parametrize("edition,variants,counts", [
    # "during the 1st or 2nd lap" (Ravensburger 1989 rules (EN summary), The Imperial Alley);
    # "under det första varvet eller senast under det andra varvet" (SV, Kejsarpassagen)
    ("ravensburger-1989", [], {1: True, 2: True, 3: False}),
    # "nach der ersten oder spätestens nach der zweiten Runde" … "sprich in der dritten und
    # damit letzten Runde" (Pro Ludo 2006 Spielregel (DE) IV)
    ("pro-ludo-2006", [], {1: False, 2: True, 3: True}),
    # "nach der ersten oder der zweiten Runde" (DiceTree 2022 rulebook (DE) S.6): 2006's words
    ("dicetree-2022", [], {1: False, 2: True, 3: True}),
    # "Ist die Zufahrt in der zweiten Runde versperrt, darfst du aussetzen" (S.6): the other
    # reading, lap 2 the last chance
    ("dicetree-2022", ["dicetree-2022-alley-laps-1-2"], {1: True, 2: True, 3: False}),
])
def test_the_alley_stop_counts_in_the_laps_each_text_names(oval, edition, variants, counts):
    from avecaesar.engine.core.state import RaceGame, RaceState

    rules = rules_from_ruleset(load_ruleset(edition, variants))
    for lap, counted in counts.items():
        game = RaceGame(rules, oval, ("A", "B"))
        s = RaceState.parse(game, f"5,{lap},c,136,-,6,r 22,1,c,111,-,4,r | A 0 2 -")
        events = s.push(Move(1, (9,)))
        assert s.stopped[0] is counted, (edition, lap)
        assert ("alley_stop" in [e.kind for e in events]) is counted


@pytest.mark.covers("rule:alley.laps")
def test_course_figures_use_the_rulesets_window():
    # a stop that does not count is not a stop: with the window at laps 2-3 the shortest
    # race stops in lap 2; on a circuit that costs the same as a stop in lap 1
    from avecaesar.engine.course.figures import RaceFigures
    from avecaesar.engine.course.load import load_course
    from avecaesar.engine.ruleset.load import race_figures

    c = load_course("pro-ludo-2006/circus-maximus")
    by_2006 = race_figures(load_ruleset("2006"))
    assert by_2006.alley_laps == (2, 3)
    assert c.figures(by_2006).shortest_race == c.figures(RaceFigures()).shortest_race
    # with no lap in which a stop counts, the required stop makes the race impossible
    never = RaceFigures(alley_laps=(4,))
    assert c.figures(never).shortest_race != c.figures(by_2006).shortest_race


# --- the two deadlock readings ------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.covers("rule:leader.finishers_lead")
def test_a_finished_chariot_is_ahead_of_every_chariot_still_racing(position, edition):
    # 2006: "für den Rest des Spiels" (Pro Ludo 2006 Spielregel (DE) p.5) binds no one
    # behind a finisher: the winner is 'als erster über die Ziellinie' (V)
    text = "22,3,s,266,-,5,r -,4,s,-,-,4,f 19,3,s,111,-,4,r | A 0 90 - B"
    assert cards(position(edition, text)) == {2, 6}
    # without the reading a 2006 leader behind the finisher stays bound
    assert cards(position("pro-ludo-2006", text, finishers_lead=False)) == {2}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.covers("rule:six_rule.free_when")
def test_a_leader_nobody_can_pass_is_not_bound_by_the_6_card_rule(position, edition):
    # "if the leader cannot be passed" (Ravensburger 1989 rules (EN summary), Leader
    # restriction); "Superblockad" (SV, Undantag); "blockiert damit das Spiel" (DiceTree 2022
    # rulebook (DE) S.5): the exceptions exist so that the rule never freezes the game
    alone = "22,2,s,666,1,5,r -,2,c,-,-,4,x | A 0 90 -"
    assert cards(position(edition, alone)) == {6}
    assert cards(position(edition, alone, six_free=None)) == set()
    # another chariot that can still move can pass it: the rule binds
    behind = "22,2,s,666,1,5,r 19,2,s,111,-,4,r | A 0 90 -"
    assert cards(position(edition, behind)) == set()
    # one that cannot move (its only card is blocked) cannot pass it
    stuck = "49,2,s,666,1,5,r 46,2,s,3,-,4,r | A 0 90 -"
    assert cards(position(edition, stuck)) == {6}


# --- smaller readings ---------------------------------------------------------------------

def test_2022_worked_example_reading_is_a_variant(oval):
    # the rule: "Wer in Führung liegt, auch gemeinsam mit anderen, darf keine 6 spielen"; the
    # example: "müsste Grün aussetzen, bis jemand gleichzieht oder vorbeifährt" (DiceTree
    # 2022 rulebook (DE) S.5)
    from avecaesar.engine.core.state import RaceGame, RaceState

    text = "22,1,c,266,-,5,r 29,1,c,345,-,4,r | A 0 2 -"
    for variants, expected in (([], {2}), (["dicetree-2022-six-rule-example"], {2, 6})):
        rules = rules_from_ruleset(load_ruleset("2022", variants))
        s = RaceState.parse(RaceGame(rules, oval, ("A", "B")), text)
        assert cards(s) == expected


@pytest.mark.covers("rule:ownerless.alley_wait")
def test_1989_non_players_are_not_held_to_the_alley_wait(position):
    # "Non-players attempt to stop in the Imperial Alley on the 1st lap" (Ravensburger 1989
    # rules (EN summary), Non-Player Chariots): they try with their top card, they do not wait
    text = "2,2,c,-,2111,6,r 5,2,s,111,-,4,r | A 0 2 -"
    s = position("ravensburger-1989", text, ownerless="A")
    assert s.game.rules.ownerless.alley_wait is False
    assert cards(s) == {2} and WAIT not in s.legal_moves()
    # a player in the same place must wait (the same position, A driven by a player)
    p = position("ravensburger-1989", "2,2,c,222,-,6,r 5,2,s,111,-,4,r | A 0 2 -")
    assert not p.legal_moves() and p.legal_moves().skip_reason == "alley_blocked"


def test_1989_a_non_player_that_missed_the_alley_is_placed_like_a_disqualified_player(position):
    # "…and visiting the Imperial Alley wins" (Ravensburger 1989 rules (EN summary), Scoring)
    # with keeps_place read false: the non-player takes no place, those behind move up
    text = "-,4,c,-,-,6,fq -,4,s,-,-,6,f -,4,s,-,-,6,f | A 0 90 finished ABC"
    res = outcome(position("ravensburger-1989", text, ownerless="A"))
    assert [(p.chariot, p.place, p.points) for p in res.placings] == [
        (1, 1, 6), (2, 2, 4), (0, None, 0)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_joint_leader_exception_who_coincide_under_the_turn_order(position, edition):
    # "Här får den spelare som står i tur använda 6" (Ravensburger 1989 regler (SV), Undantag),
    # "der zuerst wieder an der Reihe ist" (Pro Ludo 2006 Spielregel (DE) p.5), "einer von
    # beiden" (DiceTree 2022 rulebook (DE) S.5): the joint leader whose turn comes first plays
    # the 6, after which the other no longer leads jointly
    rs = load_ruleset(edition)
    assert "coincide" in rs.rule("six_rule.joint_leader_exception")["note"]  # said in the data
    s = position(edition, "47,1,c,666,-,5,r 48,1,c,666,-,5,r 44,1,c,111,-,4,r | A 0 2 -")
    assert cards(s) == {6}
    s.push(Move(6, a_path(s, 0, 6)))
    assert s.turn == 1 and s.leaders() == [0]
    assert why_not(s, Move(6, a_path(s, 1, 6))) is None  # no longer a leader: free


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_conflict_names_a_variant_with_the_other_reading(edition):
    """A conflict is the edition's default plus a variant for the other reading: each named
    variant exists, applies to the edition and gives that key another value."""
    rs = load_ruleset(edition)
    conflicts = [k for k, kind in rs.kinds().items() if kind == "conflict"]
    assert conflicts
    for key in conflicts:
        for variant in rs.rule(key)["conflict"]:
            other = load_ruleset(edition, [variant])
            assert other.value(key) != rs.value(key), (key, variant)
