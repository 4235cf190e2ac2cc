"""Whether a house or variant file's card restrictions freeze races (issue 38, point 2).

:func:`freeze_report` races a file's rules ``races`` times under one edition (race ``i`` on
the edition's ``i mod n``-th bundled course, seed ``i``, 2, 3 and 6 greedy chariots in
turn, as many as the course seats) and, for each race that ends in the deadlock safety net,
says where a chariot got stuck: its space, its hand and the card restriction that forbids
each card of it. :func:`release_hint` is the release in the 6-card rule's shapes that would
end such a freeze. Used by ``ruleset validate --race N`` (editor/cli/ruleset.py) and by
``bench/bench_deadlocks.py --examples``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.moves import card_forbidden
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.race_setup import ChosenRules
from avecaesar.engine.core.state import LETTERS, RaceState
from avecaesar.engine.core.types import Termination
from avecaesar.engine.course.load import bundled_course_ids
from avecaesar.engine.data.values import HouseRules

__all__ = ["CHARIOTS", "FreezeReport", "Stuck", "freeze_report", "release_hint"]

#: the chariot counts the races cycle through
CHARIOTS = (2, 3, 6)


@dataclass(frozen=True)
class Stuck:
    """A chariot of a frozen race that holds only cards a restriction forbids."""

    course: str
    seed: int
    chariots: int  # the bots raced (chariots nobody drives fill the other places)
    chariot: str  # its letter
    space: str  # the label of its space
    cards: tuple[int, ...]  # the cards it plays from
    why: tuple[str, ...]  # per card, the restriction's sentence


@dataclass
class FreezeReport:
    """The races run under one edition and the freezes among them."""

    edition: str
    races: int = 0
    frozen: list[tuple[str, int]] = field(default_factory=list)  # (course, seed)
    stuck: list[Stuck] = field(default_factory=list)  # the first stuck chariot of each

    @property
    def rate(self) -> float:
        return len(self.frozen) / self.races if self.races else 0.0


def release_hint(cards: Sequence[int]) -> str:
    """The release that frees a chariot holding only ``cards``, in the 6-card rule's
    shapes (a house file's ``release:``)."""
    listed = ", ".join(str(c) for c in sorted(set(cards)))
    return f"release: {{any: [{{only_cards_in_hand: [{listed}]}}, cannot_be_passed]}}"


def _stuck(state: RaceState, course: str, seed: int, chariots: int) -> Stuck | None:
    """The first racing chariot whose every card a card restriction forbids."""
    board = state.game.board
    for c in state.racing():
        cards = state.hands[c] or state.decks[c][:1]
        if not cards:
            continue
        reasons = [card_forbidden(state, c, card) for card in cards]
        if all(r is not None for r in reasons):
            pos = state.pos[c]
            return Stuck(course, seed, chariots, LETTERS[c],
                         "off the board" if pos is None else board.label[pos],
                         tuple(cards), tuple(r.english() for r in reasons if r is not None))
    return None


def freeze_report(edition: str, variants: Sequence[str] = (), house: HouseRules | None = None,
                  races: int = 300, first_seed: int = 0,
                  courses: Sequence[str] | None = None) -> FreezeReport:
    """Race the rules ``races`` times under ``edition`` (greedy bots; ``courses``: the
    edition's bundled ones by default) and collect the freezes."""
    chosen = ChosenRules.compose(edition, variants, None, house)
    pool = list(courses or [c for c in sorted(bundled_course_ids())
                            if c.startswith(chosen.edition + "/")])
    setups = {c: chosen.on(c) for c in pool}
    out = FreezeReport(edition)
    for seed in range(first_seed, first_seed + races):
        course = pool[seed % len(pool)]
        rules, board = setups[course].race_rules, setups[course].board
        n = min(CHARIOTS[seed % len(CHARIOTS)], len(board.start_places))
        names = [f"greedy{i + 1}" for i in range(n)]
        policies = [make_policy("greedy", seed * 100 + i) for i in range(n)]
        run = run_race(rules, board, names, policies, seed, ownerless=OWNERLESS)
        out.races += 1
        if run.outcome.termination == Termination.DEADLOCK:
            out.frozen.append((course, seed))
            stuck = _stuck(run.state, course, seed, n)
            if stuck is not None:
                out.stuck.append(stuck)
    return out
