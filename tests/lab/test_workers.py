"""The worker processes of ``simulate`` (engine/lab/workers.py): every task's result comes
back once, a task's error is raised in the parent, a worker that dies is reported at once
instead of waited for, and no worker outlives the call, however it ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time

import pytest

from avecaesar.engine.lab.workers import WorkerLost, run_unordered

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork-based workers")
FORK = multiprocessing.get_context("fork")


def _nothing() -> None:
    pass


def _square(n: int) -> tuple[int, int, int]:
    return n, n * n, os.getpid()


def _fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is not allowed")
    return n


def _dies_on_two(n: int) -> int:
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return n


def _children() -> set[int]:
    return {p.pid for p in multiprocessing.active_children()}


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_every_task_once_on_several_processes(processes: int) -> None:
    got: list[tuple[int, int, int]] = []
    run_unordered(FORK, processes, _square, list(range(20)), got.append, _nothing)
    assert sorted((n, sq) for n, sq, _ in got) == [(n, n * n) for n in range(20)]
    assert len({pid for *_, pid in got}) == processes
    assert os.getpid() not in {pid for *_, pid in got}
    assert not _children()


def test_fewer_tasks_than_processes_starts_fewer_workers() -> None:
    got: list[tuple[int, int, int]] = []
    run_unordered(FORK, 4, _square, [5], got.append, _nothing)
    assert [(n, sq) for n, sq, _ in got] == [(5, 25)]
    run_unordered(FORK, 4, _square, [], got.append, _nothing)
    assert len(got) == 1 and not _children()


def test_a_tasks_error_is_raised_in_the_parent_and_the_workers_are_gone() -> None:
    with pytest.raises(ValueError, match="three is not allowed"):
        run_unordered(FORK, 2, _fails_on_three, list(range(8)), lambda _: None, _nothing)
    assert not _children()


class _Unpicklable(Exception):
    def __init__(self, n: int) -> None:
        super().__init__(f"task {n} failed")
        self.how = lambda: n  # a lambda does not pickle


class _MisfitArgs(Exception):
    def __init__(self, a: int, b: int) -> None:  # pickled args are (message,): loads fails
        super().__init__(f"{a} and {b}")


def _raises_unpicklable(n: int) -> int:
    raise _Unpicklable(n)


def _raises_misfit(n: int) -> int:
    raise _MisfitArgs(n, n + 1)


@pytest.mark.parametrize(("func", "message"), [
    (_raises_unpicklable, "_Unpicklable: task 0 failed"),
    (_raises_misfit, "_MisfitArgs: 0 and 1"),
])
def test_an_error_that_cannot_travel_arrives_as_its_name_and_message(func, message) -> None:
    with pytest.raises(RuntimeError) as err:
        run_unordered(FORK, 1, func, [0], lambda _: None, _nothing)
    assert str(err.value) == message
    assert not _children()

def test_a_worker_killed_mid_task_is_reported_not_waited_for() -> None:
    """``multiprocessing.Pool`` loses such a task and its ``imap`` waits for it for ever."""
    start = time.monotonic()
    with pytest.raises(WorkerLost, match="killed by signal 9") as err:
        run_unordered(FORK, 2, _dies_on_two, list(range(6)), lambda _: None, _nothing)
    assert time.monotonic() - start < 30
    assert isinstance(err.value, OSError) and "--workers 1" in str(err.value)
    assert not _children()


def test_an_exception_in_the_callback_stops_every_worker() -> None:
    def stop(_: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_unordered(FORK, 2, _square, list(range(50)), stop, _nothing)
    assert not _children()


def _sleep_long(_: int) -> int:
    time.sleep(60)
    return 0


def test_a_worker_stopped_by_sigterm_while_others_wait_ends_the_call() -> None:
    """The moment that hung ``Pool``: one worker idle (no task left for it), the other busy;
    both get a SIGTERM (as from a group signal, the parent here handles none)."""
    seen: list[int] = []

    def on_result(value: int) -> None:
        seen.append(value)
        for pid in _children():
            os.kill(pid, signal.SIGTERM)

    start = time.monotonic()
    with pytest.raises(WorkerLost, match="signal 15"):
        run_unordered(FORK, 2, _fails_or_sleeps, [0, 1], on_result, _nothing)
    assert seen == [0] and time.monotonic() - start < 30
    assert not _children()


def _fails_or_sleeps(n: int) -> int:
    return n if n == 0 else _sleep_long(n)
