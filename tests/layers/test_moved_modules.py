"""Issue 25: the renamed modules stay importable for one release, each giving the new module
with a DeprecationWarning that names its new path."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from avecaesar.moved import MOVED

PACKAGES = {"avecaesar.editor.render", "avecaesar.editor.table"}  # rooms now, not aliases


def test_an_old_path_gives_the_new_module_with_a_warning() -> None:
    olds = sorted(set(MOVED) - PACKAGES)
    code = ("import importlib, json, warnings\n"
            "out = {}\n"
            f"for old in {olds!r}:\n"
            "    with warnings.catch_warnings(record=True) as w:\n"
            "        warnings.simplefilter('always')\n"
            "        m = importlib.import_module(old)\n"
            "    out[old] = [m.__name__, [str(x.message) for x in w]]\n"
            "print(json.dumps(out))")
    # a fresh process: no module is imported under its new name before its old one
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, check=True, timeout=120).stdout)
    for old in olds:
        name, warned = out[old]
        assert name == MOVED[old], old
        assert any(MOVED[old] in w for w in warned), (old, warned)


def test_every_new_path_exists_and_no_old_file_is_left() -> None:
    for old, new in MOVED.items():
        importlib.import_module(new)
        if old not in PACKAGES:  # found by the alias, not by a file left behind
            spec = importlib.util.find_spec(old)
            assert spec is not None and type(spec.loader).__name__ == "_Alias", old
