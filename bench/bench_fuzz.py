"""The project's fuzzer, the full run (issue 26): at least 1,000 cases — broken courses,
broken rulesets and overlays, tampered records and every CLI option with nonsense values —
counting tracebacks, hangs, exit codes outside the documented table and errors without a
location. Prints the figures (docs/performance.md, "The fuzzer"); exits 1 on any failure.

Run: .venv/bin/python bench/bench_fuzz.py [--seed 1]   (extra options go to the fuzzer)
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FULL = ["--courses", "500", "--rulesets", "250", "--records", "100"]


def main() -> int:
    spec = importlib.util.spec_from_file_location("fuzz_inputs",
                                                  ROOT / "tools" / "fuzz_inputs.py")
    assert spec and spec.loader
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    code: int = fuzz.main([*FULL, *sys.argv[1:]])
    return code


if __name__ == "__main__":
    sys.exit(main())
