"""``avecaesar vectors …``: check the published rules test vectors against the engine, and
make them (vectors/README.md; engine/lab/vectors.py, engine/lab/vectors_make.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from avecaesar.editor.cli.common import SetOpt, echo_json, rule_settings
from avecaesar.engine.data.errors import UsageError

__all__ = ["check_cmd", "make_cmd"]

FolderArg = Annotated[Path | None, typer.Argument(
    help="A vectors folder (default: the published vectors this install ships).")]
SuiteOpt = Annotated[list[str] | None, typer.Option(
    "--suite", help="Only this suite (its file's name without .json); repeat.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _folder(folder: Path | None) -> Path:
    from avecaesar.engine.data.paths import VECTORS_DIR

    path = VECTORS_DIR if folder is None else folder
    if not path.is_dir():
        raise UsageError(f"{path}: no such folder — give a folder of vector files (the "
                         "published ones: avecaesar vectors check)")
    return path


def check_cmd(folder: FolderArg = None, set_: SetOpt = None, suite: SuiteOpt = None,
              as_json: JsonOpt = False) -> None:
    """Check rules test vectors against the engine: every answer, each difference as
    file:line with the vector's id; exit 1 when one differs.

    With --set KEY=VALUE the vectors are checked under that rule change: the vectors it
    breaks are listed (each vector's breaks_if names the changes that break it).

    Example: avecaesar vectors check --suite dicetree-2022-oval
    """
    from avecaesar.engine.lab.vectors import check_folder, suite_files

    path = _folder(folder)
    changes = rule_settings(set_) or None
    wanted = {f"{s}.json" for s in suite or []}
    unknown = sorted(wanted - {p.name for p in suite_files(path)})
    if unknown:
        raise UsageError(f"--suite {', '.join(n.removesuffix('.json') for n in unknown)}: "
                         f"no such suite in {path}")
    found = check_folder(path, changes, None, wanted or None)
    if as_json:
        echo_json({"folder": str(path), "files": found.files, "vectors": found.vectors,
                   "by_kind": found.by_kind, "set": changes or {},
                   "failures": [{"file": f.file, "line": f.line, "vector": f.vector,
                                 "message": f.message} for f in found.failures]})
    else:
        for f in found.failures:
            typer.echo(str(f), err=True)
        kinds = ", ".join(f"{n} {k}" for k, n in found.by_kind.items())
        under = f" under --set {', '.join(f'{k}={v}' for k, v in changes.items())}" \
            if changes else ""
        if found.ok:
            files = f"{found.files} file{'' if found.files == 1 else 's'}"
            typer.echo(f"{found.vectors} vectors in {files} pass{under} ({kinds})")
        else:
            bad = len({(f.file, f.vector) for f in found.failures})
            typer.echo(f"{bad} of {found.vectors} vectors fail{under} ({kinds})", err=True)
    if not found.ok:
        raise typer.Exit(1)


def make_cmd(folder: Annotated[Path, typer.Argument(
                 help="The vectors folder to write (its suites.yaml says what to ask; a "
                      "new folder gets the published one).")] = Path("vectors"),
             suite: SuiteOpt = None,
             accept: Annotated[bool, typer.Option(
                 help="Write the files whose answers changed (a rule change, reviewed).")
             ] = False,
             resample: Annotated[bool, typer.Option(
                 help="Sample every suite's positions afresh from its seeded races.")
             ] = False,
             annotate: Annotated[bool, typer.Option(
                 help="Find again what each vector covers (breaks_if, shows) in files whose "
                      "answers are the same (after a change of how coverage is found).")
             ] = False,
             quiet: Annotated[bool, typer.Option(help="No progress lines.")] = False) -> None:
    """Make the rules test vectors: ask the engine every suite's questions and write the
    answers; a file whose answers changed is refused (exit 1) unless --accept.

    Example: avecaesar vectors make my-vectors --suite pro-ludo-2006-water
    """
    from avecaesar.engine.lab.vectors_make import make_folder

    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: a file of that name exists; give a folder")
    if not folder.parent.is_dir():
        raise UsageError(f"the folder {folder.parent} does not exist — create it first")
    try:
        made = make_folder(folder, suite or (), accept, resample,
                           None if quiet else lambda n: typer.echo(f"asking {n} …", err=True),
                           annotate)
    except KeyError as err:
        raise UsageError(f"--suite: {err.args[0]}") from None
    for name, found in made.refused.items():
        typer.echo(f"{folder / name}: not written — {len(found)} answer(s) changed:", err=True)
        for line in found[:20]:
            typer.echo(f"  {line}", err=True)
        if len(found) > 20:
            typer.echo(f"  … and {len(found) - 20} more", err=True)
    typer.echo(f"{len(made.written)} file(s) written, {len(made.unchanged)} unchanged, "
               f"{len(made.refused)} refused; {made.vectors} vectors in {folder}")
    if made.refused:
        typer.echo("a changed answer is a rule change: review the lines above, then run "
                   "again with --accept to write them (a count made by hand is never "
                   "overwritten)", err=True)
        raise typer.Exit(1)
