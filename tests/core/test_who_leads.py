"""One definition of who leads (issue 20): a finished chariot is ahead of every chariot
still racing, for every question of who leads — the 6-card rule, the ``leading``
conditions of any house rule, Team Gladiator's 2-4-6 measure.

"Sobald das erste Gespann im Ziel ist, gilt die 6er-Regel nicht mehr" (DiceTree 2022
rulebook (DE) S.5); "Först i mål. Så snart ett spann har passerat mållinjen får övriga
spelare använda 6" (Ravensburger 1989 regler (SV), En sexa på hand); the winner is "als
erster über die Ziellinie" (Pro Ludo 2006 Spielregel (DE) V), so 2006's "für den Rest des
Spiels" (p.5) binds nobody behind a finisher.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.moves import card_forbidden
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.reasons import HOUSE, Reason
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import RaceGame, RaceState
from avecaesar.engine.core.types import LETTERS
from avecaesar.engine.ruleset.load import load_ruleset

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")
LEADER_NO_5 = Path(__file__).resolve().parents[2] / "rulesets" / "examples" / "leader-no-5.yaml"
pytestmark = pytest.mark.covers("rule:leader.finishers_lead")

# B is over the line; A races alone behind it, C is stuck far behind
BEHIND_A_FINISHER = "22,3,s,555,1,5,r -,4,s,-,-,4,f | A 0 90 - B"


@pytest.mark.parametrize("edition", EDITIONS)
def test_nobody_leads_once_a_chariot_has_finished(position, edition):
    s = position(edition, BEHIND_A_FINISHER)
    assert s.leaders() == []
    # the reading switched off, the racing chariot leads again
    assert position(edition, BEHIND_A_FINISHER, finishers_lead=False).leaders() == [0]


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_house_rule_on_the_leader_ends_with_the_first_finisher(oval, edition):
    # "a leader may not play a 5" (rulesets/examples/leader-no-5.yaml, no end of its own):
    # A, alone behind the finisher, holds only 5s and is not a leader, so it plays one
    rules = rules_from_ruleset(load_ruleset(edition, [str(LEADER_NO_5)]))
    s = RaceState.parse(RaceGame(rules, oval, tuple(LETTERS[:2])), BEHIND_A_FINISHER)
    assert card_forbidden(s, 0, 5) is None
    assert {m.card for m in s.legal_moves()} == {5}
    # before anyone finishes, a leader with a chariot behind it is bound by the house rule
    ahead = "22,3,s,555,1,5,r 19,3,c,111,-,4,r | A 0 90 -"
    t = RaceState.parse(RaceGame(rules, oval, tuple(LETTERS[:2])), ahead)
    assert t.leaders() == [0]
    why = card_forbidden(t, 0, 5)
    assert why is not None and why.code == HOUSE and why.params["lead"] == Reason("lead")
    # and one alone on the track is not (unless: alone_on_track, as the 6-card rule reads)
    alone = "22,3,s,555,1,5,r -,2,c,-,-,4,x | A 0 90 -"
    u = RaceState.parse(RaceGame(rules, oval, tuple(LETTERS[:2])), alone)
    assert u.leaders() == [0] and card_forbidden(u, 0, 5) is None


@pytest.mark.parametrize("edition", EDITIONS)
def test_leader_no_5_never_freezes_a_lone_chariot_after_the_winner(edition):
    # the re-check froze 3 of 9 races: a lone chariot holding a 5 behind the winner
    course = {"ravensburger-1989": "ravensburger-1989/a-white",
              "pro-ludo-2006": "pro-ludo-2006/circus-maximus",
              "dicetree-2022": "dicetree-2022/arena-carthago"}[edition]
    rules, board = race_setup(edition, [str(LEADER_NO_5)], {}, course)
    lone_after_finish = 0
    for seed in range(9):
        for players in (2, 3):
            pol = [make_policy("greedy", seed * 100 + i) for i in range(players)]
            s, setup = new_race(rules, board, [f"P{i}" for i in range(players)], seed)
            by = [pol[x] for x in setup["seats"]]
            while not s.over:
                c = s.turn
                on = [o for o in s.racing() if s.pos[o] is not None]
                if s.finish_order and on == [c] and 5 in s.cards(c):
                    lone_after_finish += 1
                    assert card_forbidden(s, c, 5) is None, s.notation()
                play_turn(s, by[c] if c < len(by) else OWNERLESS, OWNERLESS)
            # a freeze behind the winner would end in the deadlock safety net with a finisher
            assert s.end == "finished" or not s.finish_order, (seed, players, s.notation())
    assert lone_after_finish > 0  # the case was met


def test_team_gladiator_behind_a_finisher_is_last_not_leading(position):
    # "führend 2 Felder, im Mittelfeld 4, an letzter Stelle 6" (DiceTree 2022 rulebook (DE)
    # S.8-9): behind a finisher the best racing TG chariot does not lead
    text = "-,4,s,-,-,4,f 40,3,c,-,-,3,r 19,3,c,-,-,3,r 30,3,c,-,-,3,r | B 0 90 - A"
    s = position("dicetree-2022+team-gladiator", text, ownerless="BCD")
    assert s.leaders() == []
    assert [s.position_move(c) for c in (1, 3, 2)] == [4, 4, 6]
    before = "40,3,c,-,-,3,r 19,3,c,-,-,3,r 30,3,c,-,-,3,r 10,3,s,123,-,4,r | A 0 90 -"
    t = position("dicetree-2022+team-gladiator", before, ownerless="ABC")
    assert [t.position_move(c) for c in (0, 2, 1)] == [2, 4, 4]
