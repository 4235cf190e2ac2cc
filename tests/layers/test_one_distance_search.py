"""The race-distance search is written once (issue 34): engine/course/race_distance.py's
``_search``, a breadth-first search over (space, finish crossings, alley stop made). The
course figures, the board, the view and the bots read its table; before, each wrote its own
search (race_path, view, the greedy bot's distances, the board's steps to the line), and a
rule change to laps or the alley window needed four edits.

A search is found with ``ast``: a ``while`` loop over a queue or frontier (a name the loop
tests and refills: ``.append``/``.popleft``, or a new value), whose body steps along a
successor or predecessor table, counts the finish line (crossings, laps) and asks about the
alley stop. A walk that follows the table (the route) refills no queue; a search over spaces
alone (the board's "an alley space is still ahead" table) asks no crossing and no stop.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
THE_ONE = ("course/race_distance.py", "_search")

# the words of each of the three things the loop's body must touch (identifier parts)
STEPS = re.compile(r"succ|pred|adj|neighbo")
CROSSINGS = re.compile(r"fin|cross|left|lap")
STOP = re.compile(r"alley|stop|window|counts")
REFILL = {"append", "appendleft", "extend", "popleft", "pop", "add"}


def _words(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id.lower())
        elif isinstance(n, ast.Attribute):
            out.add(n.attr.lower())
        elif isinstance(n, ast.arg):
            out.add(n.arg.lower())
    return out


def _refills(loop: ast.While) -> bool:
    """The loop tests a name that its body refills or replaces: a queue or a frontier."""
    tested = {n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)}
    for n in ast.walk(loop):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in REFILL and isinstance(n.func.value, ast.Name)
                and n.func.value.id in tested):
            return True
        if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in tested for t in n.targets):
            return True
    return False


def searches(root: Path) -> list[tuple[str, str]]:
    """(file, function) of every race-distance search under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for loop in ast.walk(fn):
                if not isinstance(loop, ast.While) or not _refills(loop):
                    continue
                words = _words(loop)
                if all(any(p.search(w) for w in words) for p in (STEPS, CROSSINGS, STOP)):
                    found.append((path.relative_to(root).as_posix(), fn.name))
                    break
    return found


def test_the_engine_has_one_distance_search() -> None:
    assert searches(ENGINE) == [THE_ONE]


# the view's search before issue 34, and race_path's (a parent map and a deque)
PLANTED_VIEW = '''
from collections import deque

def _search(board, start, left, lap, alley, alley_laps):
    begin = (start, 0, not alley)
    seen = {begin}
    queue = deque([(begin, 0)])
    while queue:
        (node, crossed, stopped), steps = queue.popleft()
        for nxt, fin in board.succ[node]:
            k = crossed + fin
            if k >= left:
                if stopped:
                    return steps + 1
                continue
            s = stopped or (board.alley[nxt] and lap + k in alley_laps)
            if (nxt, k, s) not in seen:
                seen.add((nxt, k, s))
                queue.append(((nxt, k, s), steps + 1))
    return None
'''
PLANTED_BOT = '''
def distances(board, pred, most, window, laps):
    dist, frontier, d = {}, [], 1
    while frontier:
        d += 1
        nxt = []
        for v, left2, s2 in frontier:
            for u, fin in pred.get(v, ()):
                here = board.alley[v] and (laps - left2 + 1) in window
                for s in ((True, False) if s2 and here else (s2,)):
                    if (u, left2 + fin, s) not in dist:
                        dist[(u, left2 + fin, s)] = d
                        nxt.append((u, left2 + fin, s))
        frontier = nxt
    return dist
'''


def test_a_second_search_planted_in_a_copy_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert searches(copy) == [THE_ONE]
    (copy / "core" / "planted_view.py").write_text(PLANTED_VIEW, encoding="utf-8")
    (copy / "bots" / "planted_bot.py").write_text(PLANTED_BOT, encoding="utf-8")
    assert searches(copy) == [("bots/planted_bot.py", "distances"),
                              ("core/planted_view.py", "_search"), THE_ONE]


def test_walks_and_searches_over_spaces_alone_are_not_counted(tmp_path: Path) -> None:
    """The route walk (it follows the table) and a search over spaces without crossings or
    the stop (the board's ``before_alley``) are not distance searches."""
    f = tmp_path / "m.py"
    f.write_text('''
def route(succ, stops, steps, left, todo):
    while todo:
        for v, fin in succ[0]:
            if stops[v] and left - fin:
                todo -= 1

def before_alley(pred, queue, before):
    while queue:
        x = queue.popleft()
        for u in pred.get(x, ()):
            if not before[u]:
                before[u] = True
                queue.append(u)
''', encoding="utf-8")
    assert searches(tmp_path) == []
