"""Module paths renamed in 0.2 (issue 25: names that say what a file holds), kept importable
for one release: ``import avecaesar.engine.course.course`` gives ``avecaesar.engine.course.load``
with a :class:`DeprecationWarning` naming the new path (docs/api.md, "Moved modules")."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "install"]

MOVED: dict[str, str] = {
    "avecaesar.engine.course.course": "avecaesar.engine.course.load",
    "avecaesar.engine.course.course_model": "avecaesar.engine.course.model",
    "avecaesar.engine.course.course_layout": "avecaesar.engine.course.layout",
    "avecaesar.engine.course.course_graph": "avecaesar.engine.course.graph",
    "avecaesar.engine.course.course_check": "avecaesar.engine.course.checks",
    "avecaesar.engine.course.course_diff": "avecaesar.engine.course.diff",
    "avecaesar.engine.course.course_explain": "avecaesar.engine.course.explain",
    "avecaesar.engine.course.course_whatif": "avecaesar.engine.course.whatif",
    "avecaesar.engine.course.course_svg": "avecaesar.engine.course.svg",
    "avecaesar.engine.ruleset.ruleset": "avecaesar.engine.ruleset.load",
    "avecaesar.engine.ruleset.ruleset_catalog": "avecaesar.engine.ruleset.catalog",
    "avecaesar.engine.ruleset.ruleset_check": "avecaesar.engine.ruleset.checks",
    "avecaesar.engine.ruleset.ruleset_compose": "avecaesar.engine.ruleset.compose",
    "avecaesar.engine.ruleset.ruleset_house": "avecaesar.engine.ruleset.house",
    "avecaesar.engine.ruleset.ruleset_keys": "avecaesar.engine.ruleset.keys",
    "avecaesar.engine.core.setup": "avecaesar.engine.core.race_setup",
    "avecaesar.engine.core.rules": "avecaesar.engine.core.ruleset_adapter",
    "avecaesar.engine.bots.names": "avecaesar.engine.bots.registry",
    "avecaesar.editor.course_cli": "avecaesar.editor.cli.course",
    "avecaesar.editor.ruleset_cli": "avecaesar.editor.cli.ruleset",
    "avecaesar.editor.race_cli": "avecaesar.editor.cli.race",
    "avecaesar.editor.simulate_cli": "avecaesar.editor.cli.simulate",
    "avecaesar.editor.tournament_cli": "avecaesar.editor.cli.tournament",
    "avecaesar.editor.play_session": "avecaesar.editor.cli.play_session",
    "avecaesar.editor.ask_open": "avecaesar.editor.cli.ask_open",
    "avecaesar.editor.course_list": "avecaesar.editor.cli.course_list",
    "avecaesar.editor.course_validate": "avecaesar.editor.cli.course_validate",
    "avecaesar.editor.course_insight": "avecaesar.editor.cli.course_insight",
    "avecaesar.editor.figures_update": "avecaesar.editor.cli.figures_update",
    "avecaesar.editor.result_cache": "avecaesar.editor.cli.result_cache",
    "avecaesar.editor.common": "avecaesar.editor.cli.common",
    "avecaesar.editor.render": "avecaesar.editor.render.board",
    "avecaesar.editor.charts": "avecaesar.editor.render.charts",
    "avecaesar.editor.event_text": "avecaesar.editor.render.event_text",
    "avecaesar.editor.ruleset_docs": "avecaesar.editor.render.ruleset_docs",
    "avecaesar.editor.web.boards": "avecaesar.editor.render.board_svg",
    "avecaesar.editor.web.frames": "avecaesar.editor.render.replay_frames",
    "avecaesar.editor.web.replay_html": "avecaesar.editor.render.replay_page",
    "avecaesar.editor.table": "avecaesar.editor.table.game",
    "avecaesar.editor.choices": "avecaesar.editor.table.choices",
    "avecaesar.editor.serve_cli": "avecaesar.editor.web.serve",
}
"""Old module path → new one. ``avecaesar.editor.render`` and ``avecaesar.editor.table`` are
packages now (the rooms); their old contents are in ``render.board`` and ``table.game``."""


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} is now {self.new} (the old path goes in the next "
                      "release)", DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed under its new name


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(name)
        if new is None or name in ("avecaesar.editor.render", "avecaesar.editor.table"):
            return None  # packages now: the package itself is found as usual
        return importlib.machinery.ModuleSpec(name, _Alias(new))


def install() -> None:
    """Put the finder for moved modules on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _MovedFinder())
