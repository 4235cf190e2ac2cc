"""SIGTERM and SIGHUP do what Ctrl-C does (issue 26).

While a command runs (:func:`stopping_like_ctrl_c`, entered by the error boundary), SIGINT,
SIGTERM and SIGHUP each raise :class:`Interrupted`, a ``KeyboardInterrupt``: every place
that keeps a partial result on Ctrl-C (``simulate``'s report, a tournament's finished races,
``play``'s record) keeps it on the other two as well, and the command exits 128 + the
signal's number (130, 143, 129) naming what stopped it (:func:`stopped_by`). A service
manager's stop (SIGTERM) or a closed terminal (SIGHUP) no longer loses the work done.

Only the main thread installs handlers (Python delivers signals there); the previous
handlers come back when the command ends. Worker processes put their own back
(engine/lab/simulate.py, ``_worker_init``). No heavy imports: the light paths use it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["HANDLED", "Interrupted", "stopped_by", "stopping_like_ctrl_c"]

HANDLED: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
NAMES = {int(signal.SIGINT): "Ctrl-C", int(signal.SIGTERM): "SIGTERM"}
if hasattr(signal, "SIGHUP"):
    NAMES[int(signal.SIGHUP)] = "SIGHUP"

_LAST: list[int] = []


class Interrupted(KeyboardInterrupt):
    """A signal that stops a command as Ctrl-C does."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(NAMES.get(signum, f"signal {signum}"))


def _raise(signum: int, _frame: FrameType | None) -> None:
    _LAST[:] = [signum]
    raise Interrupted(signum)


@contextmanager
def stopping_like_ctrl_c() -> Iterator[None]:
    """Within this block SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.getsignal(s) for s in HANDLED}
    _LAST.clear()
    for s in HANDLED:
        if old[s] != signal.SIG_IGN:  # `nohup` ignores SIGHUP: so do we
            signal.signal(s, _raise)
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def stopped_by() -> tuple[str, int]:
    """What stopped the command last (``Ctrl-C`` when no handled signal did: a
    ``KeyboardInterrupt`` of another origin) and the exit code for it, 128 + its number."""
    signum = _LAST[0] if _LAST else int(signal.SIGINT)
    return NAMES.get(signum, f"signal {signum}"), 128 + signum
