"""Build step for the compiled hot path (docs/performance.md, "Compiled hot path").

Everything else about the package is in pyproject.toml. This file only adds one build
command: the engine's hot modules (NATIVE below) are compiled with mypyc into
`avecaesar/_compiled/`, apart from their .py files, with `manifest.json` naming the
SHA-256 of each source they were built from. At import `avecaesar.native` uses a compiled
module only when every source still has that hash, so an edited .py is never shadowed by a
stale build (it falls back to pure Python with one warning).

The build must never make the install fail: without a C compiler, Python's headers or
mypyc, or when anything in the compile step fails, it prints one line and the package
installs pure Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# setuptools ends every editable install made with its meta-path finder (the layout maps
# engine/, editor/, … under the one package `avecaesar`, which needs it) with a notice,
# "Editable installation. Please be careful with folders in your working directory with the
# same name as your package". The repository has no top-level `avecaesar/` folder, so it
# never applies here; left on, it is the only warning `make setup` prints (issue 12).
warnings.filterwarnings("ignore", message="Editable installation")
# The modules compiled together (one mypyc group; all or none of them are used), as paths
# under engine/, in the order of their imports (docs/architecture.md).
NATIVE = [
    "course/alley_window.py",
    "course/race_distance.py",
    "core/types.py",
    "core/board.py",
    "core/effects.py",
    "core/rule_values.py",
    "core/position.py",
    "core/conditions.py",
    "core/apply_effects.py",
    "core/notation.py",
    "core/moves.py",
    "core/state.py",
    "core/ruleset_adapter.py",
    "core/race.py",
    "bots/search.py",
    "bots/policies.py",
    "bots/rollout.py",
    "bots/expert_value.py",
    "lab/race_loop.py",
]
GROUP = "avecaesar_native"  # mypyc's shared library: avecaesar_native__mypyc
OUT = Path("avecaesar", "_compiled")  # inside the package, apart from the .py files
PLACEHOLDER = f"{GROUP}__mypyc"


def module_name(rel: str) -> str:
    return "avecaesar.engine." + rel.removesuffix(".py").replace("/", ".")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def say(message: str) -> None:
    print(f"avecaesar: {message}", file=sys.stderr, flush=True)


class NativeBuildExt(build_ext):
    """Compiles NATIVE with mypyc; on any failure, builds nothing and says why in one line."""

    def run(self) -> None:
        # a previous build (in build/ from an earlier `pip wheel .`, or in src/ from an
        # editable install) goes, whatever follows: a failed build must ship none of it
        shutil.rmtree(Path(self.build_lib) / OUT, ignore_errors=True)
        if self.inplace:
            shutil.rmtree(ROOT / "src" / OUT, ignore_errors=True)
        if os.environ.get("AVECAESAR_PURE", "") not in ("", "0"):
            say("AVECAESAR_PURE is set: not compiling, the package stays pure Python")
            self.extensions = []
            return
        try:
            self.extensions = self._mypyc_extensions()
            for ext in self.extensions:  # what build_ext's finalize_options sets per extension
                ext._full_name = self.get_ext_fullname(ext.name)
                ext._links_to_dynamic = ext._needs_stub = False
                ext._file_name = self.compiled_file(ext._full_name)
                self.ext_map[ext._full_name] = ext
            if self.inplace:
                (ROOT / "src" / OUT).mkdir(parents=True, exist_ok=True)
            super().run()
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error: still pure
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            first = first if len(first) <= 120 else first[:117] + "..."
            say(f"compiling the hot path failed ({type(exc).__name__}: {first}); "
                "installing pure Python")
            self.extensions = []
            return
        self._write_manifest()

    def _mypyc_extensions(self) -> list[Extension]:
        include = sysconfig.get_paths()["include"]
        if not Path(include, "Python.h").exists():
            raise RuntimeError(f"Python's headers are missing ({include}/Python.h)")
        from mypyc.build import mypycify

        # mypy names modules after their folders: lay the sources out as the installed
        # package (avecaesar/engine/...), as pyproject's package-dir maps them.
        stage = Path(tempfile.mkdtemp(prefix="avecaesar-mypyc-"))
        pkg = stage / "avecaesar"
        pkg.mkdir()
        shutil.copy(ROOT / "src" / "avecaesar" / "__init__.py", pkg / "__init__.py")
        shutil.copytree(ROOT / "engine", pkg / "engine",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        ini = stage / "mypy.ini"
        ini.write_text("[mypy]\nignore_missing_imports = True\nfollow_imports = silent\n")
        target = Path(self.build_temp).resolve() / "mypyc"
        paths = [str(pkg / "engine" / rel) for rel in NATIVE]
        # the hashes of what mypyc compiles (the staged copy), not of the sources when the
        # build ends: a source edited during the build must read as stale, not as built
        self._built_hashes = {rel: sha256(pkg / "engine" / rel) for rel in NATIVE}
        here = Path.cwd()
        os.chdir(stage)  # mypyc writes its C files relative to the working folder
        try:
            exts = mypycify([f"--config-file={ini}", *paths], group_name=GROUP,
                            target_dir=str(target), opt_level="3")
        finally:
            os.chdir(here)
            shutil.rmtree(stage, ignore_errors=True)  # the C files are in build_temp
        return exts

    @staticmethod
    def compiled_file(fullname: str) -> str:
        # every compiled module lands in avecaesar/_compiled/, named by its full name, so
        # none sits next to (and shadows) its .py file
        return str(OUT / f"{fullname}{sysconfig.get_config_var('EXT_SUFFIX')}")

    def get_ext_fullpath(self, ext_name: str) -> str:
        return os.path.join(self.build_lib, self.compiled_file(self.get_ext_fullname(ext_name)))

    def _get_inplace_equivalent(self, build_py, ext: Extension) -> tuple[str, str]:
        # editable installs copy the build into the source tree: into src/avecaesar/_compiled
        filename = self.compiled_file(self.get_ext_fullname(ext.name))
        return str(ROOT / "src" / filename), os.path.join(self.build_lib, filename)

    def _write_manifest(self) -> None:
        modules = {}
        for rel in NATIVE:
            name = module_name(rel)
            modules[name] = {"source": rel, "sha256": self._built_hashes[rel],
                             "file": Path(self.compiled_file(name)).name}
        manifest = {
            "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
            "shared": {"name": PLACEHOLDER,
                       "file": Path(self.compiled_file(PLACEHOLDER)).name},
            "modules": modules,
        }
        text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
        for base in [Path(self.build_lib)] + ([ROOT / "src"] if self.inplace else []):
            (base / OUT).mkdir(parents=True, exist_ok=True)
            (base / OUT / "manifest.json").write_text(text)
        say(f"compiled {len(NATIVE)} hot-path modules with mypyc")

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        if self.extensions:
            outputs.append(os.path.join(self.build_lib, str(OUT / "manifest.json")))
        return outputs


# A placeholder so that setuptools runs build_ext (and tags the wheel for the platform);
# NativeBuildExt replaces it with mypyc's extensions when it runs.
setup(
    ext_modules=[Extension(PLACEHOLDER, sources=[], optional=True)],
    cmdclass={"build_ext": NativeBuildExt},
)
