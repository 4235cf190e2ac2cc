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


#: a build whose smoke test failed (it crashed or raced differently from pure Python) has
#: its manifest renamed to this: nothing of it is loaded
BROKEN = "manifest.broken.json"

# One short race, printed as its final position; run compiled and pure in fresh processes.
SMOKE = """
import avecaesar.native as n
from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.board import Board
from avecaesar.engine.core.race import run_race
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.course.load import load_course
from avecaesar.engine.ruleset.load import load_ruleset
import avecaesar.engine.bots.search, avecaesar.engine.core.notation
rules = rules_from_ruleset(load_ruleset("dicetree-2022", [], {}))
course = load_course("dicetree-2022/hippodrom-constantinople")
board = Board.from_graph(course.graph, course.id)
names = ["a", "b", "c"]
run = run_race(rules, board, names, [make_policy("greedy", i) for i in range(3)], 7,
               ownerless=OWNERLESS)
print(n.flavour().name, run.state.notation())
"""


def read_manifest(folder: Path = COMPILED) -> dict[str, Any] | None:
    try:
        found: dict[str, Any] = json.loads((folder / "manifest.json").read_text(
            encoding="utf-8"))
        return found
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
        _flavour = Flavour(False, "compiled build failed its smoke test at install"
                           if (COMPILED / BROKEN).exists() else
                           "not built (no C compiler, headers or mypyc at install; "
                           "`pip install -v -e .` shows why)")
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
    if manifest is None:  # a build set aside by its smoke test is retried once edited
        try:
            manifest = json.loads((COMPILED / BROKEN).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = None
    spec = find_spec(ENGINE)
    if manifest is None or spec is None or not spec.submodule_search_locations:
        return False
    return stale_reason(manifest, Path(next(iter(spec.submodule_search_locations)))) is not None


def smoke() -> str | None:
    """Race one short race compiled and pure, each in a fresh process; None when both end
    the same, else what went wrong. A crash of compiled code (a segfault at import) cannot be
    caught in the process that imports it, hence the subprocesses."""
    import subprocess

    results = []
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != ENV}
        if pure:
            env[ENV] = "1"
        try:
            out = subprocess.run([sys.executable, "-c", SMOKE], env=env, capture_output=True,
                                 text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return f"the {'pure' if pure else 'compiled'} smoke race did not end in 300 s"
        if out.returncode != 0:
            tail = (out.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
            return (f"the {'pure' if pure else 'compiled'} smoke race failed "
                    f"(exit {out.returncode}): {tail}")
        results.append(out.stdout.split(maxsplit=1))
    (compiled, race_c), (_, race_p) = results
    if compiled != "compiled":
        return None  # nothing compiled to check
    if race_c != race_p:
        return "the compiled smoke race ended differently from the pure one"
    return None


def main() -> None:
    """Print the flavour and why (`make setup` runs it). A compiled build is smoke-tested
    first; one that fails is set aside (its manifest renamed), so pure Python runs."""
    f = flavour()
    if f.compiled:
        problem = smoke()
        if problem is not None:
            (COMPILED / "manifest.json").replace(COMPILED / BROKEN)
            print(f"engine hot path: pure (the compiled build is set aside: {problem}; "
                  "please report it)")
            return
    print(f"engine hot path: {f.name} ({f.reason})")


# --- docstrings of the compiled public API --------------------------------------------
# mypyc drops docstrings and annotations: a compiled function's __doc__ is None and its
# signature has no types, so help(), notebooks and `?` show nothing. The engine's facade
# (avecaesar.engine) hands out its names through `documented()`, which gives a compiled
# function a thin Python wrapper carrying the docstring and the signature of its source, and
# a compiled class its docstring and documented wrappers of its public methods. Code inside
# the compiled group calls its functions natively and never sees the wrappers.

def _source_defs(module: ModuleType) -> dict[str, Any]:
    """The ``def``/``class`` nodes of the module's .py source by dotted name (``f``,
    ``C``, ``C.m``); empty when the source is missing."""
    import ast

    rel = module.__name__.removeprefix(ENGINE + ".").replace(".", "/") + ".py"
    engine = sys.modules.get(ENGINE)
    if engine is None or not getattr(engine, "__path__", None):
        return {}
    try:
        tree = ast.parse((Path(next(iter(engine.__path__))) / rel).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return {}
    out: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out[node.name] = node
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    out[f"{node.name}.{item.name}"] = item
    return out


def _signature(node: Any) -> Any:
    """An ``inspect.Signature`` of a ``def`` node, annotations and defaults as written."""
    import ast
    import inspect

    P = inspect.Parameter
    args = node.args
    params = []
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults, strict=True)):
        kind = P.POSITIONAL_ONLY if i < len(args.posonlyargs) else P.POSITIONAL_OR_KEYWORD
        params.append(P(arg.arg, kind, annotation=ast.unparse(arg.annotation)
                        if arg.annotation else P.empty,
                        default=_Default(ast.unparse(default)) if default else P.empty))
    if args.vararg:
        params.append(P(args.vararg.arg, P.VAR_POSITIONAL))
    for arg, kw in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append(P(arg.arg, P.KEYWORD_ONLY, annotation=ast.unparse(arg.annotation)
                        if arg.annotation else P.empty,
                        default=_Default(ast.unparse(kw)) if kw else P.empty))
    if args.kwarg:
        params.append(P(args.kwarg.arg, P.VAR_KEYWORD))
    ret = ast.unparse(node.returns) if node.returns else inspect.Signature.empty
    return inspect.Signature(params, return_annotation=ret)


class _Default:
    """A default value shown as its source text (``seats=None``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _documented_function(native: Any, node: Any, qualname: str) -> Any:
    import ast
    import functools

    @functools.wraps(native)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return native(*args, **kwargs)

    wrapper.__doc__ = ast.get_docstring(node)
    wrapper.__signature__ = _signature(node)  # type: ignore[attr-defined]
    wrapper.__qualname__ = qualname
    return wrapper


def documented(value: Any, module_name: str) -> Any:
    """``value`` (a name the facade exports from ``module_name``) as help() should see it:
    itself in pure Python, a documented wrapper (or class) when the module is compiled."""
    import ast

    # the module that defines it (a name may be re-exported by another module)
    module = sys.modules.get(getattr(value, "__module__", None) or module_name)
    if module is None or not str(getattr(module, "__file__", "")).startswith(str(COMPILED)):
        return value
    defs = _source_defs(module)
    name = getattr(value, "__name__", "")
    node = defs.get(name)
    if isinstance(value, type) and node is not None:
        if getattr(value, "_documented", False):
            return value
        value.__doc__ = ast.get_docstring(node)
        for key, sub in defs.items():
            cls, _, meth = key.partition(".")
            if cls != name or not meth or meth.startswith("_"):
                continue
            native = value.__dict__.get(meth)
            if callable(native) and type(native).__name__ in ("method_descriptor",
                                                              "builtin_function_or_method"):
                setattr(value, meth, _documented_function(native, sub, f"{name}.{meth}"))
        value._documented = True  # type: ignore[attr-defined]  # a mark on the class
        return value
    if callable(value) and node is not None and getattr(value, "__doc__", None) is None:
        return _documented_function(value, node, name)
    return value
