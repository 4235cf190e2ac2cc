"""The bots by name, and the policy that drives the chariots no player drives."""

from __future__ import annotations

from avecaesar.engine.bots.names import POLICIES
from avecaesar.engine.bots.policies import greedy_policy, random_policy
from avecaesar.engine.bots.search import search_policy
from avecaesar.engine.core.race import Policy

__all__ = ["OWNERLESS", "POLICIES", "make_policy"]

# A chariot no player drives moves "to its own best advantage" (RULES.md, "ownerless
# chariots"): the greedy policy. The turn loop is given it (run_race(..., ownerless=...)).
OWNERLESS: Policy = greedy_policy


def make_policy(name: str, seed: int) -> Policy:
    """The bot ``name`` (one of :data:`POLICIES`), seeded with ``seed``."""
    if name == "random":
        return random_policy(seed)
    if name == "greedy":
        return greedy_policy
    if name == "search":
        return search_policy(seed)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(POLICIES)}")
