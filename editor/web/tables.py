"""Tables: a group's seats around one race at a time, each seat with a secret token.

A :class:`Table` holds the seats (a person or a bot; a person's seat may be handed to a bot
by the host and taken back), the host's token, the seat tokens, the race being played (a
:class:`~avecaesar.editor.table.game.Game`) and the devices subscribed to it. The database
(store.py) is the truth; a table in memory is a copy that knows the version it reflects.
Every change runs under the table's one lock, in a worker thread (moves, bot turns, timers
and next race never interleave), and is one transaction that checks that version: a change
computed on a copy that is no longer current (another request, another server process) is
refused by the database, the copy catches up and the change is tried again on the current
table — so an acknowledged move is never applied to a stale object, nor lost. Then it is
pushed: each device gets the view for its token — the public table, plus its own seat's
cards — computed once per change and language when first asked (:meth:`Table.view`).

The seats' tokens live in the database only (readable by the server only), never served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import anyio.to_thread

from avecaesar.editor.render.lang import DEFAULT, current, language
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.limits import Limits, TooMany
from avecaesar.editor.web.storage import BadRequest, Storage
from avecaesar.editor.web.store import Change, Conflict, RaceRow, Store, StoreError, TableRow
from avecaesar.engine.core.race_setup import RaceSetup
from avecaesar.engine.core.race_setup import Seat as SetupSeat
from avecaesar.engine.core.record import setup_from_header
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["MAX_LOADED", "Role", "Seat", "Subscriber", "Table", "Tables"]

FORMAT = "avecaesar-web-table"
#: tables kept in memory at most (the least recently used idle one is freed first; the
#: database keeps every table, so a freed one comes back when asked)
MAX_LOADED = 256
#: a table nobody has touched or watched for this long is freed from memory (seconds)
IDLE_AFTER = 30 * 60
#: how often a change refused as stale is tried again on the current table
RETRIES = 4
#: presence: a device that announced it pings (its hello's ``ping``; the page pings every
#: 0.5 s) is away once it has sent nothing for this long (seconds) — a phone that lost its
#: network without closing the connection is shown away within 2 s — and online again with
#: its next message
STALE_S = 1.5
#: … and the same while its page is in the background (it says so: ``hidden``), whose timers
#: browsers slow down to one a minute: judged by this long heartbeat instead (no flapping)
HIDDEN_STALE_S = 90.0
_TABLE_ID = re.compile(r"t[0-9a-f]{12}")


class Role(StrEnum):
    """Who a token is at a table (a view's ``role``)."""

    HOST = "host"  # sets up, hands seats to bots; in device mode moves for everyone
    SEAT = "seat"  # a person's seat: their own cards and moves
    SPECTATOR = "spectator"  # no token: the public view only


@dataclass
class Seat:
    """A seat: a person (``bot`` None) or a bot; ``stand_in`` the bot the host lets move
    for an absent person."""

    name: str
    bot: str | None
    token: str
    stand_in: str | None = None


class Subscriber:
    """A device listening for its views: the newest one waits in a one-place queue (a slow
    device skips views it has not read, never the latest)."""

    def __init__(self, key: str, seat: int | None, lang: str = DEFAULT,
                 client: str = "") -> None:
        self.key = key
        self.seat = seat
        self.lang = lang  # the device's language: its views are in it
        self.client = client
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        #: presence (only for a device that pings: others are here while connected)
        self.pings = False
        self.hidden = False
        self.heard = time.monotonic()
        self.away = False

    def hear(self, message: object) -> bool:
        """A message from the device (a ping, ``{"hidden": …}`` or anything): it is here.
        True when that brings it back from away."""
        self.heard = time.monotonic()
        if isinstance(message, dict) and "hidden" in message:
            self.hidden = message["hidden"] is True
        back, self.away = self.away, False
        return back

    def gone_quiet(self) -> bool:
        """A device that pings has sent nothing for too long: it is away now (True once,
        when that happens)."""
        if not self.pings or self.away:
            return False
        limit = HIDDEN_STALE_S if self.hidden else STALE_S
        self.away = time.monotonic() - self.heard > limit
        return self.away

    def offer(self, view: dict[str, Any]) -> None:
        with contextlib.suppress(asyncio.QueueEmpty):
            self.queue.get_nowait()
        self.queue.put_nowait(view)


def _same(a: str, b: str) -> bool:
    """Tokens compared in constant time (as bytes: a non-ASCII text is simply wrong)."""
    return secrets.compare_digest(a.encode("utf-8", "surrogatepass"),
                                  b.encode("utf-8", "surrogatepass"))


@dataclass
class Table:
    id: str
    host: str
    shared: bool  # one device passed around (the pass screen) instead of one per seat
    delay_ms: int | None  # the bots' step time; None: bots move only when asked (the API)
    seats: list[Seat]
    races: list[str] = field(default_factory=list)  # the races, the current one last
    created: float = field(default_factory=time.time)
    #: a pending move is confirmed by itself after this long (ms; None: only when asked)
    confirm_ms: int | None = None
    tournament: dict[str, Any] | None = None  # a tournament's file (tournament.py)
    #: the race waits for its players: nothing moves until every person's seat has joined
    #: or the host starts it
    lobby: bool = False
    #: the turn clock (s; None: none): a person's turn not chosen by then goes to a bot
    turn_s: int | None = None
    clock: tuple[str, int, float] | None = field(default=None, repr=False)  # race, ply, end
    clock_task: asyncio.Task[None] | None = field(default=None, repr=False)
    client: str = ""  # who set it up (the limits count per client)
    game: Game | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    version: int = 0  # the database's version this copy reflects
    saved_ply: int = 0  # the current race's turns in the database
    seq: int = 0  # changes not kept (who is online): a view's order within a version
    subscribers: set[Subscriber] = field(default_factory=set, repr=False)
    active: float = field(default_factory=time.monotonic, repr=False)
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    #: this copy's life in this process: a device seeing a new epoch takes its views afresh
    epoch: str = field(default_factory=lambda: secrets.token_hex(4), repr=False)
    context: Tables | None = field(default=None, repr=False)
    _views: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict, repr=False)

    # tokens ----------------------------------------------------------------------------
    def role(self, token: object) -> tuple[Role, int | None]:
        """``(HOST, None)``, ``(SEAT, i)`` or ``(SPECTATOR, None)``; an unknown token — or
        one that is not a text — is refused (a mistyped link must not silently watch)."""
        if token is None or token == "":
            return Role.SPECTATOR, None
        if not isinstance(token, str):
            raise BadRequest(say("bad_token"), 403)
        if _same(token, self.host):
            return Role.HOST, None
        for i, s in enumerate(self.seats):
            if s.bot is None and _same(token, s.token):
                return Role.SEAT, i
        raise BadRequest(say("bad_token"), 403)

    @staticmethod
    def key(role: Role, seat: int | None) -> str:
        """The key of a role's view: ``host``, ``spectator`` or ``seat:N``."""
        return f"seat:{seat}" if role == Role.SEAT else str(role)

    # the database's copy --------------------------------------------------------------
    def doc(self) -> dict[str, Any]:
        """What the database keeps of the table besides its turn and races' rows."""
        return {"format": FORMAT, "host": self.host, "shared": self.shared,
                "delay_ms": self.delay_ms, "confirm_ms": self.confirm_ms,
                "seats": [{"name": s.name, "bot": s.bot, "token": s.token,
                           "stand_in": s.stand_in} for s in self.seats],
                "races": list(self.races), "tournament": self.tournament,
                "lobby": self.lobby, "turn_s": self.turn_s}

    def take_doc(self, doc: dict[str, Any]) -> None:
        self.host, self.shared = str(doc["host"]), bool(doc["shared"])
        self.delay_ms, self.confirm_ms = doc.get("delay_ms"), doc.get("confirm_ms")
        self.seats = [Seat(s["name"], s.get("bot"), s["token"], s.get("stand_in"))
                      for s in doc["seats"]]
        self.races = list(doc["races"])
        self.tournament = doc.get("tournament")
        self.lobby = bool(doc.get("lobby", False))
        self.turn_s = doc.get("turn_s")

    @classmethod
    def of_row(cls, row: TableRow) -> Table:
        t = cls(row.id, "", False, None, [], created=row.created, client=row.client)
        t.take_doc(row.doc)
        t.version = row.version
        return t

    def store(self) -> Store:
        assert self.context is not None
        return self.context.store

    def sink(self, game: Game, doc: bool = False, new_race: RaceRow | None = None) -> None:
        """Keep a change of the game (and with ``doc`` the table's seats and races) in one
        transaction that checks this copy's version; called by :meth:`Game.write` in the
        change's worker thread. :class:`Conflict` when the copy is stale."""
        lines = game.record()
        over = game.state.over
        turns = lines[1:-1] if over else lines[1:]
        start = 0 if new_race is not None else self.saved_ply
        change = Change(self.id, self.version, game.turn_state(), self.races[-1],
                        from_ply=start, lines=turns[start:],
                        result=lines[-1] if over else None, undos=game.undos(),
                        doc=self.doc() if doc or new_race is not None else None,
                        new_race=new_race, over=over)
        try:
            self.version = self.store().commit(change)
        except StoreError as err:
            from avecaesar.editor.table.game import RecordWriteError

            raise RecordWriteError(say("record_failed", why=str(err).rsplit(": ", 1)[-1])
                                   ) from None
        self.saved_ply = len(turns)

    def attach(self, game: Game) -> None:
        """Make ``game`` the table's race: its changes go to the database."""
        game.sink = self.sink
        self.game = game
        self.sync_stand_ins()

    # the views -------------------------------------------------------------------------
    def online(self) -> set[int]:
        """The seats with a device connected that is not away."""
        return {s.seat for s in self.subscribers if s.seat is not None and not s.away}

    def table_facts(self) -> dict[str, Any]:
        """What everyone may know about the table: the seats and who is connected."""
        self.set_clock()
        on = self.online()
        out: dict[str, Any] = {
            "id": self.id, "shared": self.shared, "delay_ms": self.delay_ms,
            "confirm_ms": self.confirm_ms, "races": len(self.races), "lobby": self.lobby,
            "turn_s": self.turn_s, "clock": self.clock[2] if self.clock else None,
            "version": self.version, "seq": self.seq, "epoch": self.epoch,
            "seats": [{"seat": i, "name": s.name, "kind": "person" if s.bot is None else "bot",
                       "bot": s.bot, "stand_in": s.stand_in, "online": i in on}
                      for i, s in enumerate(self.seats)]}
        game = self.game
        if self.context is not None and game is not None:
            out["course"] = self.context.storage.course_ref(game.setup.course)
            if self.tournament is not None and game.state.over:
                out["tournament"] = self._views.get(("", "tournament"))
        return out

    def _tournament_view(self) -> None:
        """The tournament's standings (read from the races' rows: a worker thread)."""
        game = self.game
        if (self.context is not None and self.tournament is not None and game is not None
                and game.state.over and ("", "tournament") not in self._views):
            tour = self.context.tournament(self)
            self._views["", "tournament"] = tour.view(self.context.lines_of)

    def _race_view(self, key: str, lang: str) -> dict[str, Any]:
        """The race part of a view (the engine's one view for that seat), once per change
        and language."""
        found = self._views.get((lang, key))
        if found is None:
            game = self.game
            assert game is not None
            with language(lang):
                if key == Role.SPECTATOR:
                    found = game.view_for(None)
                elif key == Role.HOST:
                    found = game.view_for(None, shared=self.shared)
                else:
                    found = game.view_for(int(key.split(":")[1]))
            self._views[lang, key] = found
        return found

    def build_view(self, role: Role, seat: int | None, lang: str | None = None
                   ) -> dict[str, Any]:
        """The view of ``role``/``seat`` in ``lang`` (default: the request's language);
        call under the lock (the game must not change meanwhile)."""
        if self.game is None:
            raise BadRequest(say("api_being_set_up"), 409)
        lang = lang or current()
        self._tournament_view()
        if role == Role.SEAT and self.shared:
            role, seat = Role.SPECTATOR, None
        key = self.key(role, seat)
        you = None
        if role == Role.SEAT and seat is not None:
            you = {"seat": seat, "name": self.seats[seat].name}
        facts = self.table_facts()
        return {"table": facts, "role": role, "you": you, "race": self._race_view(key, lang)}

    async def view(self, role: Role, seat: int | None, lang: str | None = None
                   ) -> dict[str, Any]:
        """:meth:`build_view` under the lock, in a worker thread when it must be computed."""
        lang = lang or current()
        async with self.lock:
            key = self.key(Role.SPECTATOR if role == Role.SEAT and self.shared else role, seat)
            if (lang, key) in self._views and (self.tournament is None
                                                or ("", "tournament") in self._views):
                return self.build_view(role, seat, lang)
            return await anyio.to_thread.run_sync(self.build_view, role, seat, lang)

    def changed(self) -> None:
        """The game or the table changed: every view is computed again when asked."""
        self._views.clear()
        self.active = time.monotonic()

    async def push(self) -> None:
        """Send the current views to every subscribed device (each computed once)."""
        subs = list(self.subscribers)
        if not subs or self.game is None:
            return
        needed = {(s.lang, s.key) for s in subs} - set(self._views)
        if needed or (self.tournament is not None and ("", "tournament") not in self._views):
            def fill() -> None:
                self._tournament_view()
                for lang, key in needed:
                    self._race_view(key, lang)
            await anyio.to_thread.run_sync(fill)
        facts = self.table_facts()
        for sub in subs:
            role = Role.SEAT if sub.seat is not None else Role(sub.key)
            you = None if sub.seat is None else {"seat": sub.seat,
                                                 "name": self.seats[sub.seat].name}
            sub.offer({"table": facts, "role": role, "you": you,
                       "race": self._views[sub.lang, sub.key]})

    # changes ---------------------------------------------------------------------------
    async def change(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` under the table's lock in a worker thread, on the current table: a
        copy found stale (by the database) catches up and ``fn`` runs again. Then push the
        new views and let the bots and the timer move."""
        async with self.lock:
            try:
                for _attempt in range(RETRIES):
                    await anyio.to_thread.run_sync(self.catch_up)
                    try:
                        result = await anyio.to_thread.run_sync(self._apply, fn)
                        break
                    except Conflict:
                        continue
                else:
                    raise BadRequest(say("api_too_fast"), 409)
            finally:
                await self.push()
        self.schedule()
        return result

    def _apply(self, fn: Callable[[], Any]) -> Any:
        saved = self.memory()
        try:
            return fn()
        except BaseException:
            self.restore(saved)
            raise
        finally:
            self.sync_stand_ins()
            self.set_clock()  # before the views are pushed: they show it
            self.changed()

    def memory(self) -> tuple[Any, ...]:
        """The table's fields a change may alter (the game's are its own)."""
        return ([Seat(s.name, s.bot, s.token, s.stand_in) for s in self.seats],
                list(self.races), self.game, None if self.game is None else
                self.game.memory(), self.version, self.saved_ply, self.tournament)

    def restore(self, saved: tuple[Any, ...]) -> None:
        (self.seats, self.races, self.game, game_memory, self.version, self.saved_ply,
         self.tournament) = saved
        if self.game is not None and game_memory is not None:
            self.game.restore(game_memory)

    def catch_up(self) -> bool:
        """Bring this copy to the database's version (worker thread, under the lock);
        True if it changed."""
        tables = self.context
        assert tables is not None
        store = tables.store
        now = store.version(self.id)
        if now is None:
            raise BadRequest(say("api_no_table", tid=self.id), 404)
        if now == self.version and self.game is not None:
            return False
        row = store.table(self.id)
        assert row is not None
        game = self.game
        self.take_doc(row.doc)
        if game is None or game.path is None or game.path.name != row.race:
            self.attach(tables.load_game(row.race))
        else:
            race = store.race(row.race)
            assert race is not None
            game.play_lines(store.moves(row.race, after=self.saved_ply))
            if len(race.undos) != len(game.undos()):
                game.log = [t for t in game.log if not t.get("undo")]
                game.put_undos(race.undos)
        assert self.game is not None
        self.saved_ply = len(self.game.turns)
        self.game.set_turn_state(row.turn)
        self.version = row.version
        self.sync_stand_ins()
        self.changed()
        return True

    async def sync(self) -> None:
        """Catch up with the database if another request or process changed the table,
        and push the news."""
        async with self.lock:
            changed = await anyio.to_thread.run_sync(self.catch_up)
            if changed:
                await self.push()
        if changed:
            self.schedule()

    def sync_stand_ins(self) -> None:
        if self.game is not None:
            self.game.stand_in = {i: s.stand_in for i, s in enumerate(self.seats)
                                  if s.stand_in is not None and s.bot is None}

    async def online_changed(self) -> None:
        """A device came or went: the seats' online marks change (nothing is kept)."""
        async with self.lock:
            self.seq += 1
            await self.push()

    def everyone_here(self) -> bool:
        """Every person's seat has a device connected."""
        on = self.online()
        return all(i in on for i, s in enumerate(self.seats) if s.bot is None)

    async def open_lobby(self, empty_to_bots: bool) -> None:
        """The waiting is over: the race starts (``empty_to_bots``: every person's seat
        with no device connected is handed to a greedy bot). Kept in the database."""
        def go() -> None:
            if not self.lobby:
                return
            on = self.online()
            for i, s in enumerate(self.seats):
                if empty_to_bots and s.bot is None and i not in on and s.stand_in is None:
                    s.stand_in = "greedy"
            self.lobby = False
            assert self.game is not None
            self.sync_stand_ins()
            self.sink(self.game, doc=True)
        await self.change(go)

    # bots and the timer ----------------------------------------------------------------
    def schedule(self) -> None:
        """Step the bots one at a time, each after the step time; confirm a pending move
        when its time has come (not while the table waits for its players)."""
        game = self.game
        if game is None or self.lobby:
            return
        self._wind_clock(game)
        p = game.pending
        if p is not None and p.deadline is not None and (self.timer is None
                                                          or self.timer.done()):
            self.timer = asyncio.get_running_loop().create_task(self._timer())
        if (self.delay_ms is None or not game.bot_to_move() or game.pending is not None
                or (self.bot_task is not None and not self.bot_task.done())):
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bots())

    async def _timer(self) -> None:
        """Confirm each pending move at its deadline (a move taken back and chosen again
        has a new one)."""
        while True:
            game = self.game
            p = None if game is None else game.pending
            if p is None or p.deadline is None:
                return
            wait = p.deadline - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
                continue

            def due() -> None:
                g = self.game
                q = None if g is None else g.pending
                if g is not None and q is not None and q.deadline is not None \
                        and q.deadline <= time.time():
                    g.confirm()
            try:
                await self.change(due)
            except AveCaesarError:
                await asyncio.sleep(1.0)  # not kept (a full disk): try again

    def set_clock(self) -> None:
        """A person's turn to choose starts the turn clock (when the host set one); it runs
        until the turn is over (a move chosen and waiting stops it). Not while waiting."""
        game = self.game
        s = None if game is None else game.state
        if (game is None or s is None or self.turn_s is None or self.lobby or s.over
                or game.pending is not None or not game.is_human(s.turn)
                or (self.shared and game.needs_pass())):
            self.clock = None
            return
        key = (self.races[-1], s.ply)
        if self.clock is None or self.clock[:2] != key:
            self.clock = (*key, time.time() + self.turn_s)

    def _wind_clock(self, game: Game) -> None:
        """The clock's task, while a clock runs."""
        self.set_clock()
        if self.clock is not None and (self.clock_task is None or self.clock_task.done()):
            self.clock_task = asyncio.get_running_loop().create_task(self._clock())

    async def _clock(self) -> None:
        """The turn clock ran out: the seat to move is handed to a greedy bot, which moves
        (its device takes the seat back with "I'm back")."""
        while self.clock is not None:
            race, ply, end = self.clock
            if end > time.time():
                await asyncio.sleep(end - time.time())
                continue

            def out(race: str = race, ply: int = ply) -> None:
                g = self.game
                if (g is None or self.clock is None or self.clock[:2] != (race, ply)
                        or g.state.ply != ply or g.pending is not None
                        or not g.is_human(g.state.turn)):
                    return
                self.seats[g.owner[g.state.turn]].stand_in = "greedy"
                self.clock = None
                self.sync_stand_ins()
                self.sink(g, doc=True)
            try:
                await self.change(out)
            except AveCaesarError:
                await asyncio.sleep(1.0)  # not kept (a full disk): try again
            return

    async def _bots(self) -> None:
        while True:
            await asyncio.sleep((self.delay_ms or 0) / 1000)
            game = self.game
            if game is None or not game.bot_to_move() or self.delay_ms is None:
                return

            def step() -> None:
                g = self.game
                if g is not None and g.bot_to_move() and g.pending is None:
                    g.step_bot()
            try:
                await self.change(step)
            except AveCaesarError:
                return  # not kept (a full disk): the next change tries again

    def stop(self) -> None:
        for task in (self.bot_task, self.timer):
            if task is not None:
                task.cancel()


class Tables:
    """The tables in memory (copies of the database's), loading and freeing them; the
    races' setups composed once per process."""

    def __init__(self, storage: Storage, store: Store, limits: Limits | None = None) -> None:
        self.storage = storage
        self.store = store
        self.limits = limits or Limits()
        self.loaded: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._setups: dict[str, RaceSetup] = {}
        self.sockets: dict[str, int] = {}  # client → live connections

    @staticmethod
    def check_id(tid: str) -> str:
        if not _TABLE_ID.fullmatch(tid):
            raise BadRequest(say("api_not_table", tid=tid), 404)
        return tid

    @staticmethod
    def new_id() -> str:
        return "t" + secrets.token_hex(6)

    # races ---------------------------------------------------------------------------
    def setup_of(self, head: dict[str, Any], name: str) -> RaceSetup:
        """The setup a header names (composed once per rules and course in this process)."""
        key = json.dumps({k: head.get(k) for k in ("ruleset", "variants", "overrides",
                                                  "house", "course", "rules_files")},
                         sort_keys=True, default=str)
        base = self._setups.get(key)
        if base is None:
            base, _differs = setup_from_header(head, name, self.storage.checked_header(head))
            if len(self._setups) > 64:
                self._setups.clear()
            self._setups[key] = base
        return base.for_race(
            seats=[SetupSeat(p["name"], p.get("bot")) for p in head.get("players", [])],
            seed=int(head["seed"]), bot_budget=head.get("bot_budget"), race=head.get("race"),
            start_order=head["seats"] if head.get("seated") else None)

    def lines_of(self, name: str) -> list[dict[str, Any]]:
        """A race's record from the database (with line numbers, as a file read gives)."""
        lines = self.store.record_lines(name)
        if lines is None:
            raise BadRequest(f"no saved record {name!r}", 404)
        return [{**ln, "_line": i} for i, ln in enumerate(lines, start=1)]

    def load_game(self, name: str) -> Game:
        """The race ``name`` from its rows: its setup, every turn played again, its undos."""
        race = self.store.race(name)
        if race is None:
            raise AveCaesarError(f"the race {name} is missing from the database")
        head = {**race.header, "_line": 1}
        game = Game.from_lines(self.setup_of(head, name), head, self.store.moves(name),
                               Path(name))
        game.put_undos(race.undos)
        return game

    def tournament(self, table: Table) -> Any:
        from avecaesar.editor.web.tournament import WebTournament

        assert table.tournament is not None
        return WebTournament.of_doc(table.tournament)

    # tables --------------------------------------------------------------------------
    def add(self, table: Table) -> Table:
        table.context = self
        self.loaded[table.id] = table
        self.free()
        return table

    def create(self, table: Table, game: Game, lines: Sequence[dict[str, Any]] = ()
               ) -> None:
        """Keep a new table with its first race (worker thread)."""
        table.context = self
        name = table.races[-1]
        head = game.record()[0]
        row = TableRow(table.id, 1, table.doc(), game.turn_state(), name, False,
                       table.client, table.created, time.time())
        race = RaceRow(name, table.id, head, str(head.get("course", "")),
                       ply=len(game.turns))
        self.store.create(row, race, lines)
        table.version, table.saved_ply = 1, len(game.turns)
        table.attach(game)
        table.changed()

    async def get(self, tid: str) -> Table:
        """The table ``tid``, current: the copy in memory (caught up if the database has
        a newer version), or loaded from the database."""
        self.check_id(tid)
        found = self.loaded.get(tid)
        if found is not None:
            now = await anyio.to_thread.run_sync(self.store.version, tid)
            if now is None:
                self.loaded.pop(tid, None)
                raise BadRequest(f"no table {tid!r}", 404)
            if now != found.version:
                await found.sync()
            found.active = time.monotonic()
            found.schedule()
            return found
        lock = self._loading.setdefault(tid, asyncio.Lock())
        async with lock:
            found = self.loaded.get(tid)
            if found is None:
                found = await anyio.to_thread.run_sync(self._load, tid)
                self.add(found)
            self._loading.pop(tid, None)
        found.schedule()
        return found

    def _load(self, tid: str) -> Table:
        row = self.store.table(tid)
        if row is None:
            raise BadRequest(f"no table {tid!r}", 404)
        table = Table.of_row(row)
        table.context = self
        table.attach(self.load_game(row.race))
        assert table.game is not None
        table.game.set_turn_state(row.turn)
        table.saved_ply = len(table.game.turns)
        table.changed()
        return table

    def on_remote(self, tid: str, version: int, loop: asyncio.AbstractEventLoop) -> None:
        """Another server process changed table ``tid`` (its NOTIFY, from the listening
        thread): a copy in memory catches up and pushes to its devices."""
        table = self.loaded.get(tid)
        if table is not None and version > table.version:
            loop.call_soon_threadsafe(lambda: loop.create_task(table.sync()))

    def free(self, now: float | None = None) -> list[str]:
        """Free copies from memory: idle for :data:`IDLE_AFTER`, and the least recently
        used beyond :data:`MAX_LOADED` (never one with a device subscribed, a change under
        way or a move waiting for its timer). The database keeps them."""
        now = time.monotonic() if now is None else now

        def busy(t: Table) -> bool:
            return bool(t.subscribers) or t.lock.locked() or (
                t.game is not None and t.game.pending is not None)
        idle = sorted((t.active, tid) for tid, t in self.loaded.items() if not busy(t))
        gone = [tid for active, tid in idle if now - active > IDLE_AFTER]
        extra = len(self.loaded) - len(gone) - MAX_LOADED
        gone += [tid for _a, tid in idle if tid not in gone][:max(extra, 0)]
        for tid in gone:
            self.loaded.pop(tid).stop()
        return gone

    # limits --------------------------------------------------------------------------
    def check_new_table(self, client: str) -> None:
        """429 or 507 when ``client`` or the server may not set up another table."""
        self.limits.check_disk(self.storage.root)
        self.limits.check_new_table(self.store.counts(client, time.time()
                                                      - self.limits.window))

    def check_upload(self, client: str) -> None:
        self.limits.check_disk(self.storage.root)
        self.limits.check_upload(self.store.counts(client, time.time() - self.limits.window))

    def join(self, table: Table, client: str) -> None:
        """Count a new live connection, or refuse it (the limits)."""
        lim = self.limits
        if len(table.subscribers) >= lim.sockets_per_table:
            raise TooMany(f"this table has {len(table.subscribers)} live connections, its "
                          "most: close one (another tab?) and try again")
        if self.sockets.get(client, 0) >= lim.sockets_per_client:
            raise TooMany(f"you have {self.sockets[client]} live connections: close some "
                          "and try again")
        if sum(self.sockets.values()) >= lim.sockets:
            raise TooMany("the server has as many live connections as it takes: try again "
                          "in a minute", 507)
        self.sockets[client] = self.sockets.get(client, 0) + 1

    def leave(self, client: str) -> None:
        n = self.sockets.get(client, 0) - 1
        if n > 0:
            self.sockets[client] = n
        else:
            self.sockets.pop(client, None)

    def retention(self) -> dict[str, int]:
        """The database's retention sweep (worker thread): see :meth:`Store.sweep`."""
        lim = self.limits
        try:
            return self.store.sweep(time.time(), lim.ended_after, lim.max_uploads,
                                    lim.kept_races)
        except StoreError:
            return {}
