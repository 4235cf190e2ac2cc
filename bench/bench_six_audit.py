"""An independent re-check of the 6-card rule over seeded default races; prints its figures
(issue 20).

Each edition races on its first tournament course (the course of race 1 for 3-4 players),
``--players`` chariots of ``--bots`` bots, seeds 1..``--races``, as ``avecaesar race``
seats them. At every turn the check asks, without the engine's restrictions, whether the
chariot to move may play a 6 by the texts, and counts the turns in which the engine offered
a 6 that the texts forbid:

- the chariot leads: no finisher is over the line, it is a racing chariot on the track, and
  no racing chariot has more race progress (joint leaders lead too: "the leading
  chariot(s)", Ravensburger 1989 rules (EN summary), Leader restriction; "auch gemeinsam",
  DiceTree 2022 rulebook (DE) S.5; "mehrere Gespanne gemeinsam", Pro Ludo 2006 Spielregel
  (DE) p.5), or it is a first card from the first start row where the course has rows
  ("Aus der ersten Startreihe darf niemand mit einer 6 starten", S.5);
- it holds a card other than a 6 (every text frees only a leader with only sixes);
- it is not its first card from start place 1 where the edition frees the start player, and
  other chariots are still racing on the track (a lone chariot is free, even for its first
  card: the reading of "nothing is left to pass it").

Run: .venv/bin/python bench/bench_six_audit.py [--races 40] [--players 2,4] [--bots greedy]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import new_race, play_turn
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import RACING
from avecaesar.engine.ruleset.load import load_ruleset

EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


@dataclass
class Audit:
    races: int = 0
    turns: int = 0
    illegal_offers: int = 0  # turns in which a forbidden 6 was among the legal moves
    illegal_plays: int = 0  # of those, turns in which the 6 was played
    races_with: int = 0
    examples: list[str] | None = None


def six_forbidden_by_text(s: RaceState, start_player_free: bool) -> bool:
    """Whether the texts forbid the chariot to move a 6 now (see the module docstring)."""
    c = s.turn
    if s.game.is_ownerless(c):
        return False
    hand = s.hands[c]
    first = not s.played[c]
    rows = s.game.rules.start_rows
    if s.finish_order:
        return False  # a finisher is ahead of every chariot still racing; in 2022 the
        # whole 6-card rule ends ("Sobald das erste Gespann im Ziel ist", S.5)
    on = [o for o in range(len(s.status)) if s.status[o] == RACING and s.pos[o] is not None]
    if c not in on or len(on) == 1:
        return False  # alone on the track: nothing is left to pass it (read)
    if first and rows and c + 1 in rows[0]:
        return True  # nobody in the first start row opens with a 6
    best = max(s.race_progress(o) for o in on)
    if s.race_progress(c) != best:
        return False
    if first and ((start_player_free and c == 0) or (rows and c + 1 not in rows[0])):
        return False
    return any(k != 6 for k in hand)


def audit(edition: str, players: int, bot: str, races: int) -> Audit:
    rs = load_ruleset(edition)
    course = next(e["course_id"] for e in rs.value("tournament.course_rotation")
                  if e["race"] == 1 and str(e.get("players", "3-4")).startswith("3"))
    rules, board = race_setup(edition, [], {}, course)
    start_free = rules.six_at_start == "start_player_may"
    out = Audit(examples=[])
    for seed in range(1, races + 1):
        names = [f"P{i + 1}-{bot}" for i in range(players)]
        policies = [make_policy(bot, seed * 100 + i) for i in range(players)]
        state, setup = new_race(rules, board, names, seed)
        by_chariot = [policies[s] for s in setup["seats"]]
        hit = False
        while not state.over and out.turns < 10**7:
            c = state.turn
            moves = state.legal_moves()
            offered = any(m.card == 6 for m in moves)
            bad = offered and six_forbidden_by_text(state, start_free)
            ply = state.ply
            hand = state.hands[c]
            policy = by_chariot[c] if c < len(by_chariot) else OWNERLESS
            turn = play_turn(state, policy, OWNERLESS)
            out.turns += 1
            if bad:
                hit = True
                out.illegal_offers += 1
                played = getattr(turn.get("move"), "card", None) == 6
                out.illegal_plays += played
                if len(out.examples) < 3:  # type: ignore[arg-type]
                    out.examples.append(  # type: ignore[union-attr]
                        f"seed {seed} ply {ply} chariot {'ABCDEF'[c]} hand {hand}"
                        + (" played the 6" if played else ""))
        out.races += 1
        out.races_with += hit
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--races", type=int, default=40)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--bots", default="greedy")
    args = ap.parse_args()
    for edition in EDITIONS:
        for players in (int(p) for p in args.players.split(",")):
            for bot in args.bots.split(","):
                t0 = time.perf_counter()
                a = audit(edition, players, bot, args.races)
                print(f"{edition:18} {players} {bot:6} {a.races} races, {a.turns} turns: "
                      f"{a.illegal_offers} turns offered a forbidden 6 in {a.races_with} "
                      f"races, {a.illegal_plays} played  [{time.perf_counter() - t0:.0f} s]"
                      + (f"  e.g. {'; '.join(a.examples or [])}" if a.examples else ""),
                      flush=True)


if __name__ == "__main__":
    main()
