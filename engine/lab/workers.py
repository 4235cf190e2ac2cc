"""Worker processes that share no lock with the parent: each has a pipe of its own.

``multiprocessing.Pool`` hands out its tasks through one queue whose read end is guarded by
a semaphore that the parent shares with every worker. A worker waiting for its next task
holds that semaphore; killed there (a SIGTERM sent to the whole process group: a service
manager's stop, ``kill -- -PGID``), it never gives it back, and the parent's
``Pool.terminate()`` — which takes the same semaphore before it kills anybody — then waits
for ever. A signal handler in the workers does not cure it: Python runs handlers in the main
thread only, and the kernel may deliver the signal to another thread of the worker.

Here the parent sends each worker one task at a time over the worker's own pipe and waits on
every pipe and every process's sentinel at once, so a worker that ends — by a signal or
otherwise — is seen at once, and stopping the workers is SIGKILL and ``join``: there is no
lock anybody could be holding.
"""

from __future__ import annotations

import errno
import pickle
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import DefaultContext, ForkContext
from typing import Generic, TypeVar

__all__ = ["WorkerLost", "run_unordered"]

#: what makes the workers: the fork context (Linux) or the platform's default
ProcessContext = ForkContext | DefaultContext
Task = TypeVar("Task")
Result = TypeVar("Result")


class WorkerLost(OSError):
    """A worker process ended before it sent its task's result (killed by a signal, by the
    system when out of memory, …). An ``OSError``: the machine, not the user's input."""

    def __init__(self, pid: int | None, exitcode: int | None) -> None:
        how = (f"killed by signal {-exitcode}" if exitcode is not None and exitcode < 0
               else f"exit code {exitcode}")
        super().__init__(errno.ECHILD, f"a worker process (pid {pid}) ended before its "
                         f"races were done ({how}); run again, or with --workers 1")


def _serve(conn: Connection, func: Callable[[Task], Result],
           init: Callable[..., None], initargs: tuple[object, ...]) -> None:
    """A worker's life: run each task the parent sends until it sends ``None`` or its pipe
    closes; an exception is sent back to be raised in the parent."""
    init(*initargs)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            answer: tuple[str, object] = ("ok", func(task))
        except Exception as exc:  # not swallowed: sent, and raised again in the parent
            answer = ("error", _portable(exc))
        conn.send(answer)


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives the trip to the parent, else a RuntimeError that says what it
    was: pickling fails with ``PicklingError`` or ``AttributeError`` (a lambda or a local
    class inside it), ``TypeError`` (an object that cannot be pickled, or an exception whose
    ``__init__`` its pickled ``args`` do not fit, met when loading)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except (pickle.PicklingError, AttributeError, TypeError):
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


class _Worker(Generic[Task, Result]):
    def __init__(self, context: ProcessContext, func: Callable[[Task], Result],
                 init: Callable[..., None], initargs: tuple[object, ...]) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, func, init, initargs),
                                       daemon=True)
        self.process.start()
        theirs.close()  # only the worker holds its end: its death closes the pipe

    def send(self, task: Task | None) -> None:
        try:
            self.conn.send(task)
        except OSError:  # its end is gone: it died
            raise self.lost() from None

    def lost(self) -> WorkerLost:
        self.process.join(1)
        return WorkerLost(self.process.pid, self.process.exitcode)

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def run_unordered(context: ProcessContext, processes: int, func: Callable[[Task], Result],
                  tasks: Sequence[Task], on_result: Callable[[Result], None],
                  init: Callable[..., None], initargs: tuple[object, ...] = ()) -> None:
    """Run ``func`` on every task in ``processes`` worker processes made by the fork ``context``
    (``init(*initargs)`` first in each) and call ``on_result`` in this process with each
    result, in the order they finish. A task's exception is raised here; a worker that
    ends without its result raises :class:`WorkerLost`. Whatever way this returns or
    raises (an exception in ``on_result``, a ``KeyboardInterrupt``), no worker is left:
    those still running are killed."""
    todo: deque[Task] = deque(tasks)
    workers: list[_Worker[Task, Result]] = []
    finished = False
    try:
        for _ in range(min(processes, len(todo))):
            workers.append(_Worker(context, func, init, initargs))
        busy = {w.conn: w for w in workers}
        for w in workers:
            w.send(todo.popleft())
        while busy:
            ready = set(wait([*busy, *(w.process.sentinel for w in busy.values())]))
            for conn, w in list(busy.items()):
                if conn in ready or w.process.sentinel in ready:
                    _take(w, busy, todo, on_result)
        finished = True
    finally:
        for w in workers:
            if finished and w.process.is_alive():
                try:
                    w.send(None)  # done: let it leave on its own
                    w.process.join(5)
                except WorkerLost:
                    pass
            w.kill()


def _take(w: _Worker[Task, Result], busy: dict[Connection, _Worker[Task, Result]],
          todo: deque[Task], on_result: Callable[[Result], None]) -> None:
    """Receive ``w``'s answer (or find it dead), give it the next task or let it go idle."""
    if not w.conn.poll():
        if w.process.is_alive():
            return
        raise w.lost()
    try:
        kind, value = w.conn.recv()
    except (EOFError, OSError):
        raise w.lost() from None
    if kind == "error":
        raise value
    if todo:
        w.send(todo.popleft())
    else:
        del busy[w.conn]
    on_result(value)
