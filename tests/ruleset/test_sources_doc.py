"""docs/sources.md states the defaults every edition shares: each row's rule key has one value
in all three editions, and the row cites what the editions' data cite for it; no file of the
repository cites a document outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from avecaesar.engine.ruleset.load import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")


def test_the_shared_defaults_are_the_data_s() -> None:
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| (.*) \| (.*) \|$", text, re.M)
    assert len(rows) >= 12
    rulesets = [load_ruleset(e) for e in EDITIONS]
    for key, _what, cited in rows:
        values = [rs.value(key) for rs in rulesets]
        assert all(v == values[0] for v in values), (key, values)
        assert cited == "; ".join(rs.citation(key) for rs in rulesets), key


def test_nothing_cites_a_file_outside_the_repository() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    here = Path(__file__).resolve().relative_to(ROOT).as_posix()
    hits = []
    for name in files:
        path = ROOT / name
        if name == here or path.suffix not in (".py", ".md", ".yaml", ".json", ".js",
                                               ".html") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for word in ("RULES.md", "seeds/", "/work/shared"):
            if word in text:
                hits.append(f"{name}: {word}")
    assert hits == []
