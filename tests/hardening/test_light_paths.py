"""The CLI's light paths (editor/main.py) print exactly what the typer app prints, and the
result cache (editor/cli/result_cache.py) never breaks a command or loses output: a corrupt
entry, a cache folder that cannot be written, a changed course or module file (issue 13).

Each command runs as the real console script in a fresh process: once with the light
paths and the cache turned off (``AVECAESAR_NO_LIGHT``, ``AVECAESAR_NO_CACHE``: the typer
app computing everything, the reference), then with them, cold and warm.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLI = str(Path(sys.executable).parent / "avecaesar")
HERE = Path(__file__).resolve().parent
VALID = HERE.parent / "course" / "valid"
INVALID = HERE.parent / "course" / "invalid"
HEAVY = ("typer", "networkx", "jsonschema", "yaml", "avecaesar.engine.course.load")


def run(args: list[str], cache: Path | None, cwd: Path | None = None,
        columns: int = 100) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("AVECAESAR_NO_LIGHT", "AVECAESAR_NO_CACHE", "XDG_CACHE_HOME")}
    env["COLUMNS"] = str(columns)
    if cache is None:
        env["AVECAESAR_NO_LIGHT"] = env["AVECAESAR_NO_CACHE"] = "1"
    else:
        env["XDG_CACHE_HOME"] = str(cache)
    r = subprocess.run([CLI, *args], capture_output=True, text=True, env=env, cwd=cwd,
                       check=False, timeout=120)
    return r.returncode, r.stdout, r.stderr


def loaded_by(args: list[str], cache: Path) -> list[str]:
    """The heavy modules a light command loads (run in-process behind ``main``)."""
    probe = ("import sys\n"
             f"sys.argv = ['avecaesar', *{args!r}]\n"
             "from avecaesar.editor.main import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "COLUMNS": "100"}
    env.pop("AVECAESAR_NO_CACHE", None)
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       env=env, check=True, timeout=120)
    return r.stderr.strip().splitlines()[-1].split() if r.stderr.strip() else []


def test_top_level_help_is_typers_text(tmp_path: Path) -> None:
    from avecaesar.editor.commands import top_help

    # made from the command registry (editor/commands.py); the reference is typer's own
    # text: the app run with the light paths off
    assert run(["--help"], tmp_path) == run(["--help"], None) == (0, top_help(), "")
    # narrow terminals: typer wraps the text itself
    assert run(["--help"], tmp_path, columns=60) == run(["--help"], None, columns=60)
    assert loaded_by(["--help"], tmp_path) == []


COMMANDS = [
    ["course", "list"],
    ["course", "list", "--json"],
    ["course", "validate", "dicetree-2022/hippodrom-constantinople"],
    ["course", "validate", "ravensburger-1989/a-white", "dicetree-2022/circus-maximus-ccw",
     str(VALID / "composed.yaml")],
    ["course", "validate", str(INVALID / "include-missing-file.yaml")],
    ["course", "validate", "no-such-course"],
    ["course", "validate", str(VALID / "oval.yaml"), "nowhere.yaml"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[1:3]))
def test_light_paths_print_what_typer_prints(args: list[str], tmp_path: Path) -> None:
    reference = run(args, None)
    assert run(args, tmp_path) == reference  # cold: computed, cache written
    assert run(args, tmp_path) == reference  # warm: from the cache


def test_a_warm_light_command_loads_no_heavy_module(tmp_path: Path) -> None:
    for args in (["course", "list"],
                 ["course", "validate", "dicetree-2022/hippodrom-constantinople"]):
        run(args, tmp_path)
        assert loaded_by(args, tmp_path) == []


def test_a_corrupt_cache_is_a_miss_and_is_rewritten(tmp_path: Path) -> None:
    args = ["course", "validate", "ravensburger-1989/a-white", str(VALID / "composed.yaml")]
    reference = run(args, None)
    listing = run(["course", "list"], None)
    run(args, tmp_path)
    run(["course", "list"], tmp_path)
    entries = sorted((tmp_path / "avecaesar").rglob("*.json"))
    assert entries
    garbage = ["", "{", "null", "[]", '{"inputs": {}, "value": 1}',
               '{"inputs": {"/nonexistent": "missing"}, "value": {"lines": 3, "bad": 1}}',
               '{"inputs": {"/nonexistent": "missing"}, "value": [{"id": 1}]}', "\xff"]
    for i, e in enumerate(entries):
        e.write_text(garbage[i % len(garbage)], encoding="utf-8")
    assert run(args, tmp_path) == reference
    assert run(["course", "list"], tmp_path) == listing
    for e in entries:  # rewritten (a manifest or a value), and used again
        assert e.read_text(encoding="utf-8").startswith(('{"inputs"', '{"value"'))
    assert run(args, tmp_path) == reference


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    args = ["course", "validate", "dicetree-2022/hippodrom-constantinople"]
    reference = run(args, None)
    blocked = tmp_path / "a-file"  # the cache folder's place is taken by a file
    blocked.write_text("not a folder", encoding="utf-8")
    assert run(args, blocked) == reference
    assert run(["course", "list"], blocked) == run(["course", "list"], None)
    readonly = tmp_path / "ro"
    readonly.mkdir()
    readonly.chmod(0o500)  # (root may write anyway: then it is an ordinary cache)
    try:
        assert run(args, readonly) == reference
        assert run(args, readonly) == reference
    finally:
        readonly.chmod(0o700)


def test_a_changed_course_or_module_is_recomputed(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    shutil.copy(VALID / "composed.yaml", folder / "composed.yaml")
    shutil.copy(VALID / "modules.yaml", folder / "modules.yaml")
    cache = tmp_path / "cache"
    args = ["course", "validate", "composed.yaml"]
    first = run(args, cache, cwd=folder)
    assert first == run(args, None, cwd=folder)
    assert "lap 20" in first[1]

    module = folder / "modules.yaml"
    text = module.read_text(encoding="utf-8")
    changed = text.replace("length: ", "length: 1", 1)
    assert changed != text
    module.write_text(changed, encoding="utf-8")  # an included module changes
    second = run(args, cache, cwd=folder)
    assert second == run(args, None, cwd=folder)
    assert second != first

    course = folder / "composed.yaml"
    course.write_text(course.read_text(encoding="utf-8").replace(
        "length: 4}", "length: 6}", 1), encoding="utf-8")  # the course file changes
    third = run(args, cache, cwd=folder)
    assert third == run(args, None, cwd=folder)
    assert third != second

    module.unlink()  # the module goes missing
    fourth = run(args, cache, cwd=folder)
    assert fourth == run(args, None, cwd=folder)
    assert fourth[0] == 1


def test_an_entry_naming_a_fifo_or_device_is_a_miss_without_reading_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from avecaesar.editor.cli import result_cache
    from avecaesar.engine.data.safeio import read_text, reading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("AVECAESAR_NO_CACHE", raising=False)
    course = tmp_path / "c.yaml"
    course.write_text("x", encoding="utf-8")
    with reading() as log:
        read_text(course, 100)
    result_cache.store("probe", ["k"], log, {"v": 1})
    assert result_cache.lookup("probe", ["k"]) == {"v": 1}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    manifest = next(p for p in (tmp_path / "cache" / "avecaesar" / "probe").glob("*.json")
                    if '"inputs"' in p.read_text(encoding="utf-8"))
    for bad in (str(fifo), "/dev/zero", str(tmp_path)):
        # would block (FIFO) or never end (/dev/zero) if it were read
        manifest.write_text(json.dumps({"inputs": [str(course), bad]}), encoding="utf-8")
        assert result_cache.lookup("probe", ["k"]) is None
    course.write_text("changed", encoding="utf-8")
    with reading() as log:
        read_text(course, 100)
    result_cache.store("probe", ["k"], log, {"v": 2})
    assert result_cache.lookup("probe", ["k"]) == {"v": 2}


def test_a_value_is_kept_under_what_was_read_not_what_is_there_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The racing writer in one step: the file changes between its reading and the store;
    the value is kept for the content read, so the changed file is a miss (issue 26)."""
    from avecaesar.editor.cli import result_cache
    from avecaesar.engine.data.safeio import read_text, reading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("AVECAESAR_NO_CACHE", raising=False)
    course = tmp_path / "c.yaml"
    course.write_text("old", encoding="utf-8")
    with reading() as log:
        value = read_text(course, 100)
    course.write_text("new", encoding="utf-8")  # saved while the result was computed
    result_cache.store("probe", ["k"], log, value)
    assert result_cache.lookup("probe", ["k"]) is None
    course.write_text("old", encoding="utf-8")
    assert result_cache.lookup("probe", ["k"]) == "old"
    with reading() as torn:  # one file read twice with two contents: nothing is kept
        read_text(course, 100)
        course.write_text("newer", encoding="utf-8")
        read_text(course, 100)
    assert torn.torn
    result_cache.store("probe", ["k"], torn, "newer")
    assert result_cache.lookup("probe", ["k"]) is None
