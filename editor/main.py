"""The ``avecaesar`` console entry point.

The typer app is in editor/app.py (``from avecaesar.editor.main import app`` still gives
it). Before loading typer, :func:`main` answers the commonest light commands itself, so
they start in a few tens of milliseconds (docs/performance.md, "CLI start-up"):

- ``avecaesar --help``: the top-level help, made from the command registry
  (editor/commands.py; a test checks it equals what typer prints; terminals narrower than
  80 columns get typer's own);
- ``avecaesar course list [--json]``: the rows from the cache of each course's figures
  (editor/cli/course_list.py), computed for a file only when it changed;
- ``avecaesar course validate REF…`` without options: each result from the cache
  (editor/cli/course_validate.py), computed for a course only when one of its inputs changed.

Anything else — another command, an option, an unknown course, an error while computing —
goes to the typer app, which prints exactly what it always did. Nothing is printed before
a light path knows it can answer in full.
"""

from __future__ import annotations

import os
import sys
from typing import Any

__all__ = ["main"]  # and `app`, the typer app, loaded on first use



def __getattr__(name: str) -> Any:
    if name == "app":
        from avecaesar.editor.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Output = list[tuple[str, str]]  # ("out" | "err", line), in order


def _answer(args: list[str], prog: str) -> tuple[Output, int] | None:
    """What a light path prints and its exit code, or None when typer must answer."""
    if args == ["--help"]:
        import shutil

        if prog != "avecaesar" or shutil.get_terminal_size().columns < 80:
            return None  # typer's text names the program and wraps to the terminal
        from avecaesar.editor.commands import top_help

        return [("out", top_help().removesuffix("\n"))], 0
    if args in (["course", "list"], ["course", "list", "--json"]):
        from avecaesar.editor.cli.course_list import course_rows, course_table

        rows = course_rows()
        if len(args) == 3:
            import json

            return [("out", json.dumps(rows, indent=2, ensure_ascii=False))], 0
        return [("out", line) for line in course_table(rows)], 0
    refs = args[2:]
    if args[:2] == ["course", "validate"] and refs and not any(
            r.startswith("-") for r in refs):
        from avecaesar.editor.cli.course_validate import plain_validate

        out: Output = []
        bad = usage = False
        for ref in refs:
            lines, ref_bad, ref_usage = plain_validate(ref)
            out += lines
            bad |= ref_bad
            usage |= ref_usage
        return out, 2 if usage else 1 if bad else 0
    return None


def _light(args: list[str]) -> int | None:
    """Answer a light command (its exit code), or None when typer must."""
    if os.environ.get("AVECAESAR_NO_LIGHT"):
        return None
    from avecaesar.editor.cli.signals import stopped_by, stopping_like_ctrl_c

    try:
        with stopping_like_ctrl_c():
            found = _answer(args, os.path.basename(sys.argv[0]))
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP
        name, code = stopped_by()
        print(f"interrupted ({name}): stopped; no output was half-written", file=sys.stderr)
        return code
    except Exception:  # an unknown course, a file that cannot be read, …: typer says it
        return None
    if found is None:
        return None
    lines, code = found
    try:
        for stream, line in lines:
            print(line, file=sys.stderr if stream == "err" else sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # `avecaesar course list | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


def main() -> None:
    """Console entry point: a light path if one answers, else the typer app."""
    code = _light(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from avecaesar.editor.app import app

    app()
