"""Benchmark the course toolkit; prints its figures.

Times, on this machine:
- the library call that loads, checks and computes a course (read + compile both directions
  + checks + figures) on a generated ~200-space course and on the largest bundled course;
- the figures alone (shortest race per start place, the alley's cost, the outside race, the
  lap) of those two and of a generated ~1,000-space course, already loaded;
- the CLI `avecaesar course validate` on a generated ~1,000-space course, start-up included
  (wall time of a fresh process);
- `course render` of every bundled board (the board geometry, then the SVG; PNG and PDF
  through rsvg-convert), the largest bundled course's times printed, and the 1,000-space
  course's SVG.

Targets (issue 2): library call on 200 spaces < 100 ms; CLI on 1,000 spaces < 1 s wall;
(issue 37) the largest bundled course rendered < 2 s.

Run: .venv/bin/python bench/bench_course.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from avecaesar.editor.render.board import board_svg, render
from avecaesar.engine.course.load import (
    bundled_course_ids,
    bundled_courses,
    load_course,
    load_courses,
)
from avecaesar.engine.course.race_path import shortest_race_route


def straights(name: str, length: int, extra: str = "") -> str:
    """Straights of ``length`` spaces in all, as pieces of at most 60 (the course limit)."""
    out, k = [], 0
    while length > 0:
        part = min(length, 60)
        out.append(f"  - straight: {{name: {name}{'-' + str(k) if k else ''}, "
                   f"length: {part}{extra}}}\n")
        length -= part
        k += 1
    return "".join(out)


def oval(spaces_per_lane: int, lanes: int = 3) -> str:
    """A generated oval with about ``spaces_per_lane * lanes`` spaces, alley and chicane."""
    curve = max(4, spaces_per_lane // 10)
    straight = max(4, (spaces_per_lane - 2 * curve) // 2 - 4)
    lens = [curve + 2 * k for k in range(lanes)]
    back_end = straights("back-end", straight - straight // 2 - 1)
    return f"""name: Generated {spaces_per_lane}
lanes: {lanes}
track:
  - straight: {{name: home, length: 2}}
  - straight: {{name: pit, length: 3}}
{straights("run", straight - 5)}  - curve: {{name: north, turn: 180, lengths: {lens}}}
{straights("back", straight // 2, ", walls: [[0, 1]]")}  - chicane: {{name: neck, lane: 1}}
{back_end}  - curve: {{name: south, turn: 180, lengths: {lens}}}
  - straight: {{name: grid, length: 2}}
finish: {{before: home}}
start: [grid.0.1, grid.1.1, grid.2.1, grid.0.0, grid.1.0, grid.2.0]
alley: {{from: pit, to: pit, spaces: 4}}
"""


def timed(fn, repeat: int = 7) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def library_call(path: Path) -> int:
    n = 0
    for c in load_courses(path):
        c.figures()
        n = c.graph.number_of_nodes()
    return n


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "g200.yaml"
        small.write_text(oval(67))
        big = Path(tmp) / "g1000.yaml"
        big.write_text(oval(334))
        n_small = library_call(small)
        n_big = library_call(big)
        print(f"generated course: {n_small} spaces — library load+check+figures: "
              f"{timed(lambda: library_call(small)) * 1000:.1f} ms (median of 7; target < 100 ms)")
        courses = bundled_courses()
        if courses:
            largest = max(courses.values(), key=lambda p: library_call(p))
            n = library_call(largest)
            print(f"largest bundled course {largest.name}: {n} spaces — library call: "
                  f"{timed(lambda: library_call(largest)) * 1000:.1f} ms")
            render_all()
            c = load_course(str(largest))
            route = shortest_race_route(c.graph, 1)
            for fmt in ("svg", "png", "pdf"):
                took = timed(lambda f=fmt: render(board_svg(c.graph, route=route, numbers=True),
                                                  f), 5)
                print(f"render {largest.name} ({n} spaces, the shortest race, numbers) to "
                      f"{fmt.upper()}: {took:.3f} s (median of 5; target < 2 s)")
        measured = [("generated", small), ("generated", big)]
        if courses:
            measured.insert(1, ("largest bundled", largest))
        for label, path in measured:
            loaded = load_courses(path)
            ms = timed(lambda: [c.figures() for c in loaded]) * 1000  # noqa: B023
            print(f"figures alone ({label}, {loaded[0].graph.number_of_nodes()} spaces, "
                  f"{len(loaded)} direction(s)): {ms:.1f} ms (median of 7)")
        cli = [sys.executable, "-m", "avecaesar.editor", "course", "validate", str(big)]
        wall = timed(lambda: subprocess.run(cli, capture_output=True, check=False), 5)
        print(f"generated course: {n_big} spaces — CLI `course validate` wall time incl. "
              f"start-up: {wall:.3f} s (median of 5; target < 1 s)")
        big_graph = load_course(str(big)).graph
        print(f"render {n_big}-space course to SVG: "
              f"{timed(lambda: board_svg(big_graph), 3):.3f} s")


def render_all() -> None:
    """Every bundled board drawn as SVG and PNG, as ``course render`` does."""
    t0 = time.perf_counter()
    ids = bundled_course_ids()
    for cid in ids:
        g = load_course(cid).graph
        svg = board_svg(g, route=shortest_race_route(g, 1), numbers=True)
        assert svg.count("data-space=") == g.number_of_nodes(), cid
        assert render(svg, "png")[:4] == b"\x89PNG", cid
    print(f"every bundled board rendered ({len(ids)} boards, SVG and PNG): "
          f"{time.perf_counter() - t0:.2f} s in all")


if __name__ == "__main__":
    main()
