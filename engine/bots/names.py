"""The bots' names, with no engine imports: the CLI's help lists them without loading the
engine (docs/performance.md, "CLI start-up")."""

from __future__ import annotations

__all__ = ["POLICIES"]

POLICIES = ("greedy", "random", "search")
