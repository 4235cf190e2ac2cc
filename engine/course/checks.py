"""Semantic checks of a compiled course: every problem, each pointing into the file."""

from __future__ import annotations

import math
from dataclasses import replace

import networkx as nx

from avecaesar.engine.course.checking import Compiled, CourseCheck
from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.course.layout import SPACE, Layout
from avecaesar.engine.course.model import CourseModel, Where
from avecaesar.engine.course.race_path import first_crossing, lap_length, shortest_race
from avecaesar.engine.data.errors import Problem

__all__ = ["CHECKS", "Compiled", "CourseCheck", "check_graph", "check_layout",
           "rule_problems"]


def _finish_line(c: Compiled) -> list[Problem]:
    if c.crossing:
        return []
    return [c.finish.problem(f"no step crosses the finish line{c.tag} — put 'before' on a "
                             "piece the track passes through")]


def _dead_ends(c: Compiled) -> list[Problem]:
    if not c.dead:
        return []
    return c.grouped(c.dead, "dead end" + c.tag + ": no step leads on from {spaces} — "
                     "continue the lane in the next piece or remove these spaces")


def _unreachable(c: Compiled) -> list[Problem]:
    starts = c.g.graph["start_places"]
    if not starts:
        return []
    reach: set[int] = set(starts)
    for s in starts:
        reach |= nx.descendants(c.g, s)
    unreached = set(c.g.nodes) - reach
    if not unreached:
        return []
    return c.grouped(unreached, "no step reaches {spaces}" + c.tag + " from any start place "
                     "— connect the lane to the previous piece, or remove the spaces")


def _line_unreachable(c: Compiled) -> list[Problem]:
    if not c.crossing:
        return []
    tails = {u for u, _ in c.crossing}
    can = set(tails)
    for t in tails:
        can |= nx.ancestors(c.g, t)
    stuck = set(c.g.nodes) - can - c.dead
    if not stuck:
        return []
    return c.grouped(stuck, "from {spaces}" + c.tag + " the finish line cannot be reached — "
                     "these lanes lead nowhere; join them to the track")


def _lap_closes(c: Compiled) -> list[Problem]:
    if not c.crossing or lap_length(c.g) is not None:
        return []
    return [c.finish.problem(f"the lap does not close{c.tag}: no route comes back over the "
                             "finish line — check that the last piece joins the first")]


def _line_cuts_loop(c: Compiled) -> list[Problem]:
    g = c.g
    no_line = nx.DiGraph()
    no_line.add_nodes_from(g)
    no_line.add_edges_from((u, v) for u, v, f in g.edges(data="finish") if not f)
    if nx.is_directed_acyclic_graph(no_line):  # fast; the cycle is looked for only if any
        return []
    try:
        cycle = nx.find_cycle(no_line)
    except nx.NetworkXNoCycle:
        return []
    label = g.nodes[cycle[0][0]]["label"]
    return [c.finish.problem(f"the finish line does not cut the loop{c.tag}: a route through "
                             f"{label} laps without crossing it — make the line span every "
                             "lane")]


def _alley_joined(c: Compiled) -> list[Problem]:
    if not c.g.graph.get("alley"):
        return []
    aw = Where(c.model.source, ("alley",))
    edges = list(c.g.edges(data="alley"))
    out = []
    if not any(a == "enter" for _u, _v, a in edges):
        out.append(aw.problem(
            f"the alley is not entered from the track{c.tag}: no track space steps into its "
            "first space — put it beside a lane that exists just before it ('side')"))
    if not any(a == "exit" for _u, _v, a in edges):
        out.append(aw.problem(
            f"the alley does not rejoin the track{c.tag}: its last space has no step back "
            "— make sure a lane continues beside its end"))
    return out


def _alley_shortcut_check(c: Compiled) -> list[Problem]:
    alley = c.g.graph.get("alley") or []
    return _alley_shortcut(c.model, c.g, alley) if alley else []


