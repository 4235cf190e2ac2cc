"""The public API: every name of ``avecaesar.engine.__all__`` resolves, and docs/api.md's
example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import avecaesar.engine as engine

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_every_public_name_resolves() -> None:
    assert set(engine.__all__) == set(engine._MODULE)
    for name in engine.__all__:
        value = getattr(engine, name)
        assert value is not None
        assert name in dir(engine)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = engine.nothing


def test_the_api_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code is not None
    exec(compile(code.group(1), str(DOC), "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("dicetree-2022/hippodrom-constantinople ")
    assert out[1] == "3 laps, 3 cards in hand"
    assert len([line for line in out if line.split()[1:2] in (["Anna"], ["Ben"], ["Cleo"])]) == 3
    assert "|" in out[-1]  # the notation


def test_the_notebook_example_runs_after_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    """Every python block of docs/api.md, in order, in one namespace (a notebook's cells)."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith("<Course dicetree-2022/hippodrom-constantinople (clockwise): ")
    assert out[-1] == "<svg"
    assert str(namespace["svg"]).rstrip().endswith("</svg>")


HELP_PROBE = """
import inspect, json
import avecaesar.engine as e
import avecaesar.native as n
out = {"flavour": n.flavour().name, "names": {}}
for name in e.__all__:
    obj = getattr(e, name)
    if not (inspect.isfunction(obj) or inspect.isbuiltin(obj) or inspect.isclass(obj)):
        continue
    entry = {"doc": inspect.getdoc(obj) or "", "methods": {}}
    if callable(obj) and not inspect.isclass(obj):
        sig = inspect.signature(obj)
        entry["typed"] = sig.return_annotation is not inspect.Signature.empty
    if inspect.isclass(obj):
        for m in ("push", "legal_moves", "copy", "notation", "parse"):
            f = getattr(obj, m, None)
            if f is not None:
                entry["methods"][m] = inspect.getdoc(f) or ""
    out["names"][name] = entry
print(json.dumps(out))
"""


@pytest.mark.parametrize("pure", [False, True], ids=["as-installed", "pure"])
def test_help_shows_the_public_docstrings_and_types_in_both_flavours(pure: bool) -> None:
    """Issue 25: mypyc drops docstrings and annotations; the facade hands out documented
    names, so help(), notebooks and IDEs show the same in the compiled and pure builds."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "AVECAESAR_PURE"}
    if pure:
        env["AVECAESAR_PURE"] = "1"
    out = json.loads(subprocess.run([sys.executable, "-c", HELP_PROBE], env=env, check=True,
                                    capture_output=True, text=True, timeout=120).stdout)
    if not pure and out["flavour"] != "compiled":
        pytest.skip("no compiled build here (installed pure Python: no C compiler, or "
                    "AVECAESAR_PURE=1 at install): the pure run covers this install")
    undocumented = [n for n, e in out["names"].items() if not e["doc"]]
    assert undocumented == []
    untyped = [n for n, e in out["names"].items() if e.get("typed") is False]
    assert untyped == []
    state = out["names"]["RaceState"]["methods"]
    assert state["push"] and state["legal_moves"] and state["notation"], state
