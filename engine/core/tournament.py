"""Tournaments: several races, the course rotation or draw, the next-race order, the points and
the standings; a tournament record that replays.

Everything edition-specific comes from
:class:`~avecaesar.engine.core.ruleset_adapter.TournamentRules`, read from the ruleset's
``tournament`` group by
:func:`~avecaesar.engine.core.ruleset_adapter.tournament_rules_from_ruleset`. Chance: race
``r`` is played with the seed ``seed * 1000 + r``; drawn courses come from
``random.Random(seed)``. The first race draws the start order by revealed cards, later races
take the order the rules give (``next_start_order``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from avecaesar.engine.core.race import Outcome, Policy, outcome, run_race
from avecaesar.engine.core.race_setup import RaceSetup, Seat
from avecaesar.engine.core.record import record_lines, replay
from avecaesar.engine.core.ruleset_adapter import TournamentRules
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.values import Json, JsonDict

__all__ = ["FORMAT", "RaceResult", "Setup", "Standing", "Tournament", "TournamentError",
           "choose_course", "next_seats", "planned_courses", "race_result", "race_seed",
           "replay_tournament",
           "run_tournament", "standings"]

FORMAT = "avecaesar-tournament-record"
VERSION = 1

Setup = Callable[[str], RaceSetup]  # course reference → the rules on that course


class TournamentError(AveCaesarError):
    """A tournament cannot be set up or its record does not replay; says why."""


@dataclass(frozen=True)
class RaceResult:
    """One race of a tournament, from the players' side."""

    race: int
    course: str
    seed: int
    seats: tuple[int, ...]  # seat indices in start-place order (seat = player × chariot)
    seat_order: tuple[int, ...]  # seat indices in result order (placed, then by progress)
    order: tuple[int, ...]  # player indices in result order (by their best chariot)
    places: tuple[int | None, ...]  # per player: the best place of their chariots
    points: tuple[int, ...]  # per player: the sum of their chariots' points
    termination: str
    record: tuple[JsonDict, ...]
    all_places: tuple[tuple[int | None, ...], ...] = ()  # per player: each chariot's place

    def seat_name(self, names: Sequence[str], seat: int) -> str:
        """A seat's chariot: the player's name, with ``/k`` when each drives several."""
        per = max(1, len(self.seats) // len(names))
        return names[seat // per] + (f"/{seat % per + 1}" if per > 1 else "")

    def to_json(self, names: Sequence[str]) -> JsonDict:
        return {"race": self.race, "course": self.course, "seed": self.seed,
                "seats": list(self.seats),
                "start_order": [self.seat_name(names, s) for s in self.seats],
                "termination": self.termination,
                "results": [{"player": names[p], "place": self.places[p],
                             "points": self.points[p]} for p in self.order]}


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    name: str
    total: int
    points: tuple[int, ...]  # per race
    places: tuple[int | None, ...]  # per race

    def to_json(self) -> dict[str, Json]:
        return {"rank": self.rank, "player": self.name, "total": self.total,
                "points": list(self.points), "places": list(self.places)}


@dataclass(frozen=True)
class Tournament:
    names: tuple[str, ...]
    races: tuple[RaceResult, ...]
    standings: tuple[Standing, ...]
    header: JsonDict
    partial: bool = False  # stopped (Ctrl-C) before every race was run


    def to_json(self) -> dict[str, Json]:
        return {"races": [r.to_json(self.names) for r in self.races],
                "standings": [s.to_json() for s in self.standings]}

    def record(self) -> JsonDict:
        """The tournament record: the header, each race's full game record, the standings."""
        return {"format": FORMAT, "version": VERSION, **self.header,
                **({"partial": True} if self.partial else {}),
                "races": [{"race": r.race, "course": r.course, "seed": r.seed,
                           "seats": list(r.seats), "record": list(r.record)}
                          for r in self.races],
                "standings": [s.to_json() for s in self.standings]}


def race_seed(seed: int, race: int) -> int:
    return seed * 1000 + race


def choose_course(t: TournamentRules, race: int, players: int, given: Sequence[str] | None,
                  raced: Sequence[str], pool: Sequence[str], rng: random.Random) -> str:
    """The course of race ``race`` (1-based).

    ``given``: the user's list (race r takes entry r, cycling; ``draw`` draws). Else the
    rotation's entry for this race and player count; where the rotation has none (or names
    no bundled course) and the rules say ``recommended_then_draw``, a course is drawn from
    ``pool`` without repeats."""
    if given:
        ref = given[(race - 1) % len(given)]
        if ref != "draw":
            return ref
        return _draw(race, raced, pool, rng)
    entries = [e for e in t.rotation.get(race, ())
               if e[0] is None or e[0][0] <= players <= e[0][1]]
    for _players, course_id, _name in entries:
        if course_id:
            return course_id
    if t.draws_course:
        return _draw(race, raced, pool, rng)
    named = entries[0][2] if entries else "no course"
    raise TournamentError(f"race {race}: the rotation names {named!r} for {players} players, "
                          "which is no bundled course; give the courses with --courses "
                          f"({t.cite('rotation')})")


def _draw(race: int, raced: Sequence[str], pool: Sequence[str], rng: random.Random) -> str:
    left = [c for c in pool if c not in raced]
    if not left:
        raise TournamentError(f"race {race}: no course left to draw (drawn cards are set "
                              "aside); give the courses with --courses")
    return rng.choice(left)


def next_seats(t: TournamentRules, seats: Sequence[int], order: Sequence[int]) -> list[int] | None:
    """The start order of the next race from the last one's ``seats`` (start-place order)
    and its result ``order`` (both seat indices); None: draw again. Seats are clockwise by
    index."""
    return NEXT_SEATS[t.next_start_order](seats, order)


def _clockwise_from(first: int, n: int) -> list[int]:
    return [(first + i) % n for i in range(n)]


# the start orders of a next race, by the name the adapter (core/ruleset_adapter.py) gives them
NEXT_SEATS: dict[str, Callable[[Sequence[int], Sequence[int]], list[int] | None]] = {
    "by_result": lambda seats, order: list(order),  # the result's order
    "loser_first": lambda seats, order: _clockwise_from(order[-1], len(seats)),
    "last_starter_opens": lambda seats, order: _clockwise_from(seats[-1], len(seats)),
    "reveal": lambda seats, order: None,  # draw again
}
# the tie-breaks of the standings: whether more wins (then seconds, ...) break a tie
TIE_BREAKS: dict[str, bool] = {"none": False, "places": True}


def _result(race: int, course: str, seed: int, seats: Sequence[int], out: Outcome,
            players: int, record: Sequence[JsonDict]) -> RaceResult:
    per = max(1, len(seats) // players)
    all_places: list[list[int | None]] = [[] for _ in range(players)]
    points = [0] * players
    order: list[int] = []
    seat_order: list[int] = []
    for p in out.placings:  # placed first, then by progress
        if p.chariot >= len(seats):
            continue  # a chariot no player drives
        seat = seats[p.chariot]
        who = seat // per
        all_places[who].append(p.place)
        points[who] += p.points
        seat_order.append(seat)
        if who not in order:
            order.append(who)
    places = tuple(pl[0] if pl else None for pl in all_places)
    return RaceResult(race, course, seed, tuple(seats), tuple(seat_order), tuple(order),
                      places, tuple(points), out.termination, tuple(record),
                      tuple(tuple(pl) for pl in all_places))


def race_result(race: int, course: str, seed: int, seats: Sequence[int], out: Outcome,
                players: int, record: Sequence[JsonDict]) -> RaceResult:
    """One race's result from the players' side, for a table that plays a tournament's races
    one at a time (the web table)."""
    return _result(race, course, seed, seats, out, players, record)


def standings(names: Sequence[str], races: Sequence[RaceResult],
              tie_break: str) -> tuple[Standing, ...]:
    """Totals, highest first; ``places`` tie-break: more wins, then more second places, and
    so on; otherwise (or still equal) tied players share the rank."""
    n = len(names)
    most = max((p or 0 for r in races for pl in r.all_places for p in pl), default=0)

    def key(p: int) -> tuple[int, ...]:
        total = sum(r.points[p] for r in races)
        if not TIE_BREAKS[tie_break]:
            return (-total,)
        return (-total, *(-sum(r.all_places[p].count(k) for r in races)
                          for k in range(1, most + 1)))

    ranked = sorted(range(n), key=lambda p: (key(p), p))
    out: list[Standing] = []
    for i, p in enumerate(ranked):
        rank = out[-1].rank if out and key(ranked[i - 1]) == key(p) else i + 1
        out.append(Standing(rank, p, names[p], sum(r.points[p] for r in races),
                            tuple(r.points[p] for r in races),
                            tuple(r.places[p] for r in races)))
    return tuple(out)


def run_tournament(t: TournamentRules, setup: Setup, names: Sequence[str],
                   policies: Sequence[Policy], seed: int, courses: Sequence[str] | None = None,
                   pool: Sequence[str] = (), header: JsonDict | None = None,
                   ownerless: Policy | None = None) -> Tournament:
    """Play the tournament; ``policies[i]`` drives player ``i`` in every race, ``ownerless``
    the chariots no player drives (see :func:`~avecaesar.engine.core.race.run_race`).

    ``setup(course)`` gives the setup of a race on a course (the tournament's rules, composed
    once); ``pool``: the courses a draw may take; ``header``: the tournament record's own
    header (the players with their bots, the courses asked for, the tournament seed)."""
    rng = random.Random(seed)
    results: list[RaceResult] = []
    try:
        _run_races(t, setup, names, policies, seed, courses, pool, rng, results, ownerless)
    except KeyboardInterrupt:  # keep the races finished so far
        return Tournament(tuple(names), tuple(results),
                          standings(names, results, t.tie_break), dict(header or {}), True)
    return Tournament(tuple(names), tuple(results), standings(names, results, t.tie_break),
                      dict(header or {}))


def planned_courses(t: TournamentRules, players: int, seed: int,
                    courses: Sequence[str] | None, pool: Sequence[str]) -> list[str]:
    """The course of every race, as :func:`run_tournament` with this seed will choose them
    (the draws depend only on the seed and the courses already raced): to check them all
    before the first race starts."""
    rng = random.Random(seed)
    out: list[str] = []
    for r in range(1, t.races + 1):
        out.append(choose_course(t, r, players, courses, out, pool, rng))
    return out


def _run_races(t: TournamentRules, setup: Setup, names: Sequence[str],
               policies: Sequence[Policy], seed: int, courses: Sequence[str] | None,
               pool: Sequence[str], rng: random.Random,
               results: list[RaceResult], ownerless: Policy | None = None) -> None:
    """Run the races one by one, appending each result to ``results`` as it finishes."""
    seats: list[int] | None = None
    n = len(names)
    for r in range(1, t.races + 1):
        course = choose_course(t, r, n, courses, [x.course for x in results], pool, rng)
        race = setup(course).for_race(seats=[Seat(nm) for nm in names],
                                      seed=race_seed(seed, r), race=r, start_order=seats)
        rules, board, s = race.race_rules, race.board, race.seed
        chariots = n * rules.chariots_for(n)
        if chariots > len(board.start_places):
            raise TournamentError(f"race {r}: {chariots} chariots for {course}, which has "
                                  f"{len(board.start_places)} start places")
        run = run_race(rules, board, names, policies, s, seats=seats,
                       ownerless=ownerless)
        lines = record_lines(run, race.header())
        res = _result(r, course, s, run.setup["seats"], run.outcome, n, lines)
        results.append(res)
        seats = next_seats(t, res.seats, res.seat_order)


def replay_tournament(doc: JsonDict, t: TournamentRules, setup: Setup,
                      file: str = "record", pool: Sequence[str] = ()) -> Tournament:
    """Re-check a tournament record: every race's moves, its course and start order as the
    rules give them (the header's ``courses`` and ``tournament_seed`` as given to the run),
    and the standings. Raises TournamentError / RecordError at the first difference."""
    if doc.get("format") != FORMAT:
        raise TournamentError(f"{file}: not a tournament record (format {doc.get('format')!r})")
    names = [p["name"] for p in doc["players"]]
    results: list[RaceResult] = []
    seats: list[int] | None = None
    if len(doc["races"]) != t.races:
        raise TournamentError(f"{file}: {len(doc['races'])} races recorded, the rules give "
                              f"{t.races} ({t.cite('races')})")
    rng = random.Random(int(doc.get("tournament_seed", 0)))
    for entry in doc["races"]:
        r, course = int(entry["race"]), entry["course"]
        if "tournament_seed" in doc:
            want = choose_course(t, r, len(names), doc.get("courses"),
                                 [x.course for x in results], pool, rng)
            if want != course:
                raise TournamentError(f"{file}: race {r} was raced on {course}, the rules give "
                                      f"{want} ({t.cite('rotation')})")
        lines = [{**line, "_line": i} for i, line in enumerate(entry["record"], start=1)]
        if seats is not None and list(entry["seats"]) != seats:
            raise TournamentError(f"{file}: race {r} starts in the order {entry['seats']}, "
                                  f"the rules give {seats} ({t.cite('next_start_order')})")
        race = setup(course)
        state = replay(lines, race.race_rules, race.board, f"{file} race {r}")
        res = _result(r, course, int(entry["seed"]), state_seats(lines), outcome(state),
                      len(names), entry["record"])
        results.append(res)
        seats = next_seats(t, res.seats, res.seat_order)
    table = standings(names, results, t.tie_break)
    if [s.to_json() for s in table] != doc["standings"]:
        raise TournamentError(f"{file}: the recorded standings differ from the replayed ones")
    header = {k: v for k, v in doc.items() if k not in ("format", "version", "races",
                                                        "standings")}
    return Tournament(tuple(names), tuple(results), table, header)


def state_seats(lines: Sequence[JsonDict]) -> list[int]:
    return list(lines[0]["seats"])
