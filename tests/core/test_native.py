"""The compiled hot path (avecaesar/native.py, setup.py): which flavour is loaded, and a
build that no longer matches its sources is never used."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import avecaesar.engine
from avecaesar import native

PROBE = ("import json, avecaesar.native as n, avecaesar.engine.core.board as b, "
         "avecaesar.engine.core.state as s; f = n.flavour(); "
         "print(json.dumps([f.name, f.reason, b.__file__, s.__file__]))")


def can_compile() -> bool:
    """What `make setup` needs to build the compiled flavour (its `compiler` step)."""
    include = sysconfig.get_paths()["include"]
    return shutil.which("cc") is not None and Path(include, "Python.h").exists()


def needs_a_build() -> None:
    """Skip a compiled-only test where no build was installed — no C compiler or headers,
    or a plain ``pip install -e '.[test]'`` with AVECAESAR_PURE=1 — and fail instead under
    CI (``CI`` set, as by .ci/run), where `make setup` builds it. A build that is there but
    stale or set aside is never skipped: that is what these tests catch."""
    if not can_compile():
        pytest.skip("no C compiler or Python headers: the install is pure Python")
    built = [native.COMPILED / n for n in ("manifest.json", native.BROKEN)]
    if not any(p.exists() for p in built):
        message = (f"no compiled build in {native.COMPILED} (installed pure Python, e.g. "
                   "pip install with AVECAESAR_PURE=1): `make setup` builds it")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def probe(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != native.ENV}
    if pure:
        env[native.ENV] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True)
    assert "Traceback" not in out.stderr
    return json.loads(out.stdout)


def test_pure_forced_loads_the_py_files() -> None:
    name, reason, board, state = probe(pure=True)
    assert (name, reason) == ("pure", "AVECAESAR_PURE is set")
    assert board.endswith("board.py") and state.endswith("state.py")


def test_compiled_by_default_when_a_compiler_is_there() -> None:
    needs_a_build()
    name, reason, board, state = probe(pure=False)
    assert name == "compiled", reason  # "stale" here: run `make setup` to rebuild
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for path in (board, state):  # (mypyc names the files of a group under _compiled/)
        assert Path(path).is_relative_to(native.COMPILED) and path.endswith(suffix)


def test_this_process_runs_the_flavour_asked_for() -> None:
    """The second run of `make test` (AVECAESAR_PURE=1) really is pure, the first compiled."""
    import avecaesar.engine.core.moves as moves

    if native.pure_forced():
        assert native.flavour().name == "pure" and moves.__file__.endswith(".py")
    else:
        needs_a_build()
        assert native.flavour().name == "compiled"
        assert Path(moves.__file__).is_relative_to(native.COMPILED)
        assert moves.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX"))


def _manifest(tmp: Path, source: str, content: bytes) -> dict[str, object]:
    (tmp / source).parent.mkdir(parents=True, exist_ok=True)
    (tmp / source).write_bytes(content)
    return {"ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
            "shared": {"name": "x__mypyc", "file": "x.so"},
            "modules": {"avecaesar.engine.core.board": {
                "source": source, "sha256": hashlib.sha256(b"as built").hexdigest(),
                "file": "board.so"}}}


def test_stale_reason_names_the_edited_source(tmp_path: Path) -> None:
    m = _manifest(tmp_path, "core/board.py", b"as built")
    assert native.stale_reason(m, tmp_path) is None
    (tmp_path / "core/board.py").write_bytes(b"as built, then edited")
    edited = tmp_path / "core/board.py"
    assert native.stale_reason(m, tmp_path) == f"{edited} changed since the build"
    (tmp_path / "core/board.py").unlink()
    assert "missing" in str(native.stale_reason(m, tmp_path))
    m = _manifest(tmp_path, "core/board.py", b"as built")
    assert "another Python" in str(native.stale_reason(m, tmp_path, ext_suffix=".cpython-399.so"))


def test_finder_falls_back_to_pure_with_one_warning(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A manifest whose hash does not match the real board.py: the finder finds nothing
    (the .py is loaded), warns once, and stays out of the way after."""
    engine_dir = Path(next(iter(avecaesar.engine.__path__)))
    manifest = _manifest(tmp_path, "unused.py", b"")
    manifest["modules"]["avecaesar.engine.core.board"]["source"] = "core/board.py"  # type: ignore[index]
    assert native.stale_reason(manifest, engine_dir) is not None
    monkeypatch.setattr(native, "_flavour", None)
    finder = native.CompiledFinder(tmp_path, manifest)
    with pytest.warns(RuntimeWarning, match=r"core/board\.py changed since the build"):
        assert finder.find_spec("avecaesar.engine.core.board") is None
    assert native._flavour is not None and native._flavour.name == "pure"
    assert finder.find_spec("avecaesar.engine.core.board") is None  # no second warning
    assert finder.find_spec("avecaesar.engine.core.other") is None  # not in the build


def test_smoke_race_is_the_same_compiled_and_pure() -> None:
    """`make setup` races one short race in both flavours before it says "compiled"."""
    assert native.smoke() is None


def test_smoke_catches_a_crash_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled module that segfaults at import (as one did when a dataclass field named a
    TYPE_CHECKING-only class) is seen from outside the crashing process."""
    monkeypatch.setattr(native, "SMOKE", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    problem = native.smoke()
    assert problem is not None and "compiled smoke race failed (exit -11)" in problem


def test_a_build_that_fails_its_smoke_test_is_set_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "manifest.json").write_text("{}")
    monkeypatch.setattr(native, "COMPILED", tmp_path)
    monkeypatch.setattr(native, "flavour", lambda: native.Flavour(True, "8 modules"))
    monkeypatch.setattr(native, "smoke", lambda: "the compiled smoke race failed (exit -11)")
    native.main()
    assert "engine hot path: pure (the compiled build is set aside" in capsys.readouterr().out
    assert not (tmp_path / "manifest.json").exists() and (tmp_path / native.BROKEN).exists()
