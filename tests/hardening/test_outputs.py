"""Outputs are written whole or not at all (issue 26): a unique temporary name beside the
target (never a fixed ``.tmp``: an unrelated ``game.tmp`` is never touched), removed on every
failure path — an error, Ctrl-C, a disk that fills up in the middle of the write."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.data import safeio
from avecaesar.engine.data.errors import UsageError

runner = CliRunner()
OVAL = Path(__file__).parents[1] / "core" / "courses" / "oval.yaml"

# every command that writes a file, with the file it writes (in the working folder)
WRITERS = {
    "race --record": (["race", "-r", "2022", "-c", "oval.yaml", "-n", "6", "--seed", "3",
                       "--record", "game.jsonl"], "game.jsonl"),
    "course render -o": (["course", "render", "oval.yaml", "-o", "game.svg"], "game.svg"),
    "course dump -o": (["course", "dump", "oval.yaml", "-o", "game.json"], "game.json"),
    "course new -o": (["course", "new", "X", "-o", "game.yaml"], "game.yaml"),
    "simulate --json": (["simulate", "-r", "2022", "-c", "oval.yaml", "-k", "20", "--quiet",
                         "--workers", "1", "--json", "game.json"], "game.json"),
    "tournament --record": (["tournament", "-r", "2022", "-n", "3", "--record", "game.json"],
                            "game.json"),
}
PLAY = ["play", "-r", "2022", "-c", "oval.yaml", "--humans", "Ann", "--players", "6",
        "--seed", "1", "--record", "game.jsonl"]


def _sentinels(folder: Path, target: str) -> dict[str, str]:
    """Files a fixed temporary name would hit: ``game.tmp``, ``game.jsonl.tmp``, …"""
    stem = target.rsplit(".", 1)[0]
    names = [f"{stem}.tmp", f"{target}.tmp", f".{target}.tmp", f"{target}~"]
    for n in names:
        (folder / n).write_text(f"unrelated {n}", encoding="utf-8")
    return {n: f"unrelated {n}" for n in names}


@pytest.mark.parametrize("writer", [*WRITERS, "play --record"])
def test_an_unrelated_tmp_file_is_never_touched(tmp_path: Path, monkeypatch, writer: str
                                                ) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(OVAL, tmp_path / "oval.yaml")
    args, target = WRITERS.get(writer, (PLAY, "game.jsonl"))
    kept = _sentinels(tmp_path, target)
    res = runner.invoke(app, args, input="1\n" * 200 if writer == "play --record" else None)
    assert res.exit_code in (0, 1), res.output  # play: the input may end first
    assert (tmp_path / target).is_file()
    for name, text in kept.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text, name
    assert {p.name for p in tmp_path.iterdir()} == {"oval.yaml", target, *kept}


def test_temporary_names_are_unique_and_removed_on_failure(tmp_path: Path,
                                                           monkeypatch) -> None:
    target = tmp_path / "out.json"
    seen: list[str] = []
    real = os.replace

    def replace(src: str, dst: object) -> None:
        seen.append(os.path.basename(src))
        if len(seen) == 2:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    safeio.write_atomic(target, "one")
    with pytest.raises(UsageError, match="No space left on device"):
        safeio.write_atomic(target, "two")
    assert seen[0] != seen[1] and all(s.startswith(".out.json.") for s in seen)
    assert target.read_text(encoding="utf-8") == "one"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        safeio.write_atomic(target, "three")
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


@pytest.fixture()
def small_disk(tmp_path: Path):
    """A 64 KB tmpfs (root only), filled but for ``free`` bytes by the test."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {res.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def _fill(disk: Path, free: int) -> None:
    """Fill ``disk`` up, then free ``free`` bytes (in whole pages)."""
    n = 0
    while True:
        try:
            (disk / f"filler-{n}").write_bytes(b"x" * 4096)
        except OSError:
            (disk / f"filler-{n}").unlink(missing_ok=True)
            break
        n += 1
    for i in range(free // 4096):
        (disk / f"filler-{n - 1 - i}").unlink()


@pytest.mark.parametrize("free", [0, 8192], ids=["full", "fills-while-writing"])
def test_a_full_disk_leaves_nothing_half_written(small_disk: Path, free: int) -> None:
    shutil.copy(OVAL, small_disk.parent / "oval.yaml")
    _fill(small_disk, free)
    before = {p.name for p in small_disk.iterdir()}
    writers = {**WRITERS, "play --record": (PLAY, "game.jsonl")}
    failed = 0
    for name, (args, target) in writers.items():
        args = [str(small_disk.parent / "oval.yaml") if a == "oval.yaml" else a for a in args]
        res = subprocess.run([sys.executable, "-m", "avecaesar.editor", *args],
                             cwd=small_disk, capture_output=True, text=True,
                             input="1\n" * 200, timeout=300)
        out = small_disk / target
        assert "Traceback" not in res.stderr, (name, res.stderr)
        if res.returncode == 0:  # it fitted: then whole
            text = out.read_text(encoding="utf-8")
            if target.endswith(".json"):
                json.loads(text)
            out.unlink()
        else:
            # an output that cannot be written is exit 2 (the table); play's too (issue 38)
            assert res.returncode == 2, (name, res.returncode, res.stderr)
            assert "No space left on device" in res.stderr, (name, res.stderr)
            failed += 1
            if name != "play --record":  # play keeps the record of the turns saved so far
                assert not out.exists(), name
            elif out.exists():
                assert out.read_text(encoding="utf-8").endswith("\n")
                out.unlink()
        assert {p.name for p in small_disk.iterdir()} == before, name  # no temporary file
    # a full disk refuses every output; 8 KB free, the larger ones fail in mid-write
    assert failed == len(writers) if free == 0 else failed >= 2, failed
