"""Semantic checks of a compiled course: every problem, each pointing into the file."""

from __future__ import annotations

import networkx as nx

from avecaesar.engine.course_layout import SPACE
from avecaesar.engine.course_model import CourseModel, Where
from avecaesar.engine.race_path import lap_length
from avecaesar.errors import Problem

__all__ = ["check_graph"]


def _where_piece(model: CourseModel, piece: str) -> Where:
    for p in model.pieces:
        if p.name == piece:
            return p.where
    return Where(model.source, ("track",))


def _grouped(model: CourseModel, g: nx.DiGraph, nodes: set[int], message: str,
             kind: str = "") -> list[Problem]:
    """One problem per piece, listing its affected spaces."""
    by_piece: dict[str, list[str]] = {}
    for n in sorted(nodes):
        d = g.nodes[n]
        key = "alley" if d["kind"] == "alley" else d["piece"]
        by_piece.setdefault(key, []).append(d["label"])
    out = []
    for piece, labels in by_piece.items():
        where = (Where(model.source, ("alley",)) if piece == "alley"
                 else _where_piece(model, piece))
        shown = ", ".join(labels[:6]) + (f" and {len(labels) - 6} more" if len(labels) > 6
                                         else "")
        out.append(where.problem(message.format(spaces=shown, n=len(labels))))
    return out


def check_graph(model: CourseModel, g: nx.DiGraph, direction_note: str = "") -> list[Problem]:
    """Structural problems of the lane graph ``g`` compiled from ``model``."""
    problems: list[Problem] = []
    tag = f" ({direction_note})" if direction_note else ""
    finish_where = Where(model.source, ("finish",))
    starts = g.graph["start_places"]
    crossing = [(u, v) for u, v, f in g.edges(data="finish") if f]
    if not crossing:
        problems.append(finish_where.problem(
            f"no step crosses the finish line{tag} — put 'before' on a piece the track "
            "passes through"))
    # Dead ends: no step leads on.
    dead = {n for n in g.nodes if g.out_degree(n) == 0}
    if dead:
        problems.extend(_grouped(model, g, dead,
                                 "dead end" + tag + ": no step leads on from {spaces} — "
                                 "continue the lane in the next piece or remove these spaces"))
    # Unreachable: no route from a start place (and no step into them at all).
    if starts:
        reach: set[int] = set(starts)
        for s in starts:
            reach |= nx.descendants(g, s)
        unreached = set(g.nodes) - reach
        if unreached:
            problems.extend(_grouped(
                model, g, unreached,
                "no step reaches {spaces}" + tag + " from any start place — connect the lane "
                "to the previous piece, or remove the spaces"))
    # Spaces from which the finish line cannot be reached.
    if crossing:
        tails = {u for u, _ in crossing}
        can = set(tails)
        for t in tails:
            can |= nx.ancestors(g, t)
        stuck = set(g.nodes) - can - dead
        if stuck:
            problems.extend(_grouped(
                model, g, stuck,
                "from {spaces}" + tag + " the finish line cannot be reached — these lanes "
                "lead nowhere; join them to the track"))
    # The lap must close, and the line must cut every loop.
    if crossing and lap_length(g) is None:
        problems.append(finish_where.problem(
            f"the lap does not close{tag}: no route comes back over the finish line — check "
            "that the last piece joins the first"))
    no_line = nx.subgraph_view(g, filter_edge=lambda u, v: not g.edges[u, v]["finish"])
    try:
        cycle = nx.find_cycle(no_line)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        label = g.nodes[cycle[0][0]]["label"]
        problems.append(finish_where.problem(
            f"the finish line does not cut the loop{tag}: a route through {label} laps "
            "without crossing it — make the line span every lane"))
    # The alley must be entered from the track and rejoin it.
    alley = g.graph.get("alley") or []
    if alley:
        aw = Where(model.source, ("alley",))
        entries = [v for u, v, a in g.edges(data="alley") if a == "enter"]
        exits = [u for u, v, a in g.edges(data="alley") if a == "exit"]
        if not entries:
            problems.append(aw.problem(
                f"the alley is not entered from the track{tag}: no track space steps into its "
                "first space — put it beside a lane that exists just before it ('side')"))
        if not exits:
            problems.append(aw.problem(
                f"the alley does not rejoin the track{tag}: its last space has no step back "
                "— make sure a lane continues beside its end"))
    if alley:
        problems.extend(_alley_shortcut(model, g, alley))
    if not starts:
        problems.append(Where(model.source, ("start",)).problem(
            "no usable start place — list spaces on the track, place 1 first"))
    return problems


def _alley_shortcut(model: CourseModel, g: nx.DiGraph, alley: list[int]) -> list[Problem]:
    """A warning when the alley has fewer spaces than the track lane beside it: driving
    through it would then be a shortcut every lap."""
    lane = g.nodes[alley[0]]["lane"]
    beside_lane = 0 if lane < 0 else model.lanes - 1
    lo = min(g.nodes[n]["a"] for n in alley)
    hi = max(g.nodes[n]["b"] for n in alley)
    beside = [n for n, d in g.nodes(data=True) if d["kind"] == "track"
              and d["lane"] == beside_lane and lo - 1e-9 <= d["a"] and d["b"] <= hi + 1e-9]
    if len(beside) > len(alley):
        return [Where(model.source, ("alley",)).problem(
            f"the alley has {len(alley)} spaces beside {len(beside)} track spaces: driving "
            f"through it saves {len(beside) - len(alley)} a lap — give it at least "
            f"{len(beside)} spaces if it is not meant as a shortcut", "spaces",
            severity="warning")]
    return []


def check_layout(model: CourseModel) -> list[Problem]:
    """Warnings about the drawing: the pieces should close into a loop."""
    from avecaesar.engine.course_layout import Layout

    layout = Layout([p.lengths for p in model.pieces], [p.turn for p in model.pieces],
                    model.lanes)
    gap = layout.closure_gap()
    total = sum(p.turn for p in model.pieces)
    if gap > SPACE * 0.75:
        return [Where(model.source, ("track",)).problem(
            f"the drawing does not close: the last piece ends {gap / SPACE:.1f} spaces from "
            f"where the first begins (turns add up to {total:g}°) — adjust lengths or turns "
            "so the board is a loop", severity="warning")]
    return []
