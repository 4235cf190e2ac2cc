"""Which flavour of the engine's hot path runs: compiled (mypyc) or pure Python.

`make setup` (`pip install`) compiles the hot modules (setup.py's NATIVE) into
`avecaesar/_compiled/`, away from their .py files, with `manifest.json`: for each module
the SHA-256 of the source it was built from. `install()`, run by `avecaesar/__init__.py`,
puts a finder first on `sys.meta_path` that loads those modules from `_compiled/` only when
every listed source still has its hash; an edited .py (or a build for another Python) means
pure Python for all of them — they are compiled as one group and call each other natively,
so it is all or none — with one warning that names the file and how to rebuild.

`AVECAESAR_PURE=1` forces pure Python. `flavour()` says which flavour runs and why;
`python -c 'import avecaesar.native as n; n.main()'` prints it.
No imports from the rest of the package.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
import warnings
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any

ENV = "AVECAESAR_PURE"
COMPILED = Path(__file__).resolve().parent / "_compiled"
ENGINE = "avecaesar.engine"


@dataclass(frozen=True)
class Flavour:
    compiled: bool
    reason: str  # why pure, or what is compiled

    @property
    def name(self) -> str:
        return "compiled" if self.compiled else "pure"


_flavour: Flavour | None = None


def pure_forced() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def read_manifest(folder: Path = COMPILED) -> dict[str, Any] | None:
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def stale_reason(manifest: dict[str, Any], engine_dir: Path,
                 ext_suffix: str | None = None) -> str | None:
    """None when the build in `manifest` matches the sources under `engine_dir` and this
    Python; else what does not match, in words."""
    suffix = ext_suffix if ext_suffix is not None else sysconfig.get_config_var("EXT_SUFFIX")
    if manifest.get("ext_suffix") != suffix:
        return f"built for another Python ({manifest.get('ext_suffix')}, this is {suffix})"
    for entry in manifest["modules"].values():
        source = engine_dir / entry["source"]
        try:
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return f"{source} is missing"
        if digest != entry["sha256"]:
            return f"{source} changed since the build"
    return None


class CompiledFinder(MetaPathFinder):
    """Finds the compiled modules of one checked build; everything else is left to the
    other finders. The check runs once, at the first import of a compiled module."""

    def __init__(self, folder: Path, manifest: dict[str, Any]) -> None:
        self.folder = folder
        self.files = {name: e["file"] for name, e in manifest["modules"].items()}
        self.files[manifest["shared"]["name"]] = manifest["shared"]["file"]
        self.manifest = manifest
        self.ok: bool | None = None

    def _check(self) -> bool:
        global _flavour
        engine = sys.modules.get(ENGINE)
        if engine is None or not getattr(engine, "__path__", None):
            return False  # not yet known where the sources are: leave this import alone
        reason = stale_reason(self.manifest, Path(next(iter(engine.__path__))))
        if reason is None:
            _flavour = Flavour(True, f"{len(self.manifest['modules'])} modules from "
                                     f"{self.folder}")
            self.ok = True
        else:
            _flavour = Flavour(False, f"compiled build not used: {reason}")
            # one line, not pointing into the import machinery: "avecaesar:0: RuntimeWarning: …"
            warnings.warn_explicit(f"the compiled hot path is not used, {reason}; running "
                                   "pure Python (rebuild: make setup, or pip install -e .)",
                                   RuntimeWarning, "avecaesar", 0)
            self.ok = False
        return self.ok

    def find_spec(self, fullname: str, path: Any = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None or self.ok is False or (self.ok is None and not self._check()):
            return None
        location = str(self.folder / file)
        return spec_from_file_location(fullname, location,
                                       loader=ExtensionFileLoader(fullname, location))


def install() -> None:
    """Put the finder in place (once), unless pure Python is forced or nothing is built."""
    global _flavour
    if _flavour is not None or any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        return
    if pure_forced():
        _flavour = Flavour(False, f"{ENV} is set")
        return
    manifest = read_manifest()
    if manifest is None:
        _flavour = Flavour(False, "not built (no C compiler, headers or mypyc at install)")
        return
    sys.meta_path.insert(0, CompiledFinder(COMPILED, manifest))


def flavour() -> Flavour:
    """Which flavour runs. Imports the engine's core so that the check has run."""
    import avecaesar.engine.core.types  # noqa: F401 - triggers the finder's check

    if _flavour is None:
        return Flavour(False, "no finder installed")
    return _flavour


def needs_rebuild() -> bool:
    """True when a build is installed and no longer matches the sources (`make setup` then
    reinstalls); False when it matches, or when nothing was built (no compiler)."""
    from importlib.util import find_spec

    manifest = read_manifest()
    spec = find_spec(ENGINE)
    if manifest is None or spec is None or not spec.submodule_search_locations:
        return False
    return stale_reason(manifest, Path(next(iter(spec.submodule_search_locations)))) is not None


def main() -> None:
    """Print the flavour and why (`make setup` runs it)."""
    f = flavour()
    print(f"engine hot path: {f.name} ({f.reason})")