CHECKS: tuple[CourseCheck, ...] = (
    CourseCheck("finish-line", "some step crosses the finish line", _finish_line),
    CourseCheck("dead-ends", "every space has a step that leads on", _dead_ends),
    CourseCheck("reachable", "every space is reached from a start place", _unreachable),
    CourseCheck("line-reachable", "the finish line is reached from every space",
                _line_unreachable),
    CourseCheck("lap-closes", "a route comes back over the finish line", _lap_closes),
    CourseCheck("line-cuts-loop", "no route laps without crossing the line", _line_cuts_loop),
    CourseCheck("alley-joined", "the alley is entered from the track and rejoins it",
                _alley_joined),
    CourseCheck("alley-shortcut", "the alley is no shorter than the lane beside it "
                "(a warning)", _alley_shortcut_check),
)
"""The structural checks, in the order their problems are reported. Adding a check is one
function ``(Compiled) -> list[Problem]`` and one line here (docs/architecture.md,
"Extension points"); a test checks each is documented and covered."""


def check_graph(model: CourseModel, g: nx.DiGraph, direction_note: str = "") -> list[Problem]:
    """Structural problems of the lane graph ``g`` compiled from ``model``: every
    registered check's (:data:`CHECKS`)."""
    compiled = Compiled(model, g, f" ({direction_note})" if direction_note else "")
    return [p for check in CHECKS for p in check.run(compiled)]


def _alley_shortcut(model: CourseModel, g: nx.DiGraph, alley: list[int]) -> list[Problem]:
    """A warning when the alley has fewer spaces than the track lane beside it: driving
    through it would then be a shortcut every lap."""
    lane = g.nodes[alley[0]]["lane"]
    beside_lane = 0 if lane < 0 else model.lanes - 1
    # measured from the alley's first space in driving order, modulo the lap: the alley may
    # span the finish line (the wrap of the positions)
    period = g.graph["period"]
    first = min(alley, key=lambda n: (g.nodes[n]["a"] - g.nodes[alley[0]]["a"]) % period
                if any(d == "enter" for _u, _v, d in g.in_edges(n, data="alley")) else period)
    lo = g.nodes[first]["a"]
    span = sum(g.nodes[n]["b"] - g.nodes[n]["a"] for n in alley)
    beside = [n for n, d in g.nodes(data=True) if d["kind"] == "track"
              and d["lane"] == beside_lane
              and (d["a"] - lo) % period + (d["b"] - d["a"]) <= span + 1e-9
              and (d["a"] - lo) % period < span - 1e-9]
    if len(beside) > len(alley):
        spec = model.alley
        names = [p.name for p in model.pieces]
        wraps = (spec is not None and spec.first in names and spec.last in names
                 and names.index(spec.last) < names.index(spec.first))
        hint = (f"; it runs from {spec.first!r} over the start of the track to {spec.last!r} "
                f"— if you meant the alley from {spec.last!r} to {spec.first!r}, swap 'from' "
                "and 'to'" if wraps and spec is not None else "")
        return [Where(model.source, ("alley",)).problem(
            f"the alley has {len(alley)} spaces beside {len(beside)} track spaces: driving "
            f"through it saves {len(beside) - len(alley)} a lap — give it at least "
            f"{len(beside)} spaces if it is not meant as a shortcut{hint}", "spaces",
            severity="warning")]
    return []


def check_layout(model: CourseModel) -> list[Problem]:
    """Warnings about the drawing: the pieces should close into a loop."""
    layout = Layout([p.lengths for p in model.pieces], [p.turn for p in model.pieces],
                    model.lanes)
    gap = layout.closure_gap()
    total = sum(p.turn for p in model.pieces)
    if gap > SPACE * 0.75:
        return [Where(model.source, ("track",)).problem(
            f"the drawing does not close: the last piece ends {gap / SPACE:.1f} spaces from "
            f"where the first begins (turns add up to {total:g}°) — "
            f"{_closing_hint(model, layout)}", severity="warning")]
    return []


