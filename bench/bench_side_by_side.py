"""Race speed of this tree against a baseline commit, measured side by side; prints both
figures and their ratio.

The machine is shared, so absolute times drift from one minute to the next; a ratio of two
figures measured in the same minutes does not. This script exports the baseline commit
(``--baseline REF``, default 0e4d942: main before the speed work of issue 13) into a
folder under the temp dir with ``git archive`` (kept and reused by later runs; no git
worktree is registered) and then alternates between the two trees, round after round —
baseline, this tree, this tree, baseline, … — each run a fresh Python process importing
``avecaesar`` from its own tree (``PYTHONPATH`` to a folder of links that maps the
checkout's layout to the package, as the wheel does).

Each run calls only the public library API that every version has: ``simulate`` with a
``SimSpec`` (6 greedy chariots, Hippodrom-Constantinople, 2022 rules, one worker). It first
runs ``--warm`` races (the rules and board built, their tables filled; not timed), then
times ``--races`` races of another seed and prints races/s and turns/s by CPU time of the
process (``time.process_time``, less sensitive to other processes than wall time; the wall
figure is printed too). The summary gives each tree's median and the ratio of the medians,
and the median of the per-round ratios.

Run: .venv/bin/python bench/bench_side_by_side.py [--baseline REF] [--rounds 5]
     [--races 300] [--warm 100]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "0e4d942"
# the checkout's folders and where the wheel puts them (pyproject.toml, package-dir)
LAYOUT = {"engine": "engine", "editor": "editor", "rulesets": "rulesets",
          "courses": "courses", "schemas": "schemas"}

CHILD = r"""
import json, sys, time
from avecaesar.engine.lab.simulate import SimSpec, simulate
races, warm = int(sys.argv[1]), int(sys.argv[2])
course, ruleset = "dicetree-2022/hippodrom-constantinople", "dicetree-2022"
if warm:
    simulate(SimSpec(ruleset, course, 6, warm, 999), workers=1)
spec = SimSpec(ruleset, course, 6, races, 1)
c0, t0 = time.process_time(), time.perf_counter()
report = simulate(spec, workers=1)
cpu, wall = time.process_time() - c0, time.perf_counter() - t0
import avecaesar.engine.lab.simulate as m
print(json.dumps({"cpu": cpu, "wall": wall, "turns": report.turns_mean * report.races,
                  "module": m.__file__,
                  "report": json.dumps(report.to_json(), sort_keys=True)}))
"""


def package_links(tree: Path, into: Path) -> Path:
    """A folder holding ``avecaesar/`` whose parts link to ``tree``'s folders; returned as
    the ``PYTHONPATH`` entry that imports ``avecaesar`` from ``tree``."""
    pkg = into / "avecaesar"
    pkg.mkdir(parents=True, exist_ok=True)
    links = {**{k: tree / v for k, v in LAYOUT.items()},
             "__init__.py": tree / "src" / "avecaesar" / "__init__.py"}
    # the compiled hot path (a tree built with `make setup`): without native.py and
    # _compiled/ linked, a built tree ran pure Python here
    for extra in ("native.py", "_compiled"):
        if (tree / "src" / "avecaesar" / extra).exists():
            links[extra] = tree / "src" / "avecaesar" / extra
    for name, target in links.items():
        link = pkg / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
    return into


def this_tree_links() -> Path:
    """The ``PYTHONPATH`` entry for this tree (one folder per checkout, reused)."""
    import hashlib

    tag = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    return package_links(ROOT, Path(tempfile.gettempdir()) / f"avecaesar-here-{tag}")


def baseline_tree(ref: str) -> Path:
    """The baseline commit exported under the temp dir (reused when already there)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"],
                         capture_output=True, text=True, check=True).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"avecaesar-baseline-{sha[:12]}"
    tree = folder / "tree"
    done = folder / ".exported"
    if not done.exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        done.write_text(sha + "\n", encoding="utf-8")
    return folder


def run(path_entry: Path, races: int, warm: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(path_entry), "AVECAESAR_NO_CACHE": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, str(races), str(warm)], env=env,
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=DEFAULT_BASELINE,
                    help=f"commit to compare with (default {DEFAULT_BASELINE})")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--races", type=int, default=300)
    ap.add_argument("--warm", type=int, default=100)
    args = ap.parse_args()
    base = baseline_tree(args.baseline)
    trees = {"baseline": package_links(base / "tree", base / "path"),
             "this tree": this_tree_links()}
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"],
                           capture_output=True, text=True, check=True).stdout.strip()
    print(f"baseline {args.baseline} ({base / 'tree'}) against this tree ({ROOT}, HEAD {head}"
          f"{', with uncommitted changes' if dirty else ''})")
    print(f"simulate: 6 greedy chariots, Hippodrom-Constantinople, 2022 rules, 1 worker; "
          f"{args.warm} warm-up races, then {args.races} timed; {args.rounds} rounds, "
          f"alternating; load average {os.getloadavg()[0]:.2f} at the start")
    rates: dict[str, list[float]] = {t: [] for t in trees}
    turns: dict[str, list[float]] = {t: [] for t in trees}
    walls: dict[str, list[float]] = {t: [] for t in trees}
    reports: dict[str, set[str]] = {t: set() for t in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for name in order:
            got = run(trees[name], args.races, args.warm)
            cpu, wall = float(got["cpu"]), float(got["wall"])  # type: ignore[arg-type]
            rates[name].append(args.races / cpu)
            turns[name].append(float(got["turns"]) / cpu)  # type: ignore[arg-type]
            walls[name].append(args.races / wall)
            reports[name].add(str(got["report"]))
            if not str(got["module"]).startswith(str(trees[name])):
                raise SystemExit(f"{name}: imported {got['module']}, not from {trees[name]}")
            print(f"  round {r + 1} {name:10} {rates[name][-1]:8.1f} races/s CPU "
                  f"({walls[name][-1]:7.1f} wall) {turns[name][-1]:10,.0f} turns/s")
    print(f"{'':12} {'races/s (CPU)':>14} {'races/s (wall)':>15} {'turns/s (CPU)':>14}")
    for name in trees:
        print(f"{name:12} {statistics.median(rates[name]):14.1f} "
              f"{statistics.median(walls[name]):15.1f} {statistics.median(turns[name]):14,.0f}")
    b, h = rates["baseline"], rates["this tree"]
    paired = [x / y for x, y in zip(h, b, strict=True)]
    print(f"ratio this tree / baseline: {statistics.median(h) / statistics.median(b):.3f} "
          f"(ratio of the medians); per round {', '.join(f'{p:.3f}' for p in paired)}, "
          f"median {statistics.median(paired):.3f}")
    same = reports["baseline"] == reports["this tree"] and len(reports["baseline"]) == 1
    print(f"simulate reports identical in both trees: {'yes' if same else 'NO'}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
