"""The expert bot's learned evaluation: a win chance fitted on played races.

:func:`features` describes a position from one chariot's view with a few numbers that seat
may know — the cards each chariot still holds as a multiset (the rules' deck minus the
cards it has played, public), how many turns those cards need to cover the way left, the
alley stop, its own hand — and :func:`win_chance` turns them into the chance that it wins
(first place, not disqualified) with the logistic coefficients stored next to this module
in ``expert_value.json``. The coefficients are fitted by ``bench/fit_expert_value.py`` on
seeded races (the file names the command); the rules enter only through what the engine
exposes (the alley stop, the disqualification rules), so one table serves every ruleset.

The features are computed at the chariot's own turn (it moves next: in a tie on turns it
finishes first), where the expert's rollouts stop.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

from avecaesar.engine.bots.search import cover
from avecaesar.engine.core.moves import (
    _stop_possible_on_empty_track as stop_possible_on_empty_track,
)
from avecaesar.engine.core.moves import alley_pending
from avecaesar.engine.core.state import RaceState
from avecaesar.engine.core.types import FINISHED, RACING, REMOVED

__all__ = ["FEATURES", "coefficients", "decided", "features", "needs_stop", "win_chance"]

#: the names of :func:`features`' numbers, in order (the JSON file's keys)
FEATURES = (
    "bias",
    "margin",            # the nearest rival's turns minus mine (cards needed), in [-5, 5]
    "margin_per_turn",   # margin / (my turns + 1): a lead counts more near the end
    "rivals_2_ahead",    # rivals needing 2 or more turns fewer than me
    "rivals_1_ahead",    # ... exactly one turn fewer
    "rivals_level",      # ... as many turns as me (I move first)
    "rivals_1_behind",   # ... one turn more
    "spare",             # my points beyond the way left (largest cards first), / 5
    "spare_vs_nearest",  # my spare points minus the nearest rival's, / 5
    "stop_pending",      # I must still make the alley stop
    "stop_out_of_hand",  # ... and no card in my hand makes it possible on an empty track
    "rivals_stop_close",  # rivals within one turn of me that must still make the stop
    "blocked",           # no legal move for me now
    "sixes_in_hand",
    "sixes_left",        # sixes among my remaining cards, / 4
    "turns_left",        # my turns needed, / 10
    "short_of_cards",    # my cards cannot cover the way left
    "reserve",           # my cards beyond the turns needed, / 5
)


def needs_stop(s: RaceState) -> bool:
    """The chariots must make the alley stop (or be disqualified)."""
    rules, board = s.game.rules, s.game.board
    fx = rules.effects
    return (board.has_alley and rules.alley_must_stop and fx.missed_dq
            and not fx.missed_cancels_finish)


def _turns(s: RaceState, c: int) -> tuple[int, float, int, bool]:
    """(fewest of ``c``'s remaining cards, largest first, covering the way left; the points
    they have to spare; the cards held; whether they cover it at all)."""
    k, extra, held, covers = cover(s, c)
    return (k if covers else held + 3), float(extra), held, covers


def rivals(s: RaceState, me: int) -> list[int]:
    """The chariots that can still take first place from ``me``."""
    game = s.game
    return [c for c in range(game.chariots)
            if c != me and s.status[c] == RACING and not game.is_ownerless(c)
            and (not s.dq[c] or game.rules.dq_keeps_place)]


def features(s: RaceState, me: int) -> list[float]:
    """The numbers :data:`FEATURES` names, for racing chariot ``me`` (module docstring)."""
    k_me, spare_me, held, covers = _turns(s, me)
    must_stop = needs_stop(s)
    margins = []
    near = (99, 0.0)
    stop_close = 0
    for c in rivals(s, me):
        k, spare, _held, _covers = _turns(s, c)
        d = k - k_me
        margins.append(d)
        near = min(near, (d, -spare))
        if abs(d) <= 1 and must_stop and not s.stopped[c]:
            stop_close += 1
    margin = float(max(-5, min(5, near[0]))) if margins else 5.0
    pending = must_stop and not s.stopped[me]
    hand = s.hands[me]
    pool = (*hand, *s.decks[me])
    return [
        1.0,
        margin,
        margin / (k_me + 1),
        float(sum(1 for d in margins if d <= -2)),
        float(sum(1 for d in margins if d == -1)),
        float(sum(1 for d in margins if d == 0)),
        float(sum(1 for d in margins if d == 1)),
        min(spare_me, 15.0) / 5,
        (min(spare_me, 15.0) - min(-near[1], 15.0)) / 5 if margins else 0.0,
        float(pending),
        float(pending and not stop_possible_on_empty_track(s, me)),
        float(stop_close),
        float(s.turn == me and not s.legal_moves()),
        float(hand.count(6)),
        pool.count(6) / 4,
        k_me / 10,
        float(not covers),
        (held - k_me) / 5 if covers else 0.0,
    ]


@cache
def coefficients() -> tuple[float, ...]:
    """The fitted coefficients, in :data:`FEATURES` order (loaded once)."""
    # in this package's folder, not next to this module's file: compiled, that is _compiled/
    table = resources.files("avecaesar.engine.bots").joinpath("expert_value.json")
    data = json.loads(table.read_text("utf-8"))
    weights = data["coefficients"]
    return tuple(float(weights[name]) for name in FEATURES)


def logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def decided(s: RaceState, me: int) -> float | None:
    """1 or 0 where the race is decided for chariot ``me`` (it won, or cannot win any
    more: removed, disqualified, the alley stop out of reach, a rival finished first), else
    ``None``."""
    game = s.game
    if s.status[me] == REMOVED or s.dq[me]:
        return 0.0
    first = next((c for c in s.finish_order if not game.is_ownerless(c)
                  and (not s.dq[c] or game.rules.dq_keeps_place)), None)
    if first is not None or s.status[me] == FINISHED:
        return 1.0 if first == me else 0.0
    if needs_stop(s) and not s.stopped[me] and not alley_pending(s, me):
        return 0.0  # the alley stop can no longer be made: disqualified at the finish
    return None


def win_chance(s: RaceState, me: int) -> float:
    """The chance that chariot ``me`` wins from ``s`` (first place, not disqualified):
    :func:`decided`, else the fitted logistic model of :func:`features`."""
    known = decided(s, me)
    if known is not None:
        return known
    z = sum(w * x for w, x in zip(coefficients(), features(s, me), strict=True))
    return logistic(z)
