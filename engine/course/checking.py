"""What a course check sees and what a registered check is: the two types every check
module imports (engine/course/checks.py holds the registry, ``CHECKS``; a check written in a
module of its own imports these, not the registry, so no import goes in a circle)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

from avecaesar.engine.course.model import CourseModel, Where
from avecaesar.engine.data.errors import Problem

__all__ = ["Compiled", "CourseCheck"]


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


@dataclass(frozen=True)
class Compiled:
    """What a check looks at: the course file's model, its lane graph and the note that names
    the direction (" (anticlockwise)" or nothing) for the messages."""

    model: CourseModel
    g: nx.DiGraph
    tag: str

    @property
    def finish(self) -> Where:
        return Where(self.model.source, ("finish",))

    @functools.cached_property
    def crossing(self) -> list[tuple[int, int]]:
        """The steps over the finish line."""
        return [(u, v) for u, v, f in self.g.edges(data="finish") if f]

    @functools.cached_property
    def dead(self) -> set[int]:
        """The spaces from which no step leads on."""
        return {n for n in self.g.nodes if self.g.out_degree(n) == 0}

    def grouped(self, nodes: set[int], message: str) -> list[Problem]:
        return _grouped(self.model, self.g, nodes, message)


@dataclass(frozen=True)
class CourseCheck:
    """A registered check of a compiled course: its name, one line on what it checks, and
    the function that returns its problems — the function itself, or ``"module:function"``
    for a check written in a module of its own (imported on first use)."""

    name: str
    doc: str
    function: Callable[[Compiled], list[Problem]] | str

    def run(self, compiled: Compiled) -> list[Problem]:
        """The check's problems on ``compiled``."""
        found: list[Problem] = self.resolved()(compiled)
        return found

    def resolved(self) -> Callable[[Compiled], list[Problem]]:
        """The check's function."""
        if isinstance(self.function, str):
            from importlib import import_module

            module, _, attr = self.function.partition(":")
            function: Callable[[Compiled], list[Problem]] = getattr(import_module(module),
                                                                    attr)
            return function
        return self.function
