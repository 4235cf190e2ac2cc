"""The commands of ``avecaesar``, one registry: every command is one :class:`Command` line
naming its words, its one-line summary and the function that runs it.

Adding a command is one function (typer ``Annotated`` parameters, a docstring that says what
it does, with an example) in a module of ``editor/cli/`` (or ``editor/web/`` for the server)
and one :data:`COMMANDS` line (docs/architecture.md, "Extension points"). ``editor/app.py``
builds the typer app from this table and wraps every command in the one error boundary;
``editor/main.py`` prints the top-level ``--help`` from it without loading typer; a test checks
that every entry is documented, answers ``--help`` and is covered by a test.

This module imports nothing: the command-line help is generated from it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["APP_HELP", "COMMANDS", "GLOBAL_OPTIONS", "GROUPS", "Command", "GlobalOption",
           "Group", "top_help"]

APP_HELP = "Ave Caesar: validate and render courses, compare rulesets, race."


@dataclass(frozen=True)
class Group:
    """A word that gathers commands (``avecaesar course …``)."""

    name: str
    summary: str


@dataclass(frozen=True)
class Command:
    """One command.

    words: what the user types after ``avecaesar`` (``("course", "validate")``; a first word
    that is a :class:`Group` puts the command in that group). summary: one line for the help
    lists (at most 60 characters, so that no help list truncates it). target:
    ``"module:function"``, the function typer runs.
    """

    words: tuple[str, ...]
    summary: str
    target: str

    @property
    def name(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class GlobalOption:
    """An option of ``avecaesar`` itself, before the command (``editor/app.py``'s callback
    takes its help from here)."""

    flags: str
    metavar: str
    help: str


GROUPS: tuple[Group, ...] = (
    Group("course", "Validate, render and list courses."),
    Group("ruleset", "List, show, validate and compare rulesets."),
    Group("vectors", "The published rules test vectors: check and make them."),
)

COMMANDS: tuple[Command, ...] = (
    Command(("race",), "Run a race with bots: a readable log and the result.",
            "avecaesar.editor.cli.race:race"),
    Command(("replay",), "Re-check every move of a game record.",
            "avecaesar.editor.cli.race:replay_cmd"),
    Command(("play",), "Race at one terminal: people choose, bots drive the rest.",
            "avecaesar.editor.cli.race:play"),
    Command(("simulate",), "Many seeded bot races on one course: balance figures.",
            "avecaesar.editor.cli.simulate:simulate_cmd"),
    Command(("balance",), "Rank courses from best to worst balanced (simulated).",
            "avecaesar.editor.cli.balance:balance_cmd"),
    Command(("tournament",), "A tournament with bots: each race's result and standings.",
            "avecaesar.editor.cli.tournament:tournament"),
    Command(("serve",), "Serve the table in the browser: play, replay, design.",
            "avecaesar.editor.web.serve:serve"),
    Command(("course", "validate"), "Every problem as file:line:col, then the figures.",
            "avecaesar.editor.cli.course:validate"),
    Command(("course", "render"), "Draw a course as a board: its spaces, lanes and walls.",
            "avecaesar.editor.cli.course:render"),
    Command(("course", "print"), "Print a board to play on: real size, tiled over sheets.",
            "avecaesar.editor.cli.course:print_board"),
    Command(("course", "diff"), "Two courses side by side: figures and pieces.",
            "avecaesar.editor.cli.course:diff"),
    Command(("course", "balance"), "Edits that even out the start places, verified.",
            "avecaesar.editor.cli.course_balance:balance_course"),
    Command(("course", "generate"), "Boards that meet a brief, each one validated.",
            "avecaesar.editor.cli.course_generate:generate_courses"),
    Command(("course", "list"), "The bundled courses with their figures.",
            "avecaesar.editor.cli.course:list_courses"),
    Command(("course", "dump"), "The compiled lane graph as node-link JSON.",
            "avecaesar.editor.cli.course:dump"),
    Command(("course", "new"), "Write a commented starter course that validates.",
            "avecaesar.editor.cli.course:new"),
    Command(("ruleset", "list"), "Editions, homebrew rulesets and variants.",
            "avecaesar.editor.cli.ruleset:list_cmd"),
    Command(("ruleset", "show"), "The composed rules, each with its citation and kind.",
            "avecaesar.editor.cli.ruleset:show_cmd"),
    Command(("ruleset", "validate"), "Check ruleset and variant files: schema and rules.",
            "avecaesar.editor.cli.ruleset:validate_cmd"),
    Command(("ruleset", "diff"), "Every rule that differs between two rulesets.",
            "avecaesar.editor.cli.ruleset:diff_cmd"),
    Command(("vectors", "check"), "Check rules test vectors against the engine.",
            "avecaesar.editor.cli.vectors:check_cmd"),
    Command(("vectors", "make"), "Ask the engine the vectors' questions; refuse changes.",
            "avecaesar.editor.cli.vectors:make_cmd"),
)

GLOBAL_OPTIONS: tuple[GlobalOption, ...] = (
    GlobalOption("--allow-path", "DIR", "A folder that course includes and record headers "
                 "may also read from (repeat); by default only the course's own folder tree "
                 "and the bundled data."),
    GlobalOption("-V, --version", "", "Print the version and exit."),
)

# typer's own options of every app, in the words typer prints them (a test compares the
# whole text of `avecaesar --help` with typer's)
_TYPER_OPTIONS = (
    ("--install-completion", "Install completion for the current shell."),
    ("--show-completion", "Show completion for the current shell, to copy it or customize "
     "the installation."),
    ("--help", "Show this message and exit."),
)


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def _definitions(rows: list[tuple[str, str]], width: int = 80) -> list[str]:
    """Rows as click writes a definition list: two-space indent, the first column padded to
    its widest entry (at most 30) plus two, the second wrapped to the width."""
    first = min(max(len(r[0]) for r in rows), 30) + 2
    out: list[str] = []
    for term, text in rows:
        pad = 2 + first
        wrapped = _wrap(text, width - pad) or [""]
        if len(term) + 2 > first:  # a long term stands on its own line
            out.append(f"  {term}")
            out.extend(" " * pad + w for w in wrapped)
            continue
        out.append(f"  {term.ljust(first)}{wrapped[0]}")
        out.extend(" " * pad + w for w in wrapped[1:])
    return out


def top_help() -> str:
    """``avecaesar --help`` at 80 columns, as typer prints it, made from the registries."""
    options = [(f"{o.flags} {o.metavar}".rstrip(), o.help) for o in GLOBAL_OPTIONS]
    commands = [(c.words[0], c.summary) for c in COMMANDS if len(c.words) == 1]
    commands += [(g.name, g.summary) for g in GROUPS]
    return "\n".join([
        "Usage: avecaesar [OPTIONS] COMMAND [ARGS]...", "", f"  {APP_HELP}", "", "Options:",
        *_definitions([*options, *_TYPER_OPTIONS]), "", "Commands:",
        *_definitions(commands), ""])
