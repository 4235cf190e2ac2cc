"""The Course studio's generator: boards to a brief, found while the page watches.

``POST /api/studio/generate`` reads a brief's text as ``course generate`` does
(:func:`~avecaesar.engine.lab.brief.read_brief`: every problem ``brief.yaml:line:col``, a
400) and starts its search (:class:`~avecaesar.engine.lab.generate.Search`) in a worker
thread, bounded (at most :data:`MAX_COUNT` boards, :data:`MAX_MINUTES` minutes,
:data:`MAX_TRIES` designs; one search at a time per server, a second is a 429). The
search's progress callback keeps a snapshot of the boards found so far; ``GET
/api/studio/generate/ID`` answers it — the progress, each board drawn with its figures and
its course text (what ``course generate`` would write) — and ``POST …/ID/stop`` stops the
search as Ctrl-C stops the command: the boards found are kept. Nothing is written to disk.
With a balance target the boards found are then raced as ``course generate`` races them
(engine/lab/generate_balance.py: fresh seeded races, in this thread, ``count`` boards at a
time, at most four times ``count``), and only those within the target are kept.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from avecaesar.editor.render.board_svg import board_svg
from avecaesar.editor.table.messages import say
from avecaesar.editor.web.limits import TooMany
from avecaesar.editor.web.requests import field as body_field
from avecaesar.editor.web.requests import json_body
from avecaesar.editor.web.storage import BadRequest
from avecaesar.engine.data.paths import COURSES_DIR
from avecaesar.engine.lab.brief import Brief
from avecaesar.engine.lab.generate import Board, Search

__all__ = ["MAX_COUNT", "MAX_MINUTES", "MAX_TRIES", "generate_routes"]

MAX_COUNT = 8  # boards a studio search finds at most …
MAX_MINUTES = 2.0  # … within this long …
MAX_TRIES = 4000  # … trying at most this many designs
RACE_MINUTES = 2.0  # a balance target's races stop after this long (the boards judged kept)
MAX_BRIEF_BYTES = 16_384
KEEP_SEARCHES = 8  # finished searches kept to be read (the oldest forgotten first)
_FILE = "brief.yaml"


class _Stopped(Exception):
    """Raised in the search's thread by its progress callback when the page stops it."""


class _OutOfTime(Exception):
    """Raised in the balance races' progress callback after :data:`RACE_MINUTES`."""


