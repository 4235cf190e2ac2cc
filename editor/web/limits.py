"""What the web table accepts and keeps at most, per client (its address) and in total.

A limit reached is answered with a status and a sentence that says what to do, never a 500:
**429** when one client asks too much (wait, or end a table first; ``Retry-After`` says
how long), **507** when the server itself is full (its disk, or the tables it keeps). A
WebSocket over a limit is closed with code 1013 ("try again later") and the same sentence.

The numbers are documented in docs/web.md ("Who may do what, and the limits"); ``serve
--limit KEY=VALUE`` changes one (a server for a club, a benchmark).
"""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass
from pathlib import Path

from avecaesar.editor.web.storage import BadRequest

__all__ = ["Limits", "TooMany"]


class TooMany(BadRequest):
    """A limit reached: 429 (this client) or 507 (the server), with ``retry`` seconds to
    wait when waiting helps."""

    def __init__(self, message: str, status: int = 429, retry: int | None = None) -> None:
        super().__init__(message, status)
        self.retry = retry


@dataclass(frozen=True)
class Limits:
    #: tables whose race has not ended that one client may have open
    tables_per_client: int = 40
    #: tables one client may set up per window
    new_tables: int = 40
    #: uploads (courses, rules files, records) one client may send per window
    uploads: int = 120
    #: the window of the two counts above (seconds)
    window: float = 600.0
    #: tables whose race has not ended, in all (none of them is ever deleted)
    running_tables: int = 5000
    #: live connections (WebSockets) on one table, of one client, in all
    sockets_per_table: int = 64
    sockets_per_client: int = 64
    sockets: int = 2000
    #: free space the data folder's disk must keep for a new table or upload (bytes)
    min_free_bytes: int = 64 * 1024 * 1024
    #: uploads of each kind kept (the least recently used go first, never a course a kept
    #: race is played on)
    max_uploads: int = 200
    #: races that no table owns any more (records) kept, the most recent first
    kept_races: int = 10_000
    #: a table whose race has ended is deleted after this long without a change (seconds);
    #: its races stay as records
    ended_after: float = 30 * 86400.0
    #: the time an upload or a resumed record may take to be read and checked (seconds)
    parse_seconds: float = 10.0

    @classmethod
    def parse(cls, items: list[str]) -> Limits:
        """``KEY=VALUE`` items (``serve --limit``) over the defaults."""
        names = {f.name: f for f in dataclasses.fields(cls)}
        changes: dict[str, float | int] = {}
        for item in items:
            key, sep, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in names:
                raise BadRequest(f"--limit {item!r}: give KEY=VALUE with KEY one of "
                                 f"{', '.join(n.replace('_', '-') for n in names)}")
            try:
                changes[key] = float(value) if names[key].type == "float" else int(value)
            except ValueError:
                raise BadRequest(f"--limit {item!r}: {value!r} is not a number") from None
        return dataclasses.replace(cls(), **changes)  # type: ignore[arg-type]

    def check_disk(self, folder: Path) -> None:
        """507 when the data folder's disk is nearly full."""
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            return
        if free < self.min_free_bytes:
            raise TooMany(f"the server's disk is nearly full ({free // 2**20} MiB free): it "
                          "takes no new table or upload until space is freed", 507)

    def check_new_table(self, counts: dict[str, int]) -> None:
        if counts["running"] >= self.running_tables:
            raise TooMany(f"the server keeps {counts['running']} tables whose race has not "
                          "ended, its most: it takes a new one when one of them ends", 507)
        if counts["running_mine"] >= self.tables_per_client:
            raise TooMany(f"you have {counts['running_mine']} tables whose race has not "
                          "ended: finish one first", 429)
        if counts["made"] >= self.new_tables:
            raise TooMany(f"you set up {counts['made']} tables in the last "
                          f"{int(self.window // 60)} minutes: wait a few minutes",
                          429, retry=int(self.window // 4))

    def check_upload(self, counts: dict[str, int]) -> None:
        if counts["uploads"] >= self.uploads:
            raise TooMany(f"you uploaded {counts['uploads']} files in the last "
                          f"{int(self.window // 60)} minutes: wait a few minutes",
                          429, retry=int(self.window // 4))
