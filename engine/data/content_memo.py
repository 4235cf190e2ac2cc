"""An in-process cache under the cache rule (issue 26): a value is kept with the digests of
the files computing it read (``safeio.reading``), and given back only while every one of
those files still has that content — never by the name of a file whose content may have
changed since (a long-running server, a notebook, the studio's simulations).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from avecaesar.engine.data.safeio import current_digest, reading

__all__ = ["ContentMemo"]

T = TypeVar("T")


class ContentMemo(Generic[T]):
    """At most ``size`` values, the least recently used dropped first. Threads may share
    one: its entries are looked up and stored under a lock (a value is computed outside it,
    so two threads may compute the same one; either is kept)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[dict[str, str], T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> tuple[T, dict[str, str]]:
        """The value for ``key`` and the digests of what it was computed from: kept if
        every file it read is unchanged, else computed (and kept unless a file was read
        twice with two contents). The working folder is part of the key: a relative path
        names another file in another folder."""
        key = (os.getcwd(), key)
        with self._lock:
            hit = self._entries.get(key)
        if hit is not None and all(current_digest(f) == d for f, d in hit[0].items()):
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
            return hit[1], hit[0]
        with reading() as log:
            value = compute()
        reads = dict(log.files)
        if not log.torn:
            with self._lock:
                self._entries[key] = (reads, value)
                self._entries.move_to_end(key)
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
        return value, reads

    def kept(self, key: Hashable, reads: dict[str, str]) -> T | None:
        """The value kept for ``key`` if it was computed from exactly ``reads`` (no file is
        read: a worker given its parent's digests uses the parent's value as it is)."""
        with self._lock:
            hit = self._entries.get((os.getcwd(), key))
        return hit[1] if hit is not None and hit[0] == reads else None

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
