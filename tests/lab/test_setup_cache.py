"""The simulation's setup cache (issue 24, part 4): rules and board kept by the content they
are built from (never a path), loaded warm, and never a cause of a wrong board or an error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from avecaesar.engine.lab import setup_cache
from avecaesar.engine.lab.simulate import _SETUPS, SimSpec, _setup, _spec_key, simulate

VALID = Path(__file__).resolve().parents[1] / "course" / "valid"


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("AVECAESAR_NO_CACHE", raising=False)
    _SETUPS.clear()
    yield tmp_path / "cache" / "avecaesar" / "setup"
    _SETUPS.clear()


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.exists() else []


def test_a_cached_setup_races_exactly_as_a_built_one(cache_home: Path) -> None:
    spec = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 6, 20, seed=3)
    built = simulate(spec)  # builds, stores, and stores again warm after racing
    assert len(_entries(cache_home)) == 1
    _rules, board = setup_cache.load(_spec_key(spec))  # type: ignore[misc]
    assert len(board._moves) > 0  # the walk tables' moves came along: a warm start
    _SETUPS.clear()
    assert simulate(spec).to_json() == built.to_json()


def test_the_key_is_the_content_not_the_path(tmp_path: Path, cache_home: Path) -> None:
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(VALID / "oval.yaml", folder / "oval.yaml")
        _setup(_spec_key(SimSpec("dicetree-2022", str(folder / "oval.yaml"), 3, 1)))
    assert len(_entries(cache_home)) == 1  # the same content in two folders: one entry
    changed = tmp_path / "two" / "oval.yaml"
    changed.write_text(changed.read_text() + "\n# edited\n")
    key = _spec_key(SimSpec("dicetree-2022", str(changed), 3, 1))
    assert setup_cache.load(key) is None  # new content: a miss
    _SETUPS.clear()  # (a process keeps what it built for the whole run)
    _setup(key)
    assert len(_entries(cache_home)) == 2


def test_an_edited_module_is_a_miss(tmp_path: Path) -> None:
    for name in ("composed.yaml", "modules.yaml"):
        shutil.copy(VALID / name, tmp_path / name)
    keep = (("disqualification.keeps_place", "true"),)
    key = _spec_key(SimSpec("pro-ludo-2006", str(tmp_path / "composed.yaml"), 3, 1,
                            settings=keep))
    _setup(key)
    assert setup_cache.load(key) is not None
    module = tmp_path / "modules.yaml"
    module.write_text(module.read_text() + "\n# edited\n")
    assert setup_cache.load(key) is None


def test_a_corrupt_entry_is_a_miss_and_off_means_off(cache_home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    spec = SimSpec("dicetree-2022", "dicetree-2022/circus-maximus", 4, 2)
    _setup(_spec_key(spec))
    (entry,) = _entries(cache_home)
    entry.write_bytes(b'{"includes": {}}\nnot a pickle')
    assert setup_cache.load(_spec_key(spec)) is None
    _SETUPS.clear()
    assert simulate(spec).races == 2  # rebuilt, no error
    shutil.rmtree(cache_home)
    monkeypatch.setenv("AVECAESAR_NO_CACHE", "1")
    _SETUPS.clear()
    simulate(spec)
    assert _entries(cache_home) == []


def test_a_truncated_entry_is_a_miss_but_a_bug_is_not_hidden(
        cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache turns what a bad entry or folder raises into a miss — and nothing else: an
    error of the code itself still surfaces."""
    spec = SimSpec("dicetree-2022", "dicetree-2022/circus-maximus", 4, 2)
    _setup(_spec_key(spec))
    (entry,) = _entries(cache_home)
    entry.write_bytes(entry.read_bytes()[:-200])  # cut short while being copied
    assert setup_cache.load(_spec_key(spec)) is None
    entry.write_bytes(b"")
    assert setup_cache.load(_spec_key(spec)) is None

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug in the code that reads or writes an entry")

    entry.write_bytes(b'{"includes": {}}\nwhatever')
    monkeypatch.setattr(setup_cache.pickle, "loads", broken)
    with pytest.raises(RuntimeError, match="a bug in the code"):
        setup_cache.load(_spec_key(spec))
    rules, board = _setup(_spec_key(spec))
    monkeypatch.setattr(setup_cache.pickle, "dumps", broken)
    with pytest.raises(RuntimeError, match="a bug in the code"):
        setup_cache.store(_spec_key(spec), rules, board, [])
