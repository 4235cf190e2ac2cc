"""The balance report's sections, one registry: each entry names a section of
``simulate --report``'s page, what it shows, and the function that writes its HTML.

Adding a section is one function ``(PageData) -> str`` (an HTML fragment, or ``""`` when the
simulation has nothing to show there) in a module of ``editor/render/`` and one
:data:`SECTIONS` line (docs/architecture.md, "Extension points"); the page lays the sections
out in this order, and a test renders every one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from avecaesar.editor.render.balance_sections import PageData

__all__ = ["SECTIONS", "Section"]


@dataclass(frozen=True)
class Section:
    """name: the section's anchor on the page. doc: what it shows, one sentence.
    function: ``"module:function"``, ``(PageData) -> str``. title: its heading."""

    name: str
    doc: str
    function: str
    title: str = ""

    def render(self, data: PageData) -> str:
        module, _, attr = self.function.partition(":")
        fn: Callable[[PageData], str] = getattr(import_module(module), attr)
        return fn(data)


_M = "avecaesar.editor.render.balance_sections"
SECTIONS: tuple[Section, ...] = (
    Section("comparison", "two paired simulations: each figure's difference with its 95 % "
            "interval, and the races pairing saved", f"{_M}:comparison", "Paired comparison"),
    Section("differences", "two paired simulations on one board: B − A per space of the "
            "blocked turns, the waits and the disqualifications, on one scale",
            f"{_M}:differences",
            "Where the two sides differ"),
    Section("start-places", "per start place: win rate and mean points with 95 % intervals, "
            "out of cards, disqualified, not finished, reserve", f"{_M}:start_places",
            "Start places"),
    Section("seat-advantage", "the first mover's and each start row's win rate per chariot "
            "against the even share", f"{_M}:seat_advantage", "Seat advantage"),
    Section("lead-changes", "lead changes per race with its interval, and the turns lost "
            "per race (6-card rule, blocked, waiting)", f"{_M}:lead_changes",
            "Lead changes and lost turns"),
    Section("attrition", "chariots out of the race by lap: out of cards, disqualified and "
            "why", f"{_M}:attrition", "Attrition by lap"),
    Section("blocked-waiting", "heat maps of where chariots were blocked and where they "
            "waited, with a legend and a scale", f"{_M}:blocked_waiting",
            "Where chariots get blocked and where they wait"),
    Section("race-length", "the race length in turns: its histogram, mean and range",
            f"{_M}:race_length", "Race length"),
    Section("skill", "with several bot kinds: each kind's win rate, head to head, and how "
            "much skill matters (best − worst kind)", f"{_M}:skill",
            "Skill: bot kind against bot kind"),
)
