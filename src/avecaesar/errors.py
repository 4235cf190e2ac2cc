"""The project's error types; the CLI turns each into a clear message and an exit code.

Every error a user can cause carries :class:`Problem` values: a file, a 1-based line and
column, and a message that says what is wrong and what to change.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AveCaesarError",
    "InputError",
    "MissingRuleValueError",
    "Problem",
    "UnknownNameError",
]


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a user's file, with where it is."""

    file: str
    line: int
    column: int
    message: str
    severity: str = "error"  # "error" fails validation; "warning" is only reported

    def __str__(self) -> str:
        tag = "warning: " if self.severity == "warning" else ""
        return f"{self.file}:{self.line}:{self.column}: {tag}{self.message}"

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message}


class AveCaesarError(Exception):
    """Base class: an error caused by the user's input or request, never a bug."""


class InputError(AveCaesarError):
    """Raised when a file cannot be used; holds every problem found, not only the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UnknownNameError(AveCaesarError):
    """Raised when a course, ruleset or variant name is not known; lists the known ones."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        from avecaesar.suggest import did_you_mean

        self.kind, self.name, self.known = kind, name, known
        hint = did_you_mean(name, known)
        listing = ", ".join(known) if known else "(none)"
        end = "" if hint else "."
        super().__init__(f"unknown {kind} {name!r}{hint}{end} Known {kind}s: {listing}")


class MissingRuleValueError(AveCaesarError):
    """Raised when a rule value the sources do not give (declared unknown) is needed."""

    def __init__(self, key: str, why: str, how: str) -> None:
        self.key = key
        super().__init__(f"the rule value {key!r} is unknown: {why}. Supply it: {how}")
