"""The project's error types; the CLI turns each into a clear message and an exit code.

Every error a user can cause carries :class:`Problem` values: a file, a 1-based line and
column, and a message that says what is wrong and what to change.
"""

from __future__ import annotations

from dataclasses import dataclass

from avecaesar.engine.data.suggest import did_you_mean

__all__ = [
    "EXIT_CODES",
    "AveCaesarError",
    "ExitCode",
    "FileAccessError",
    "InputError",
    "MissingRuleValueError",
    "Problem",
    "UnknownNameError",
    "UsageError",
]


@dataclass(frozen=True)
class ExitCode:
    """One exit code of the command line and what it means; ``signal``: the signal whose
    number it is 128 plus (a command stopped by it)."""

    code: int
    meaning: str
    signal: str | None = None


#: The one table of exit codes: docs/architecture.md ("Exit codes") and the README's table
#: are generated from it (``python -m avecaesar.editor.registry_docs``); every error type's
#: ``exit_code`` and every exit of the CLI is one of them (tests/hardening/test_exit_codes.py),
#: and the fuzzers check every case against it.
EXIT_CODES: tuple[ExitCode, ...] = (
    ExitCode(0, "done: a valid course or ruleset, a record that replays, a race, simulation "
             "or tournament run to its end"),
    ExitCode(1, "problems in a valid input: a course with problems or not finishable, a "
             "ruleset or variant with problems, an illegal move or a cut-short or tampered "
             "record in `replay`; `play`'s input ended before the race did (its record is "
             "kept when it has a file)"),
    ExitCode(2, "usage: an unknown id, a bad option value, too many chariots for the course, "
             "an open rule value; a file or folder that is missing, unreadable, too large, not "
             "UTF-8 text (a binary file), not a regular file (a folder, a device, a FIFO) or a "
             "symbolic link that loops; an output that cannot be written (a disk full); a "
             "worker process of `simulate` killed on its own (out of memory, `kill -9`)"),
    ExitCode(129, "stopped by SIGHUP (the terminal closed): as Ctrl-C", "SIGHUP"),
    ExitCode(130, "stopped by Ctrl-C: `simulate` and `tournament` keep what finished, marked "
             "partial; `play` keeps its record; other commands write nothing half-done",
             "SIGINT"),
    ExitCode(143, "stopped by SIGTERM (a service manager's stop, `kill`): as Ctrl-C",
             "SIGTERM"),
)


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
    """Base class: an error caused by the user's input or request, never a bug.

    ``exit_code`` is what the CLI exits with (:data:`EXIT_CODES`): 1 for problems in a valid
    input (a course with problems, an illegal move in a record), 2 for usage (unknown ids,
    bad option values, missing or unreadable files or folders)."""

    exit_code = 1


class UsageError(AveCaesarError):
    """Raised when the command line asks for something that cannot be done: an unknown id,
    an option value out of range, a missing file or folder, an output path that is a
    folder. Exit code 2."""

    exit_code = 2


class InputError(AveCaesarError):
    """Raised when a file cannot be used; holds every problem found, not only the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class FileAccessError(InputError):
    """Raised when a file named on the command line (or by a file) cannot be read at all:
    missing, a folder or a device, too large, not UTF-8, outside the allowed folders.
    It is still an :class:`InputError` (one located problem), but a usage error: exit 2."""

    exit_code = 2


class UnknownNameError(UsageError):
    """Raised when a course, ruleset or variant name is not known; lists the known ones."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind, self.name, self.known = kind, name, known
        hint = did_you_mean(name, known)
        listing = ", ".join(known) if known else "(none)"
        end = "" if hint else "."
        super().__init__(f"unknown {kind} {name!r}{hint}{end} Known {kind}s: {listing}")


class MissingRuleValueError(UsageError):
    """Raised when rule values the sources do not give (declared open) are needed.

    ``entries`` holds every missing value as ``(key, why, choices)``; :meth:`combined`
    joins several errors so that one message lists all of them, each with the exact
    ``--set`` line and the house-rules file to copy.
    """

    def __init__(self, key: str, why: str, how: str = "",
                 choices: list[object] | None = None) -> None:
        self.key = key
        self.entries: list[tuple[str, str, list[object] | None]] = [(key, why, choices)]
        super().__init__(missing_message(self.entries))

    @classmethod
    def combined(cls, errors: list[MissingRuleValueError]) -> MissingRuleValueError:
        """One error listing every missing value of ``errors`` (each key once)."""
        first = errors[0]
        seen: set[str] = set()
        entries = []
        for err in errors:
            for entry in err.entries:
                if entry[0] not in seen:
                    seen.add(entry[0])
                    entries.append(entry)
        out = cls(first.key, entries[0][1], "", entries[0][2])
        out.entries = entries
        out.args = (missing_message(entries),)
        return out

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _yaml_value(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    return str(value)


def missing_message(entries: list[tuple[str, str, list[object] | None]]) -> str:
    """The one message for open rule values: what each leaves open, its choices, the exact
    ``--set`` line, and a house-rules file with all of them to copy."""
    n = len(entries)
    lines = [f"the rules leave {n} value{'s' if n > 1 else ''} open that this race needs "
             "(no text decides " + ("them" if n > 1 else "it") + "):"]
    for key, why, choices in entries:
        pick = (" — one of: " + ", ".join(_yaml_value(c) for c in choices)) if choices else ""
        lines.append(f"  {key}: {why}{pick}")
        example = _yaml_value(choices[0]) if choices else "VALUE"
        lines.append(f"      --set {key}={example.replace(' ', '')}")
    lines.append("Supply each with --set as shown, or write your group's answers once in a "
                 "file (e.g. house.yaml) and pass --house house.yaml:")
    lines.append("rules:")
    for key, _why, choices in entries:
        example = _yaml_value(choices[0]) if choices else "VALUE"
        lines.append(f"  {key}: {example}")
    return "\n".join(lines)
