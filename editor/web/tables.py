"""Tables: a group's seats around one race at a time, each seat with a secret token.

A :class:`Table` holds the seats (a person or a bot; a person's seat may be handed to a bot
by the host and taken back), the host's token, the seat tokens, the race being played (a
:class:`~avecaesar.editor.table.game.Game`) and the devices subscribed to it. Every change
runs under the table's one lock, in a worker thread (moves, bot turns, resume and next race
never interleave), is written to the record before it is acknowledged, and is then pushed:
each device gets the view for its token — the public table, plus its own seat's cards —
computed once per change by :meth:`Table.publish`.

The table file (``tables/<id>.json``, readable by the server only) keeps the tokens so a
restarted server knows every seat again; it is never served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import anyio.to_thread

from avecaesar.editor.render.lang import DEFAULT, LANGS, current, language
from avecaesar.editor.table.game import Game
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.storage import BadRequest, Storage
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["ABANDONED_AFTER", "FINISHED_AFTER", "MAX_LOADED", "Role", "Seat", "Subscriber",
           "Table", "Tables"]

FORMAT = "avecaesar-web-table"
#: a finished race's table is freed from memory this long after its last change (seconds)
FINISHED_AFTER = 30 * 60
#: a race nobody has touched or watched for this long is freed (its record stays on disk)
ABANDONED_AFTER = 6 * 3600
#: tables kept in memory at most (the least recently used idle one is freed first)
MAX_LOADED = 64
_TABLE_ID = "t[0-9a-f]{12}"


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

    def __init__(self, key: str, seat: int | None, lang: str = DEFAULT) -> None:
        self.key = key
        self.seat = seat
        self.lang = lang  # the device's language: its views are in it
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)

    def offer(self, view: dict[str, Any]) -> None:
        with contextlib.suppress(asyncio.QueueEmpty):
            self.queue.get_nowait()
        self.queue.put_nowait(view)


@dataclass
class Table:
    id: str
    host: str
    shared: bool  # one device passed around (the pass screen) instead of one per seat
    delay_ms: int | None  # the bots' step time; None: bots move only when asked (the API)
    seats: list[Seat]
    races: list[str] = field(default_factory=list)  # the records, the current one last
    created: float = field(default_factory=time.time)
    game: Game | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    version: int = 0
    views: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict, repr=False)
    subscribers: set[Subscriber] = field(default_factory=set, repr=False)
    active: float = field(default_factory=time.monotonic, repr=False)
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: this table's life in this server's memory: a device seeing a new epoch takes its
    #: views afresh (the version counts from 1 again after a restart)
    epoch: str = field(default_factory=lambda: secrets.token_hex(4), repr=False)
    context: Tables | None = field(default=None, repr=False)

    # tokens ----------------------------------------------------------------------------
    def role(self, token: str | None) -> tuple[Role, int | None]:
        """``(HOST, None)``, ``(SEAT, i)`` or ``(SPECTATOR, None)``; an unknown token is
        refused (a mistyped link must not silently watch)."""
        if not token:
            return Role.SPECTATOR, None
        if secrets.compare_digest(token, self.host):
            return Role.HOST, None
        for i, s in enumerate(self.seats):
            if s.bot is None and secrets.compare_digest(token, s.token):
                return Role.SEAT, i
        raise BadRequest(say("bad_token"), 403)

    @staticmethod
    def key(role: Role, seat: int | None) -> str:
        """The key of a role's view: ``host``, ``spectator`` or ``seat:N``."""
        return f"seat:{seat}" if role == Role.SEAT else str(role)

    # the views -------------------------------------------------------------------------
    def online(self) -> set[int]:
        return {s.seat for s in self.subscribers if s.seat is not None}

    def table_facts(self) -> dict[str, Any]:
        """What everyone may know about the table: the seats and who is connected."""
        on = self.online()
        out = {"id": self.id, "shared": self.shared, "delay_ms": self.delay_ms,
               "races": len(self.races), "version": self.version, "epoch": self.epoch,
                "seats": [{"seat": i, "name": s.name,
                           "kind": "person" if s.bot is None else "bot", "bot": s.bot,
                           "stand_in": s.stand_in, "online": i in on}
                          for i, s in enumerate(self.seats)]}
        game = self.game
        if self.context is not None and game is not None:
            storage = self.context.storage
            out["course"] = storage.course_ref(game.setup.course)
            if game.state.over and game.path is not None:
                from avecaesar.editor.web.tournament import WebTournament

                tour = WebTournament.of_record(storage.saves, game.path.name)
                if tour is not None:
                    out["tournament"] = tour.view(storage.saves)
        return out

    def compute_views(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Every view of this moment, by language and key: each built from the engine's one
        view for that seat (``Game.view_for``) — nothing else goes into a response."""
        out = {}
        for lang in LANGS:
            with language(lang):
                out[lang] = self._views()
        return out

    def _views(self) -> dict[str, dict[str, Any]]:
        game = self.game
        assert game is not None
        facts = self.table_facts()
        views: dict[str, dict[str, Any]] = {
            Role.SPECTATOR: {"table": facts, "role": Role.SPECTATOR, "you": None,
                             "race": game.view_for(None)},
            Role.HOST: {"table": facts, "role": Role.HOST, "you": None,
                        "race": game.view_for(None, shared=self.shared)}}
        if not self.shared:
            for i, s in enumerate(self.seats):
                if s.bot is None:
                    views[self.key(Role.SEAT, i)] = {"table": facts, "role": Role.SEAT,
                                          "you": {"seat": i, "name": s.name},
                                          "race": game.view_for(i)}
        return views

    def view(self, role: Role, seat: int | None, lang: str | None = None) -> dict[str, Any]:
        """The view of ``role``/``seat`` in ``lang`` (default: the request's language)."""
        if not self.views:
            raise BadRequest("the table is being set up: try again in a moment", 409)
        views = self.views.get(lang or current()) or self.views[DEFAULT]
        return views.get(self.key(role, seat)) or views[Role.SPECTATOR]

    def refresh(self) -> None:
        """A new version of every view (any thread, under the lock)."""
        self.version += 1
        self.active = time.monotonic()
        self.views = self.compute_views()

    def push(self) -> None:
        """Offer the current views to every subscribed device (the event loop's thread)."""
        for sub in list(self.subscribers):
            sub.offer(self.view(Role.SEAT if sub.seat is not None else Role(sub.key), sub.seat,
                                sub.lang))

    def publish(self) -> None:
        self.refresh()
        self.push()

    # changes ---------------------------------------------------------------------------
    async def change(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` under the table's lock in a worker thread, then push the new views to
        every device and let the bots move if it is their turn."""
        async with self.lock:
            try:
                result = await anyio.to_thread.run_sync(self._apply, fn)
            finally:
                self.push()
        self.schedule_bots()
        return result

    def _apply(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        finally:
            self.sync_stand_ins()
            self.refresh()

    def sync_stand_ins(self) -> None:
        if self.game is not None:
            self.game.stand_in = {i: s.stand_in for i, s in enumerate(self.seats)
                                  if s.stand_in is not None and s.bot is None}

    def schedule_bots(self) -> None:
        """Step the bots one at a time, each after the step time (not while one is due)."""
        game = self.game
        if (self.delay_ms is None or game is None or not game.bot_to_move()
                or (self.bot_task is not None and not self.bot_task.done())):
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bots())

    async def _bots(self) -> None:
        while True:
            await asyncio.sleep((self.delay_ms or 0) / 1000)
            async with self.lock:
                game = self.game
                if game is None or not game.bot_to_move() or self.delay_ms is None:
                    return
                try:
                    await anyio.to_thread.run_sync(self._apply, game.step_bot)
                except AveCaesarError:
                    return  # the record could not be written: the next change tries again
                finally:
                    self.push()

    def stop(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()

    # the file --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "id": self.id, "host": self.host, "shared": self.shared,
                "delay_ms": self.delay_ms, "seats": [asdict(s) for s in self.seats],
                "races": self.races, "created": self.created}


class Tables:
    """The tables in memory, their files in ``tables/``, and freeing idle ones."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.folder = storage.root / "tables"
        self.folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.folder, 0o700)
        self.loaded: dict[str, Table] = {}

    def file(self, tid: str) -> Path:
        import re

        if not re.fullmatch(_TABLE_ID, tid):
            raise BadRequest(f"not a table: {tid!r}", 404)
        return self.folder / f"{tid}.json"

    @staticmethod
    def new_id() -> str:
        return "t" + secrets.token_hex(6)

    def save(self, table: Table) -> None:
        from avecaesar.engine.data.safeio import write_atomic

        path = self.file(table.id)
        write_atomic(path, json.dumps(table.to_json(), ensure_ascii=False))
        os.chmod(path, 0o600)

    def add(self, table: Table) -> Table:
        self.sweep()
        table.context = self
        self.loaded[table.id] = table
        return table

    def get(self, tid: str) -> Table:
        """The table ``tid``: in memory, or read from its file and its race resumed from
        the record (every move re-checked by the engine)."""
        found = self.loaded.get(tid)
        if found is not None:
            return found
        path = self.file(tid)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BadRequest(f"no table {tid!r} (it may have been on another server)",
                             404) from None
        except (OSError, json.JSONDecodeError) as err:
            raise AveCaesarError(f"the table {tid} cannot be read: {err}") from None
        table = Table(doc["id"], doc["host"], bool(doc["shared"]), doc.get("delay_ms"),
                      [Seat(**s) for s in doc["seats"]], list(doc["races"]),
                      float(doc.get("created", time.time())))
        record = self.storage.save_path(table.races[-1])
        table.game = Game.resume(record, self.storage.checked_header)
        table.sync_stand_ins()
        self.add(table)
        table.publish()
        return table

    def sweep(self, now: float | None = None) -> list[str]:
        """Free the tables of finished races after :data:`FINISHED_AFTER`, of abandoned
        ones after :data:`ABANDONED_AFTER`, and the least recently used idle ones beyond
        :data:`MAX_LOADED`; a device still subscribed keeps its table."""
        now = time.monotonic() if now is None else now
        freed = []
        for tid, t in list(self.loaded.items()):
            if t.subscribers or t.lock.locked():
                continue
            over = t.game is None or t.game.state.over
            idle = now - t.active
            if idle > (FINISHED_AFTER if over else ABANDONED_AFTER):
                freed.append(tid)
        idle_ones = sorted((t.active, tid) for tid, t in self.loaded.items()
                           if not t.subscribers and tid not in freed)
        extra = len(self.loaded) - len(freed) - MAX_LOADED
        freed += [tid for _a, tid in idle_ones[:max(extra, 0)]]
        for tid in freed:
            self.loaded.pop(tid).stop()
        return freed