@dataclass
class _Job:
    """One search and what the page may read of it (under ``lock``)."""

    id: str
    search: Search
    brief: Brief
    seed: int
    minutes: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    boards: list[Board] = field(default_factory=list)
    done: bool = False
    stopped: bool = False
    failed: str | None = None
    unmet: list[str] = field(default_factory=list)
    drawn: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)  # by board hash
    races: int = 0
    racing: bool = False
    out_of_time: bool = False

    def run(self) -> None:
        """The search (in its own thread); a snapshot of the boards whenever one is found."""
        seen = [-1]

        def on_progress(p: Any) -> None:
            if self.stop.is_set():
                raise _Stopped
            if p.found != seen[0]:
                seen[0] = p.found
                boards = self.search.boards()
                with self.lock:
                    self.boards = boards

        boards = None
        try:
            self.search.run(self.minutes, on_progress)
            if self.brief.balance is not None:
                boards = self._balanced()
        except _Stopped:
            self.stopped = True
        except Exception as err:  # shown to the page: never a thread lost unheard
            self.failed = f"{type(err).__name__}: {err}"
        self._finish(boards)

    def _balanced(self) -> list[Board]:
        """The boards found that meet the balance target on fresh races (as ``course
        generate`` races them), ``count`` at a time, at most four times ``count``."""
        import tempfile
        from functools import partial

        from avecaesar.engine.lab.generate_balance import verify_balance
        from avecaesar.engine.lab.generate_out import board_text

        balance, count = self.brief.balance, self.search.count
        assert balance is not None
        candidates = self.search.boards(limit=4 * count)
        kept: list[Board] = []
        self.racing = True

        deadline = time.monotonic() + 60 * RACE_MINUTES

        def on_races(done: int, before: int) -> None:
            if self.stop.is_set():
                raise _Stopped
            if time.monotonic() > deadline:
                raise _OutOfTime
            self.races = before + done

        with tempfile.TemporaryDirectory(prefix="avecaesar-studio-") as tmp:
            for start in range(0, len(candidates), count):
                if len(kept) >= count:
                    break
                chunk = candidates[start:start + count]
                files = []
                for i, board in enumerate(chunk, start + 1):
                    target = Path(tmp) / f"candidate-{i}.yaml"
                    target.write_text(board_text(board, self.brief, self.seed, i, target),
                                      encoding="utf-8")
                    files.append(str(target))
                before = self.races
                try:
                    verified = verify_balance(files, self.brief.ruleset, balance, self.seed,
                                              1, None, partial(on_races, before=before))
                except _OutOfTime:  # the boards judged so far stand; no board on part of its
                    self.out_of_time = True  # races
                    break
                for board, check in zip(chunk, verified, strict=True):
                    self.checks[board.hash] = check.to_json()
                    if check.met and len(kept) < count:
                        kept.append(board)
        return kept

    def _finish(self, balanced: list[Board] | None) -> None:
        from avecaesar.engine.lab.generate import explain

        boards = self.search.boards() if balanced is None else balanced
        unmet = explain(self.search) if self.search.progress.found < self.search.count \
            else []
        if balanced is not None and len(balanced) < self.search.count and self.checks:
            best = min(self.checks.values(), key=lambda c: float(c["spread_pp"]))
            b = self.brief.balance
            assert b is not None
            unmet.append(f"balance ({self.brief.where('balance', 'spread_max')}): the most "
                         f"even of the {len(self.checks)} boards raced has a spread of "
                         f"{best['spread_pp']:.1f} pp on {best['races']} races, "
                         f"{best['spread_pp'] - b.spread_max:.1f} pp more than "
                         f"{b.spread_max:g}")
        if self.out_of_time:
            unmet.append(f"balance: the races stopped after {RACE_MINUTES:g} minutes with "
                         f"{len(self.checks)} board(s) raced — `course generate` races on")
        with self.lock:
            self.boards, self.unmet, self.done = boards, unmet, True


@dataclass
class _Searches:
    """The server's studio searches (kept on ``app.state``), the newest last."""

    jobs: dict[str, _Job] = field(default_factory=dict)

    def running(self) -> int:
        return sum(not j.done for j in self.jobs.values())

    def add(self, job: _Job) -> None:
        self.jobs[job.id] = job
        for old in [k for k, j in self.jobs.items() if j.done][:-KEEP_SEARCHES]:
            del self.jobs[old]
        threading.Thread(target=job.run, name=f"studio-generate-{job.id}",
                         daemon=True).start()


def _searches(request: Request) -> _Searches:
    state = request.app.state
    found = getattr(state, "studio_searches", None)
    if found is None:
        found = state.studio_searches = _Searches()
    assert isinstance(found, _Searches)
    return found


def _bounded(data: dict[str, Any], key: str, kind: type, default: Any, low: float,
             high: float, message: str) -> Any:
    value = body_field(data, key, (int, float) if kind is float else kind, default)
    if not low <= value <= high:
        raise BadRequest(say(message, low=low, high=high))
    return kind(value)


def _job(data: dict[str, Any]) -> _Job:
    """The search the request asks for: its brief read and checked (an InputError or
    UsageError, located, when it is not one) and its bounds."""
    from avecaesar.engine.lab.brief import brief_rules, read_brief
    from avecaesar.engine.lab.generate_keep import kept_parts

    text: str = body_field(data, "brief", str)
    if len(text.encode("utf-8")) > MAX_BRIEF_BYTES:
        raise BadRequest(say("api_brief_over", most=MAX_BRIEF_BYTES), 413)
    count = _bounded(data, "count", int, 4, 1, MAX_COUNT, "api_gen_count")
    minutes = _bounded(data, "minutes", float, 1.0, 0.01, MAX_MINUTES, "api_gen_minutes")
    tries = _bounded(data, "tries", int, MAX_TRIES, 1, MAX_TRIES, "api_gen_tries")
    seed = _bounded(data, "seed", int, 1, 0, 2**31 - 1, "api_gen_seed")
    brief = read_brief(_FILE, text=text)
    rules = brief_rules(brief)
    search = Search(brief, rules, count=count, seed=seed, max_tries=tries,
                    path="generated.yaml", kept=kept_parts(brief, None))
    return _Job(secrets.token_hex(8), search, brief, seed, minutes)