def _closing_hint(model: CourseModel, layout: Layout) -> str:
    """What closes the drawing: a straight one space longer moves every later piece one
    space along it, so the gap is closed by straights that run along it, lengthened (those
    pointing the way the gap goes) or shortened (those pointing the other way)."""
    x, y, _heading = layout.end
    gx, gy = -x / SPACE, -y / SPACE  # from where the track ends to where it began, in spaces
    more: list[str] = []
    fewer: list[str] = []
    for piece, pose in zip(model.pieces, layout.poses, strict=True):
        if piece.kind not in ("straight", "chicane") or pose.turn:
            continue
        ux, uy = math.cos(pose.heading), math.sin(pose.heading)
        along, across = gx * ux + gy * uy, gx * uy - gy * ux
        if abs(across) < 0.5 and abs(along) >= 0.5:
            (more if along > 0 else fewer).append(piece.name)
    k = round(math.hypot(gx, gy))
    if not (more or fewer) or abs(math.hypot(gx, gy) - k) > 0.25:
        return "adjust lengths or turns so the board is a loop"
    spaces = f"{k} space{'s' if k != 1 else ''}"
    ways = []
    if more:
        ways.append(f"give the straight along {more[0]!r} ({_either(more)}) {spaces} more")
    if fewer:
        ways.append(f"{'or ' if more else ''}give the one along {fewer[0]!r} "
                    f"({_either(fewer)}) {spaces} fewer")
    return ", ".join(ways) + ": the same length on both sides closes the loop"


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


#: a start grid is at most this many rows deep (some bundled boards have three rows of two)
GRID_ROWS = 3


def rule_problems(model: CourseModel, g: nx.DiGraph, rules: RaceFigures,
                  races: list[int | None]) -> list[Problem]:
    """Problems that depend on the rules the course is checked under (``rules``) and on its
    shortest legal races from each start place (``races``):

    - the rules require the alley stop, but the course has no alley, or a start place can
      finish only without stopping in it (its alley cannot be stopped in during the laps
      that count) — errors;
    - a start place that is not in the grid right behind the finish line — a warning that
      names what it costs (the designer may mean it, but it silently changes the race).
    """
    problems: list[Problem] = []
    alley = g.graph.get("alley") or []
    laps = " or ".join(str(x) for x in rules.alley_laps)
    if rules.alley_required and not alley:
        problems.append(Where(model.source, ()).problem(
            f"the course has no Imperial alley, but the rules ({rules.source}) require the "
            f"alley stop during lap {laps}: every chariot would be disqualified — add "
            "'alley: {from: PIECE, to: PIECE, spaces: N}'"))
    elif rules.alley_required:
        plain = shortest_race(g, replace(rules, alley_required=False))
        stuck = [i + 1 for i, (r, p) in enumerate(zip(races, plain, strict=True))
                 if r is None and p is not None]
        if stuck:
            problems.append(Where(model.source, ("alley",)).problem(
                f"from start place {', '.join(map(str, stuck))} the alley cannot be stopped "
                f"in during lap {laps} ({rules.source}), so no legal race finishes — put the "
                "alley where the track passes it in those laps"))
    starts = g.graph["start_places"]
    for i, s in enumerate(starts):
        steps = first_crossing(g, s)
        if steps is not None and steps <= GRID_ROWS:
            continue
        label = g.nodes[s]["label"]
        at_line = _race_from_the_line(g, s, rules)
        race = races[i]
        cost = ("" if race is None or at_line is None else
                f": its shortest race is {race}, against {at_line} from the same lane "
                f"right behind the line ({race - at_line:+d})")
        where = (steps and f"{steps} steps before the finish line") or "not behind the line"
        problems.append(Where(model.source, ("start", i)).problem(
            f"start place {i + 1} ({label}) is {where}, not in the grid right behind it"
            f"{cost} — move it behind the line unless that is meant", severity="warning"))
    return problems


def _race_from_the_line(g: nx.DiGraph, start: int, rules: RaceFigures) -> int | None:
    """The shortest race from the space right behind the finish line in ``start``'s lane
    (None when that lane does not reach the line)."""
    lane = g.nodes[start]["lane"]
    behind = sorted(u for u, _v, f in g.edges(data="finish")
                    if f and g.nodes[u]["lane"] == lane and g.nodes[u]["kind"] == "track")
    if not behind:
        return None
    h = g.copy()
    h.graph["start_places"], h.graph["start_crossings"] = [behind[0]], [1]
    return shortest_race(h, rules)[0]
