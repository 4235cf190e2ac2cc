"""The web table's database: tables and their seats, races and their turns, uploads.

SQLite in WAL mode is the default — one file, ``DATA/tables.db`` (mode 0600: it holds the
seeds and the seats' tokens), the standard library's ``sqlite3``. ``serve --db
postgresql://…`` shares one PostgreSQL database among several server processes behind one
proxy (psycopg 3); each tells the others of every change it commits (``NOTIFY``), so a
device connected to one process is pushed the moves made through another.

Either way:

- **One transaction per change**, which checks the version it was computed from —
  ``UPDATE web_tables SET version = version + 1 … WHERE id = ? AND version = ?`` — and
  appends the race's new turns under the primary key (race, ply), checking the race's ply
  the same way. A change is applied to the current table or refused with :class:`Conflict`
  (the caller rereads the table and tries again): never to a stale copy, never two turns at
  one ply. Turns are only ever appended: an undo takes back a move that was never played.
- A change is acknowledged only once committed (SQLite: ``synchronous=FULL``, the commit
  flushed to the disk; PostgreSQL: its own durable commit). When it cannot be written (a
  full disk, the database gone) :class:`StoreError` says so and nothing was changed.
- The JSONL game record — the export and replay format — is written from the rows
  (:meth:`Store.record_lines`).
- Retention never deletes a table whose race has not ended (docs/web.md, "Who may do what,
  and the limits"): :meth:`Store.sweep`.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["CHANNEL", "Change", "Conflict", "PostgresStore", "RaceRow", "SQLiteStore", "Store",
           "StoreError", "TableRow", "open_store"]

SCHEMA_VERSION = 1
#: the PostgreSQL channel every server process listens on (payload ``TABLE:VERSION``)
CHANNEL = "avecaesar_tables"
#: the PostgreSQL advisory lock under which a process makes the schema
SCHEMA_LOCK = 0x61766563  # "avec"

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # a table: its seats with their tokens, options and races (doc), the turn's state beyond
    # the record (the pending move, the shared device's reveal), its current race
    """CREATE TABLE IF NOT EXISTS web_tables (
        id TEXT PRIMARY KEY, version BIGINT NOT NULL, doc TEXT NOT NULL, turn TEXT NOT NULL,
        race TEXT NOT NULL, over INTEGER NOT NULL, client TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS web_tables_client ON web_tables (client, created)",
    "CREATE INDEX IF NOT EXISTS web_tables_over ON web_tables (over, updated)",
    # a race: its record's header (the seed, the deal's nonce), how far it is, its result
    """CREATE TABLE IF NOT EXISTS races (
        name TEXT PRIMARY KEY, tbl TEXT, header TEXT NOT NULL, course TEXT NOT NULL,
        ply INTEGER NOT NULL, result TEXT, undos TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS races_tbl ON races (tbl)",
    "CREATE INDEX IF NOT EXISTS races_updated ON races (updated)",
    # one row per turn: the record's line
    """CREATE TABLE IF NOT EXISTS moves (
        race TEXT NOT NULL, ply INTEGER NOT NULL, line TEXT NOT NULL,
        PRIMARY KEY (race, ply))""",
    # uploaded courses, rules files and records, by their content hash
    """CREATE TABLE IF NOT EXISTS uploads (
        kind TEXT NOT NULL, name TEXT NOT NULL, body TEXT NOT NULL, size INTEGER NOT NULL,
        client TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION NOT NULL, PRIMARY KEY (kind, name))""",
    "CREATE INDEX IF NOT EXISTS uploads_client ON uploads (client, created)",
]


class StoreError(AveCaesarError):
    """The database could not keep a change (a full disk, a lost connection): nothing was
    changed."""


class Conflict(AveCaesarError):
    """The table changed since it was read (another request, another server process):
    read it again and retry."""


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass
class TableRow:
    id: str
    version: int
    doc: dict[str, Any]
    turn: dict[str, Any]
    race: str
    over: bool = False
    client: str = ""
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)


@dataclass
class RaceRow:
    name: str
    table: str | None
    header: dict[str, Any]
    course: str  # the course as the header names it (an upload's hash is in it)
    ply: int = 0
    result: dict[str, Any] | None = None
    undos: list[dict[str, Any]] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)


@dataclass
class Change:
    """One acknowledged change of a table, written in one transaction."""

    table: str
    expected: int  # the version it was computed from
    turn: dict[str, Any]  # the turn's state after it
    race: str  # the race it belongs to (after it, when it starts one)
    from_ply: int = 0  # the race's ply before it
    lines: list[dict[str, Any]] = field(default_factory=list)  # new turns, in ply order
    result: dict[str, Any] | None = None  # the race's result line, when it ended
    undos: list[dict[str, Any]] | None = None  # the race's undone moves (None: unchanged)
    doc: dict[str, Any] | None = None  # the table's doc (None: unchanged)
    new_race: RaceRow | None = None  # a race it starts
    over: bool = False  # the table's race has ended


class Store:
    """What the web table keeps, in a database (the SQL is the same for both; each
    subclass connects and maps its errors). Every method is blocking: the server calls them
    in worker threads, never on its event loop."""

    kind = "database"
    #: SQL placeholders (``?`` in the statements below)
    param = "?"

    # connections (the subclasses) ------------------------------------------------------
    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[Any]:
        raise NotImplementedError
        yield None

    def _sql(self, sql: str) -> str:
        return sql if self.param == "?" else sql.replace("?", self.param)

    def _run(self, cur: Any, sql: str, args: tuple[Any, ...] = ()) -> Any:
        cur.execute(self._sql(sql), args)
        return cur

    def close(self) -> None:
        """Close the connections."""

    def describe(self) -> str:
        return self.kind

    # the schema ---------------------------------------------------------------------------
    def _create(self) -> None:
        with self._cursor(write=True) as cur:
            self._lock_schema(cur)
            for stmt in _SCHEMA:
                self._run(cur, stmt)
            row = self._run(cur, "SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self._run(cur, "INSERT INTO meta (key, value) VALUES ('schema', ?)",
                          (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(f"the database was made by a newer avecaesar (schema "
                                 f"{row[0]}, this one knows {SCHEMA_VERSION}): upgrade it")

    def _lock_schema(self, cur: Any) -> None:
        """Make the processes opening the database at once make its schema one after the
        other (SQLite: ``BEGIN IMMEDIATE`` does already)."""

    # tables -------------------------------------------------------------------------------
    def create(self, table: TableRow, race: RaceRow,
               lines: Sequence[dict[str, Any]] = ()) -> None:
        """A new table and its first race (``lines``: turns it starts with, a resumed
        record's)."""
        with self._cursor(write=True) as cur:
            self._run(cur, "INSERT INTO web_tables (id, version, doc, turn, race, over, "
                      "client, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (table.id, table.version, _dump(table.doc), _dump(table.turn),
                       table.race, int(table.over), table.client, table.created,
                       table.updated))
            self._insert_race(cur, race)
            for ln in lines:
                self._run(cur, "INSERT INTO moves (race, ply, line) VALUES (?, ?, ?)",
                          (race.name, int(ln["ply"]), _dump(ln)))

    def _insert_race(self, cur: Any, race: RaceRow) -> None:
        self._run(cur, "INSERT INTO races (name, tbl, header, course, ply, result, undos, "
                  "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (race.name, race.table, _dump(race.header), race.course, race.ply,
                   None if race.result is None else _dump(race.result), _dump(race.undos),
                   race.created, race.updated))

    def table(self, tid: str) -> TableRow | None:
        with self._cursor() as cur:
            row = self._run(cur, "SELECT id, version, doc, turn, race, over, client, created, "
                            "updated FROM web_tables WHERE id = ?", (tid,)).fetchone()
        if row is None:
            return None
        return TableRow(row[0], int(row[1]), json.loads(row[2]), json.loads(row[3]), row[4],
                        bool(row[5]), row[6], float(row[7]), float(row[8]))

    def version(self, tid: str) -> int | None:
        """The table's version (None: no such table): one cheap read, asked before a
        table kept in memory is used."""
        with self._cursor() as cur:
            row = self._run(cur, "SELECT version FROM web_tables WHERE id = ?",
                            (tid,)).fetchone()
        return None if row is None else int(row[0])

    def commit(self, change: Change) -> int:
        """Write ``change`` in one transaction; its new version. :class:`Conflict` when the
        table's version or the race's ply is no longer the one it was computed from."""
        now = time.time()
        with self._cursor(write=True) as cur:
            sets = "version = version + 1, turn = ?, race = ?, over = ?, updated = ?"
            args: list[Any] = [_dump(change.turn), change.race, int(change.over), now]
            if change.doc is not None:
                sets += ", doc = ?"
                args.append(_dump(change.doc))
            done = self._run(cur, f"UPDATE web_tables SET {sets} WHERE id = ? AND version = ?",
                             (*args, change.table, change.expected))
            if done.rowcount != 1:
                raise Conflict(f"table {change.table} changed meanwhile")
            if change.new_race is not None:
                self._insert_race(cur, change.new_race)
            if change.lines or change.result is not None or change.undos is not None:
                ply = change.from_ply + len(change.lines)
                sets, args = "ply = ?, updated = ?", [ply, now]
                if change.result is not None:
                    sets += ", result = ?"
                    args.append(_dump(change.result))
                if change.undos is not None:
                    sets += ", undos = ?"
                    args.append(_dump(change.undos))
                done = self._run(cur, f"UPDATE races SET {sets} WHERE name = ? AND ply = ?",
                                 (*args, change.race, change.from_ply))
                if done.rowcount != 1:
                    raise Conflict(f"race {change.race} is no longer at ply {change.from_ply}")
                for ln in change.lines:
                    self._run(cur, "INSERT INTO moves (race, ply, line) VALUES (?, ?, ?)",
                              (change.race, int(ln["ply"]), _dump(ln)))
            self._notify(cur, f"{change.table}:{change.expected + 1}")
        return change.expected + 1

    def _notify(self, cur: Any, payload: str) -> None:
        """Tell the other server processes (PostgreSQL; one SQLite process has none)."""

    def listen(self, on_change: Callable[[str, int], None]) -> Callable[[], None]:
        """Call ``on_change(table, version)`` (in another thread) for every change another
        process commits; returns the function that stops listening. Nothing to hear with
        SQLite (one process)."""
        return lambda: None

    # races --------------------------------------------------------------------------------
    def race(self, name: str) -> RaceRow | None:
        with self._cursor() as cur:
            row = self._run(cur, "SELECT name, tbl, header, course, ply, result, undos, "
                            "created, updated FROM races WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        return RaceRow(row[0], row[1], json.loads(row[2]), row[3], int(row[4]),
                       None if row[5] is None else json.loads(row[5]), json.loads(row[6]),
                       float(row[7]), float(row[8]))

    def moves(self, name: str, after: int = 0) -> list[dict[str, Any]]:
        """The race's turn lines after ply ``after``, in order."""
        with self._cursor() as cur:
            rows = self._run(cur, "SELECT line FROM moves WHERE race = ? AND ply > ? "
                             "ORDER BY ply", (name, after)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def record_lines(self, name: str) -> list[dict[str, Any]] | None:
        """The race's game record (header, turns, the result once over) from its rows."""
        race = self.race(name)
        if race is None:
            return None
        lines = [race.header, *self.moves(name)]
        if race.result is not None:
            lines.append(race.result)
        return lines

    def races(self, limit: int = 200) -> list[RaceRow]:
        """The most recently changed races (without their turns)."""
        with self._cursor() as cur:
            rows = self._run(cur, "SELECT name, tbl, header, course, ply, result, undos, "
                             "created, updated FROM races ORDER BY updated DESC LIMIT ?",
                             (limit,)).fetchall()
        return [RaceRow(r[0], r[1], json.loads(r[2]), r[3], int(r[4]),
                        None if r[5] is None else json.loads(r[5]), json.loads(r[6]),
                        float(r[7]), float(r[8])) for r in rows]

    # uploads ------------------------------------------------------------------------------
    def put_upload(self, kind: str, name: str, body: str, client: str) -> bool:
        """Keep an upload (its name is its content's hash); True if it is new. One already
        kept is only marked as used now."""
        now = time.time()
        with self._cursor(write=True) as cur:
            old = self._run(cur, "UPDATE uploads SET used = ? WHERE kind = ? AND name = ?",
                            (now, kind, name))
            if old.rowcount == 1:
                return False
            self._run(cur, "INSERT INTO uploads (kind, name, body, size, client, created, "
                      "used) VALUES (?, ?, ?, ?, ?, ?, ?)",
                      (kind, name, body, len(body.encode("utf-8")), client, now, now))
        return True

    def upload(self, kind: str, name: str) -> str | None:
        with self._cursor() as cur:
            row = self._run(cur, "SELECT body FROM uploads WHERE kind = ? AND name = ?",
                            (kind, name)).fetchone()
        return None if row is None else str(row[0])

    def upload_names(self, kind: str) -> list[str]:
        with self._cursor() as cur:
            rows = self._run(cur, "SELECT name FROM uploads WHERE kind = ? ORDER BY used DESC",
                             (kind,)).fetchall()
        return [r[0] for r in rows]

    # quotas and retention -----------------------------------------------------------------
    def counts(self, client: str, since: float) -> dict[str, int]:
        """What the limits count: the tables whose race has not ended, in all and of
        ``client``; the tables and uploads ``client`` made since ``since``."""
        with self._cursor() as cur:
            running = self._run(cur, "SELECT COUNT(*) FROM web_tables WHERE over = 0"
                                ).fetchone()[0]
            mine = self._run(cur, "SELECT COUNT(*) FROM web_tables WHERE over = 0 AND "
                             "client = ?", (client,)).fetchone()[0]
            made = self._run(cur, "SELECT COUNT(*) FROM web_tables WHERE client = ? AND "
                             "created >= ?", (client, since)).fetchone()[0]
            uploads = self._run(cur, "SELECT COUNT(*) FROM uploads WHERE client = ? AND "
                                "created >= ?", (client, since)).fetchone()[0]
        return {"running": int(running), "running_mine": int(mine), "made": int(made),
                "uploads": int(uploads)}

    def sweep(self, now: float, ended_after: float, max_uploads: int,
              max_kept_races: int) -> dict[str, int]:
        """Retention: tables whose race ended and that have not changed for
        ``ended_after`` seconds are deleted (their races stay as records, without a
        table); races no table owns beyond the ``max_kept_races`` most recent are deleted
        with their turns; uploads of a kind beyond ``max_uploads`` are deleted, the least
        recently used first, except a course some kept race is played on. A table whose
        race has not ended is never deleted, nor any race of an existing table."""
        gone = {"tables": 0, "races": 0, "uploads": 0}
        with self._cursor(write=True) as cur:
            old = [r[0] for r in self._run(cur, "SELECT id FROM web_tables WHERE over = 1 "
                                           "AND updated < ?", (now - ended_after,)).fetchall()]
            for tid in old:
                self._run(cur, "UPDATE races SET tbl = NULL WHERE tbl = ?", (tid,))
                self._run(cur, "DELETE FROM web_tables WHERE id = ? AND over = 1", (tid,))
            gone["tables"] = len(old)
            loose = [r[0] for r in self._run(
                cur, "SELECT name FROM races WHERE tbl IS NULL OR tbl NOT IN "
                "(SELECT id FROM web_tables) ORDER BY updated DESC").fetchall()]
            for name in loose[max_kept_races:]:
                self._run(cur, "DELETE FROM moves WHERE race = ?", (name,))
                self._run(cur, "DELETE FROM races WHERE name = ?", (name,))
                gone["races"] += 1
            used = "".join(r[0] for r in self._run(cur, "SELECT course FROM races"
                                                   ).fetchall())
            for kind in ("course", "house", "variant", "record"):
                names = [r[0] for r in self._run(cur, "SELECT name FROM uploads WHERE kind = ? "
                                                 "ORDER BY used DESC", (kind,)).fetchall()]
                for name in names[max_uploads:]:
                    if kind == "course" and name in used:
                        continue
                    self._run(cur, "DELETE FROM uploads WHERE kind = ? AND name = ?",
                              (kind, name))
                    gone["uploads"] += 1
        return gone


class SQLiteStore(Store):
    """One SQLite file in WAL mode, every commit flushed to the disk (``synchronous=FULL``):
    two connections, each used by one thread at a time — one that writes, one that reads,
    so that reading a version or a view's rows never waits for a commit's flush."""

    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        fresh = not self.path.exists()
        try:
            if fresh:  # made private before anything is written into it
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
            os.chmod(self.path, 0o600)
            self.conn = sqlite3.connect(self.path, check_same_thread=False,
                                        isolation_level=None, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.reader = sqlite3.connect(self.path, check_same_thread=False,
                                          isolation_level=None, timeout=30)
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open the database {self.path.name}: {err}") from None
        self.lock = threading.Lock()
        self.read_lock = threading.Lock()
        self._create()
        for extra in ("-wal", "-shm"):  # the log beside it holds the same secrets
            side = self.path.with_name(self.path.name + extra)
            if side.exists():
                os.chmod(side, 0o600)

    def describe(self) -> str:
        return f"SQLite {sqlite3.sqlite_version} (WAL) in {self.path.name}"

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[Any]:
        if not write:  # WAL: a read sees every commit, and never waits for one
            with self.read_lock:
                cur = self.reader.cursor()
                try:
                    yield cur
                except sqlite3.Error as err:
                    raise StoreError(f"the database could not read it: {err}") from None
                finally:
                    cur.close()
            return
        with self.lock:
            cur = self.conn.cursor()
            try:
                if write:
                    cur.execute("BEGIN IMMEDIATE")
                try:
                    yield cur
                except BaseException:
                    if write:
                        self.conn.rollback()
                    raise
                if write:
                    cur.execute("COMMIT")
            except sqlite3.IntegrityError as err:
                raise Conflict(f"a turn at that ply is kept already ({err})") from None
            except sqlite3.Error as err:
                if self.conn.in_transaction:
                    self.conn.rollback()
                raise StoreError(f"the database could not keep it: {err}") from None
            finally:
                cur.close()

    def close(self) -> None:
        with self.lock, self.read_lock:
            self.conn.close()
            self.reader.close()


class PostgresStore(Store):
    """A PostgreSQL database shared by several server processes (psycopg 3): a small pool
    of connections for the worker threads, and one more that listens for the other
    processes' changes."""

    kind = "postgresql"
    param = "%s"

    def __init__(self, url: str, pool: int = 8) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError("serve --db postgresql://… needs psycopg 3: pip install "
                             "'avecaesar[postgres]' (or psycopg[binary])") from None
        self.url = url
        self.psycopg = psycopg
        self.pool: queue.LifoQueue[Any] = queue.LifoQueue()
        self.size = pool
        self.made = 0
        self.made_lock = threading.Lock()
        try:
            self._create()
        except psycopg.Error as err:
            raise StoreError(f"cannot use the database {self.describe()}: "
                             f"{str(err).strip()}") from None

    def describe(self) -> str:
        from urllib.parse import urlsplit

        u = urlsplit(self.url)
        return f"PostgreSQL at {u.hostname or 'localhost'}:{u.port or 5432}{u.path}"

    def _connect(self) -> Any:
        return self.psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    def _take(self) -> Any:
        try:
            return self.pool.get_nowait()
        except queue.Empty:
            pass
        with self.made_lock:
            if self.made < self.size:
                self.made += 1
                try:
                    return self._connect()
                except BaseException:
                    self.made -= 1
                    raise
        return self.pool.get(timeout=30)

    def _give(self, conn: Any) -> None:
        if conn.closed or conn.broken:
            with self.made_lock:
                self.made -= 1
            return
        self.pool.put(conn)

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[Any]:
        errors = self.psycopg.errors
        try:
            conn = self._take()
        except (self.psycopg.Error, queue.Empty) as err:
            raise StoreError(f"the database cannot be reached: {str(err).strip()}") from None
        try:
            if write:
                with conn.transaction(), conn.cursor() as cur:
                    yield cur
            else:
                with conn.cursor() as cur:
                    yield cur
        except errors.UniqueViolation as err:
            raise Conflict(f"a turn at that ply is kept already ({err.diag.message_primary})"
                           ) from None
        except self.psycopg.Error as err:
            raise StoreError(f"the database could not keep it: {str(err).strip()}") from None
        finally:
            self._give(conn)

    def _lock_schema(self, cur: Any) -> None:
        # concurrent CREATE TABLE IF NOT EXISTS may collide in PostgreSQL's catalog (a unique
        # violation): the schema is made under a lock held to the transaction's end
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _notify(self, cur: Any, payload: str) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    def listen(self, on_change: Callable[[str, int], None]) -> Callable[[], None]:
        stop = threading.Event()

        def loop() -> None:
            while not stop.is_set():
                try:
                    with self._connect() as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        while not stop.is_set():
                            for n in conn.notifies(timeout=0.5):
                                tid, _, v = n.payload.partition(":")
                                if v.isdigit():
                                    on_change(tid, int(v))
                except self.psycopg.Error:
                    stop.wait(0.5)  # the database restarts: listen again

        thread = threading.Thread(target=loop, name="avecaesar-listen", daemon=True)
        thread.start()

        def end() -> None:
            stop.set()
            thread.join(5)
        return end

    def close(self) -> None:
        while True:
            try:
                self.pool.get_nowait().close()
            except queue.Empty:
                return


def open_store(db: str | None, data: Path) -> Store:
    """The database ``serve --db`` names (a ``postgresql://`` URL, or a SQLite file),
    else ``DATA/tables.db``."""
    if db and db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    return SQLiteStore(Path(db) if db else data / "tables.db")