async def start(request: Request) -> Response:
    """Start a search for boards to the brief's text; its id to poll."""
    data = await json_body(request, MAX_BRIEF_BYTES + 4096)
    searches = _searches(request)
    if searches.running():
        raise TooMany(say("api_gen_busy"), 429, retry=5)
    job = await run_in_threadpool(_job, data)
    searches.add(job)
    return JSONResponse({"id": job.id, "count": job.search.count, "minutes": job.minutes,
                         "balance": job.brief.balance is not None,
                         "impossible": job.search.impossible()})


def _drawn(job: _Job, board: Board, index: int) -> dict[str, Any]:
    """A board as the page shows it: drawn, its figures and its course text."""
    from avecaesar.engine.lab.generate_out import board_file, board_row, board_text

    key = (board.hash, index)
    with job.lock:
        known = job.drawn.get(key)
    if known is not None:
        return known
    file = board_file(job.brief, index)
    target = COURSES_DIR / "generated" / file  # as if saved among the courses
    row = board_row(board, file)
    row.update({"index": index, "name": f"{job.brief.name} {index}",
                "ruleset": job.brief.ruleset,
                "svg": board_svg(board.course.graph),
                "text": board_text(board, job.brief, job.seed, index, Path(target))})
    with job.lock:
        job.drawn[key] = row
    return row


def _view(job: _Job, have: set[str]) -> dict[str, Any]:
    with job.lock:
        boards, done, unmet = list(job.boards), job.done, list(job.unmet)
    p = job.search.progress
    rows = []
    for i, board in enumerate(boards, 1):
        row = dict(_drawn(job, board, i))
        row["key"] = f"{board.hash}:{i}"
        row["balance"] = job.checks.get(board.hash)
        if row["key"] in have:  # the page has its drawing and text already
            row.pop("svg")
            row.pop("text")
        rows.append(row)
    return {"id": job.id, "done": done, "stopped": job.stopped, "failed": job.failed,
            "count": job.search.count, "racing": job.racing and not done, "races": job.races,
            "progress": {"tried": p.tried, "compiled": p.compiled, "found": p.found,
                         "cells": p.cells, "cells_total": p.cells_total,
                         "seconds": round(p.seconds, 1)},
            "boards": rows, "unmet": unmet}


def _find(request: Request) -> _Job:
    job = _searches(request).jobs.get(request.path_params["job"])
    if job is None:
        raise BadRequest(say("api_gen_unknown"), 404)
    return job


async def poll(request: Request) -> Response:
    """Where the search stands: the boards found so far (drawn and their text once; the
    ``have`` keys the page already shows come without them)."""
    job = _find(request)
    have = set(request.query_params.get("have", "").split(",")[:MAX_COUNT]) - {""}
    return JSONResponse(await run_in_threadpool(_view, job, have))


async def stop(request: Request) -> Response:
    """Stop the search as Ctrl-C stops ``course generate``: the boards found are kept."""
    job = _find(request)
    job.stop.set()
    deadline = time.monotonic() + 10
    while not job.done and time.monotonic() < deadline:
        await _sleep(0.05)
    return JSONResponse(await run_in_threadpool(_view, job, set()))


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


def generate_routes() -> list[Route]:
    return [Route("/api/studio/generate", start, methods=["POST"]),
            Route("/api/studio/generate/{job}", poll),
            Route("/api/studio/generate/{job}/stop", stop, methods=["POST"])]
