"""The pictures in docs/boards/ and docs/img/ are current (issue 34): tools/docs_images.py
``--check`` — each picture's inputs digest as recorded in docs/images.json, its bytes as
written, no file that no command makes. ``make docs`` remakes what is stale; no test writes
into docs/ (the browser tests' screenshots went to tools/web_screenshots.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("docs_images",
                                                  ROOT / "tools" / "docs_images.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pictures_in_docs_are_current(tool, capsys) -> None:
    code = tool.main(["--check"])
    out = capsys.readouterr().out
    assert code == 0, out


def _job(tool, files: tuple[str, ...]):
    return tool.Job("boards", "avecaesar course render …", files, lambda _s: "in",
                    lambda: None)


def test_a_stale_missing_overwritten_or_stray_picture_is_named(tool, tmp_path: Path,
                                                                monkeypatch) -> None:
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "MANIFEST", tmp_path / "docs" / "images.json")
    img = tmp_path / "docs" / "img"
    img.mkdir(parents=True)
    (tmp_path / "docs" / "boards").mkdir()
    for name in ("a.png", "b.png", "c.png", "stray.png"):
        (img / name).write_bytes(name.encode())
    sha = tool._sha
    manifest = {"docs/img/a.png": {"inputs": "in", "sha256": sha(b"a.png")},
                "docs/img/b.png": {"inputs": "old", "sha256": sha(b"b.png")},
                "docs/img/c.png": {"inputs": "in", "sha256": sha(b"what make docs wrote")},
                "docs/img/d.png": {"inputs": "in", "sha256": sha(b"d.png")}}
    job = _job(tool, ("docs/img/a.png", "docs/img/b.png", "docs/img/c.png",
                      "docs/img/d.png"))
    why = tool.stale(job, "in", manifest)
    assert why == ["docs/img/b.png: what it is made from changed since "
                   "(avecaesar course render …)",
                   "docs/img/c.png: not the bytes `make docs` wrote (edited or overwritten)",
                   "docs/img/d.png: missing"]
    assert tool.stale(_job(tool, ("docs/img/a.png",)), "in", manifest) == []
    assert tool.stale(_job(tool, ("docs/img/a.png",)), "in", {}) == [
        "docs/img/a.png: not in docs/images.json"]
    strays = tool.strays([job])
    assert len(strays) == 1 and strays[0].startswith("docs/img/stray.png: no command makes")


def test_the_charts_are_made_by_the_commands_the_docs_show(tool) -> None:
    text = " ".join((ROOT / "docs" / "simulation.md").read_text(encoding="utf-8")
                    .replace("\\\n", " ").split())
    for ruleset, course in tool.CHARTS:
        command = " ".join(["avecaesar", *tool._chart_args(ruleset, course, tool.CHART_RACES,
                                                           Path("docs/img"))])
        assert command in text, command


def test_the_manifest_lists_only_files_in_the_two_folders() -> None:
    files = json.loads((ROOT / "docs" / "images.json").read_text(encoding="utf-8"))["files"]
    assert files and all(f.startswith(("docs/boards/", "docs/img/")) for f in files)
