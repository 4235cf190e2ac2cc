"""How many players a race may have: one function says it, every message comes from it.

:func:`player_counts` works on the composed rules (``players.min`` to ``players.max``, the
chariots each player drives, ``players.chariots_per_player``) and, given one, a course's
start places: the counts allowed, and for any other count why not. :func:`check_player_count`
refuses a count with that reason and the counts to choose instead, and names the bundled
variants — only those written for the chosen edition — that would allow it
(:func:`variants_allowing`, which asks the same function of the rules each variant composes
to). Every place a person sets up a race asks it (the CLI's race, play, simulate and
tournament, the web table); the engine's own ``new_race`` seats whatever fits the board (the
benchmarks and tests race bots in any number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from avecaesar.engine.core.board import Board
from avecaesar.engine.core.rule_values import RaceRules, UnsupportedRuleError
from avecaesar.engine.data.errors import AveCaesarError, UsageError
from avecaesar.engine.data.limits import MAX_PLAYERS
from avecaesar.engine.data.values import HouseRules

__all__ = ["PlayerCountError", "PlayerCounts", "check_player_count", "counts_text",
           "player_counts", "variants_allowing"]


def counts_text(counts: Sequence[int]) -> str:
    """``[3]`` → ``3``, ``[2, 3]`` → ``2 or 3``, ``[2, 3, 4]`` → ``2 to 4`` (a run),
    ``[2, 4]`` → ``2 or 4``, ``[2, 3, 5]`` → ``2, 3 or 5``; ``none`` when empty."""
    n = list(counts)
    if not n:
        return "none"
    if len(n) > 2 and n == list(range(n[0], n[-1] + 1)):
        return f"{n[0]} to {n[-1]}"
    return " or ".join(str(x) for x in n) if len(n) <= 2 else \
        f"{', '.join(str(x) for x in n[:-1])} or {n[-1]}"


def _players(n: int) -> str:
    return "1 player" if n == 1 else f"{n} players"


@dataclass(frozen=True)
class PlayerCounts:
    """The numbers of players some rules allow (on a course, when ``course`` is named).

    ``by_rules``: the counts the rules alone allow (``players.min`` to ``players.max``, those
    the rules give chariots per player for); ``allowed``: those whose chariots also fit the
    course's start places; ``lo``, ``hi``, ``cite``: the rules' range and its citation.
    """

    rules: RaceRules
    by_rules: tuple[int, ...]
    allowed: tuple[int, ...]
    lo: int
    hi: int
    cite: str
    course: str | None = None
    places: int | None = None

    def words(self) -> str:
        """The allowed counts in words (``2 or 3``)."""
        return counts_text(self.allowed)

    def __contains__(self, players: object) -> bool:
        return players in self.allowed

    def why_not(self, players: int) -> str:
        """Why ``players`` players cannot race under these rules (on this course), and what
        to choose instead — the one sentence every command and the table print."""
        choose = f"choose {self.words()} players (--players)"
        if not self.allowed:
            choose = "no number of players fits: choose another course"
        if players not in self.by_rules:
            if players < self.lo or players > self.hi:
                few = "few" if players < self.lo else "many"
                who = "1 player is" if players == 1 else f"{players} players are"
                return (f"{who} too {few}: these rules are for {counts_text(self.by_rules)} "
                        f"players ({self.cite})")
            return (f"{_players(players)}: the rules give chariots per player only for "
                    f"{counts_text(self.by_rules)} players "
                    f"({self.rules.cite('chariots_per_player')}): {choose}")
        per = self.rules.chariots_for(players)
        each = f"{per} chariots per player" if per > 1 else "1 chariot per player"
        return (f"{players} players × {each} = {players * per} chariots, but the course "
                f"{self.course} has {self.places} start places: {choose}, or another course")


def player_counts(rules: RaceRules, board: Board | None = None) -> PlayerCounts:
    """The numbers of players ``rules`` allow, on ``board`` if given (its start places hold
    every chariot, the players' and none nobody drives: those fill only empty places)."""
    lo, hi = rules.players_min, rules.players_max
    by_rules = []
    for p in range(1, MAX_PLAYERS + 1):
        if not lo <= p <= hi:
            continue
        try:
            rules.chariots_for(p)
        except UnsupportedRuleError:
            continue
        by_rules.append(p)
    places = None if board is None else len(board.start_places)
    allowed = [p for p in by_rules
               if places is None or p * rules.chariots_for(p) <= places]
    return PlayerCounts(rules, tuple(by_rules), tuple(allowed), lo, hi,
                        rules.cite("players_min"), None if board is None else board.id,
                        places)


class PlayerCountError(UsageError):
    """Raised when a race is set up for a number of players the rules (on that course) do
    not allow: :meth:`PlayerCounts.why_not`, and the bundled variants that allow it."""

    def __init__(self, players: int, counts: PlayerCounts,
                 variants: Sequence[str] = (), named: bool = False) -> None:
        self.players, self.counts, self.variants = players, counts, tuple(variants)
        text = counts.why_not(players)
        if variants:
            text += (f"; the variant{'s' if len(variants) > 1 else ''} {', '.join(variants)} "
                     f"allow{'' if len(variants) > 1 else 's'} {players} (--variant)")
        elif named and (players < counts.lo or players > counts.hi) and _widened(
                counts, players):
            key = "min" if players < counts.lo else "max"
            text += (f"; no bundled variant allows {players}: to race anyway, write it as a "
                     f"house rule (--set players.{key}={players})")
        super().__init__(text)


def _widened(counts: PlayerCounts, players: int) -> bool:
    """``players`` would be allowed with the rules' range widened to it (so the house rule
    to suggest is ``players.min`` or ``players.max``, not another course)."""
    if not 1 <= players <= MAX_PLAYERS:
        return False
    wider = replace(counts.rules, players_min=min(counts.lo, players),
                    players_max=max(counts.hi, players))
    try:
        per = wider.chariots_for(players)
    except UnsupportedRuleError:
        return False
    return counts.places is None or players * per <= counts.places


def check_player_count(rules: RaceRules, players: int, ruleset: str | None = None,
                       variants: Sequence[str] = (), board: Board | None = None,
                       overrides: Mapping[str, str] | None = None,
                       house: HouseRules | None = None) -> None:
    """Refuse a number of players the rules (on ``board``, when given) do not allow, with
    :class:`PlayerCountError`: why, the counts to choose, and — when the ``ruleset`` and its
    ``variants`` (``overrides``, ``house``: the ``--set`` values and house rules they were
    composed with) are named — the bundled variants for that edition that would allow it."""
    counts = player_counts(rules, board)
    if players in counts:
        return
    named: list[str] = []
    if ruleset is not None and 1 <= players <= MAX_PLAYERS:
        named = variants_allowing(ruleset, variants, players, board, overrides, house)
    raise PlayerCountError(players, counts, named, ruleset is not None)


def variants_allowing(ruleset: str, variants: Sequence[str], players: int,
                      board: Board | None = None,
                      overrides: Mapping[str, str] | None = None,
                      house: HouseRules | None = None) -> list[str]:
    """The bundled variants written for ``ruleset``'s edition (``applies_to`` naming it, a
    ruleset it extends, or ``any``) that, added to ``variants``, allow ``players`` players on
    ``board``: asked of :func:`player_counts` on the rules they compose to. A variant whose
    open values decide the chariots per player counts when one of that value's choices
    allows the number."""
    from avecaesar.engine.ruleset.catalog import bundled
    from avecaesar.engine.ruleset.load import load_ruleset

    base = load_ruleset(ruleset, list(variants), dict(overrides or {}), house)
    lineage = {*base.data.get("based_on", []), base.id}
    out = []
    for entry in bundled():
        if (entry.kind != "variant" or entry.id in base.variants
                or not ({"any"} | lineage) & set(entry.applies_to)):
            continue
        if any(players in player_counts(rules, board) for rules in _rules_with(
                ruleset, [*variants, entry.id], dict(overrides or {}), house)):
            out.append(entry.id)
    return out


def _rules_with(ruleset: str, variants: Sequence[str], given: dict[str, str],
                house: HouseRules | None) -> list[RaceRules]:
    """The rules ``ruleset`` with ``variants`` composes to — one for each choice of an open
    ``players.chariots_per_player`` (the other open values at their first choice: they do not
    change the count); none when they cannot be composed."""
    from avecaesar.engine.core.race_setup import ChosenRules  # the one composition
    from avecaesar.engine.ruleset.load import load_ruleset

    try:
        composed = load_ruleset(ruleset, list(variants), given, house)
    except AveCaesarError:
        return []
    fill = {k: _first(composed.rule(k).get("choices")) for k in composed.unknown_keys()}
    per_choices = composed.rule("players.chariots_per_player").get("choices") \
        if "players.chariots_per_player" in fill else None
    out = []
    for per in per_choices or [None]:
        overrides = {**given, **{k: v for k, v in fill.items() if v is not None}}
        if per is not None:
            overrides["players.chariots_per_player"] = str(per)
        try:
            out.append(ChosenRules.compose(ruleset, variants, overrides, house).race_rules)
        except AveCaesarError:
            continue
    return out


def _first(choices: object) -> str | None:
    return str(choices[0]) if isinstance(choices, list) and choices else None
