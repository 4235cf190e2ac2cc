"""Benchmark the CLI's start-up; prints its figures.

For each command, a fresh process is started ``--repeat`` times; the CPU time (user +
system, of the child, from ``getrusage``) and the wall time are measured and the median is
printed. Also lists which heavy modules ``import avecaesar.editor.main`` loads.

Targets (issue 13): ``avecaesar --help`` and ``avecaesar course list`` under 0.15 s of CPU;
``course validate`` of a bundled course under 0.3 s wall; heavy modules imported only by the
commands that use them. ``course list`` and ``course validate`` are measured warm (their
figures in the result cache, a fresh folder per run of this script, filled by the first
run) and cold (``AVECAESAR_NO_CACHE=1``: computed every time).

With ``--baseline REF`` (e.g. 0e4d942, main before this work) each command also runs in
that commit's tree (exported as bench/bench_side_by_side.py does), alternating with this
tree run by run, both started the same way (``python -c`` calling the console entry point,
``PYTHONPATH`` to the tree); the medians and their ratio are printed.

Run: .venv/bin/python bench/bench_startup.py [--repeat 7] [--baseline 0e4d942]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
CLI = str(BIN / "avecaesar")

VALIDATE = [CLI, "course", "validate", "dicetree-2022/hippodrom-constantinople"]
NO_CACHE = {"AVECAESAR_NO_CACHE": "1"}
COMMANDS: list[tuple[str, list[str], dict[str, str]]] = [
    ("python -c pass (the floor)", [sys.executable, "-c", "pass"], {}),
    ("import avecaesar.editor.main", [sys.executable, "-c", "import avecaesar.editor.main"], {}),
    ("avecaesar --help", [CLI, "--help"], {}),
    ("avecaesar course --help", [CLI, "course", "--help"], {}),
    ("avecaesar course list (warm: cached figures)", [CLI, "course", "list"], {}),
    ("avecaesar course list (cold: AVECAESAR_NO_CACHE=1)", [CLI, "course", "list"], NO_CACHE),
    ("avecaesar course validate dicetree-2022/hippodrom-constantinople (warm)", VALIDATE, {}),
    ("  same, cold (AVECAESAR_NO_CACHE=1)", VALIDATE, NO_CACHE),
    ("avecaesar ruleset list", [CLI, "ruleset", "list"], {}),
]

HEAVY = ("networkx", "jsonschema", "graphviz", "starlette", "uvicorn", "dask", "yaml",
         "avecaesar.engine.core.race", "avecaesar.engine.lab.simulate",
         "avecaesar.engine.course.load")


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env={**os.environ, "COLUMNS": "100", **env})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def heavy_modules() -> list[str]:
    """The heavy modules that importing the CLI loads."""
    code = ("import sys, avecaesar.editor.main; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return out.split()


ENTRY = ("import sys; sys.argv[0] = 'avecaesar'; "
         "from avecaesar.editor.main import main; main()")


def side_by_side(ref: str, repeat: int) -> None:
    """Each CLI command in the baseline tree and in this one, alternating; medians, ratio."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_side_by_side import baseline_tree, package_links, this_tree_links

    base = baseline_tree(ref)
    trees = {"baseline": package_links(base / "tree", base / "path"),
             "this tree": this_tree_links()}
    print(f"side by side with {ref}: CPU s / wall s, median of {repeat} alternating runs each")
    print(f"{'command':64} {'baseline':>15} {'this tree':>15} {'CPU ratio':>9}")
    for name, cmd, env in COMMANDS[2:]:
        caches = {t: tempfile.mkdtemp(prefix="avecaesar-bench-cache-") for t in trees}
        runs: dict[str, list[tuple[float, float]]] = {t: [] for t in trees}
        for i in range(repeat + 1):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for t in order:
                got = measure([sys.executable, "-c", ENTRY, *cmd[1:]],
                              {"PYTHONPATH": str(trees[t]), "XDG_CACHE_HOME": caches[t],
                               **env})
                if i:  # the first round warms the file cache and the result cache
                    runs[t].append(got)
        for folder in caches.values():
            shutil.rmtree(folder, ignore_errors=True)
        med = {t: (statistics.median(r[0] for r in runs[t]),
                   statistics.median(r[1] for r in runs[t])) for t in trees}
        b, h = med["baseline"], med["this tree"]
        print(f"{name[:64]:64} {b[0]:7.3f}/{b[1]:7.3f} {h[0]:7.3f}/{h[1]:7.3f} "
              f"{h[0] / b[0]:9.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--baseline", help="also run each command in this commit's tree")
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.repeat)
        return
    print(f"start-up, median of {args.repeat} fresh processes (CPU = user + system)")
    print(f"{'command':74} {'CPU s':>7} {'wall s':>7}")
    cache = tempfile.mkdtemp(prefix="avecaesar-bench-cache-")  # the result cache, this run's
    for name, cmd, env in COMMANDS:
        env = {"XDG_CACHE_HOME": cache, **env}
        measure(cmd, env)  # warm the file cache (and the result cache)
        runs = [measure(cmd, env) for _ in range(args.repeat)]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        print(f"{name:74} {cpu:7.3f} {wall:7.3f}")
    shutil.rmtree(cache, ignore_errors=True)
    loaded = heavy_modules()
    print("heavy modules loaded by `import avecaesar.editor.main`: "
          + (", ".join(loaded) if loaded else "none"))


if __name__ == "__main__":
    main()
