"""The bots, one registry: each entry is a name, the sentence that says how it plays and
where its factory lives. Adding a bot is one module with a factory ``(seed) -> Policy`` and
one :data:`BOTS` line (docs/architecture.md, "Extension points").

This module imports no engine code: the CLI lists and checks bot names (``--bots``, its
help) without loading the race engine; :func:`make_policy` imports a bot's module on first
use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from avecaesar.engine.data.errors import UnknownNameError

if TYPE_CHECKING:
    from avecaesar.engine.core.race import Policy

__all__ = ["BOTS", "OWNERLESS", "POLICIES", "Bot", "find_bot", "make_policy"]


@dataclass(frozen=True)
class Bot:
    """A registered bot.

    name: what ``--bots`` takes. doc: how it plays, one sentence (the CLI's help and
    docs/engine.md show it). factory: ``"module:function"``, a function ``(seed) -> Policy``
    (a policy chooses among the legal moves, it never decides what is legal). budget: what
    ``--bot-budget N`` means for it (its factory then takes ``budget=N``), or empty: it
    takes none and plays the same with any.
    """

    name: str
    doc: str
    factory: str
    budget: str = ""

    def make(self, seed: int, budget: int | None = None) -> Policy:
        """This bot's policy, seeded with ``seed`` (and given ``budget`` if it takes one)."""
        module, _, attr = self.factory.partition(":")
        build: Callable[..., Policy] = getattr(import_module(module), attr)
        if budget is not None and self.budget:
            return build(seed, budget=budget)
        return build(seed)


BOTS: tuple[Bot, ...] = (
    Bot("expert", "plans from what its seat may know: opponents' hands dealt from their "
        "unplayed cards and skips, each move played on in many such deals",
        "avecaesar.engine.bots.expert:expert_policy", "rollouts per decision"),
    Bot("greedy", "the most progress per point of the card, a reserve kept for the finish, "
        "the alley stop in time", "avecaesar.engine.bots.policies:greedy_bot"),
    Bot("random", "a uniformly random legal move (its own seeded generator)",
        "avecaesar.engine.bots.policies:random_policy"),
    Bot("search", "seeded rollouts of each candidate move with greedy play after it",
        "avecaesar.engine.bots.search:search_policy"),
)

POLICIES: tuple[str, ...] = tuple(b.name for b in BOTS)
"""The bots' names, in registry order."""


def find_bot(name: str) -> Bot:
    """The registered bot ``name``; an unknown name is an :class:`UnknownNameError` with
    "did you mean"."""
    for bot in BOTS:
        if bot.name == name:
            return bot
    raise UnknownNameError("bot", name, list(POLICIES))


def make_policy(name: str, seed: int, budget: int | None = None) -> Policy:
    """The bot ``name`` (one of :data:`POLICIES`), seeded with ``seed``; ``budget``: its
    budget per decision if it takes one (``--bot-budget``), else ignored."""
    return find_bot(name).make(seed, budget)


def __getattr__(name: str) -> Any:
    # OWNERLESS: a chariot no player drives moves "to its own best advantage" [001], "immer
    # zu ihrem Vorteil" [002 VII]: the greedy policy. The turn loop is given it
    # (run_race(..., ownerless=OWNERLESS)).
    if name == "OWNERLESS":
        return make_policy("greedy", 0)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    OWNERLESS: Policy
