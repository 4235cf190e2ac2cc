"""House rules that say how they end (issue 38, point 2): a ban without a release freezes
races and ``ruleset validate --race`` says so, located, with the release that would end it;
the bundled examples, which carry the release their text implies, freeze none (a CI-sized
slice of ``bench/bench_deadlocks.py --examples``, which races each 300 times per edition)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from avecaesar.editor.app import app
from avecaesar.engine.lab.freezes import freeze_report, release_hint

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "rulesets" / "examples").glob("*.yaml"))
EDITIONS = ("ravensburger-1989", "pro-ludo-2006", "dicetree-2022")
runner = CliRunner()

BAN = """rules:
  card_restrictions.extra:
    value:
      - cards: [1]
        forbidden_when: in_curve
    source: "house rule: no 1 in a curve, no release"
"""


def _cases() -> list[tuple[str, str]]:
    out = []
    for path in EXAMPLES:
        named = yaml.safe_load(path.read_text(encoding="utf-8")).get("applies_to") or ["any"]
        out += [(path.name, e) for e in EDITIONS if "any" in named or e in named]
    return out


@pytest.mark.parametrize(("example", "edition"), _cases())
def test_a_bundled_example_freezes_no_race(example, edition):
    report = freeze_report(edition, [str(ROOT / "rulesets" / "examples" / example)], races=6)
    assert report.races == 6
    assert report.frozen == [], report.stuck


def test_a_planted_ban_without_release_freezes_races():
    report = freeze_report("ravensburger-1989", house=yaml.safe_load(BAN)["rules"], races=12)
    assert report.frozen, "a 1 banned in curves with no release should freeze a race"
    stuck = report.stuck[0]
    assert set(stuck.cards) == {1}
    assert "no release" in stuck.why[0]


@pytest.mark.covers("command:ruleset validate")
def test_validate_race_reports_the_freeze_located_with_its_release(tmp_path):
    ban = tmp_path / "ban.yaml"
    ban.write_text(BAN, encoding="utf-8")
    res = runner.invoke(app, ["ruleset", "validate", str(ban), "--race", "12"])
    assert res.exit_code == 0, res.output  # a warning, not an error
    assert f"{ban}:2:3: warning: freezes " in res.output
    assert "of 12 races under ravensburger-1989" in res.output
    assert "holds only 1" in res.output
    assert release_hint([1]) in res.output
    assert "1 file(s) valid" in res.output


def test_validate_race_on_an_example_reports_no_freeze():
    path = ROOT / "rulesets" / "examples" / "no-1-in-a-curve.yaml"
    res = runner.invoke(app, ["ruleset", "validate", str(path), "--race", "6"])
    assert res.exit_code == 0, res.output
    assert "warning" not in res.output
    assert res.output.count("6 races, 0 froze (0.0%)") == len(
        [c for c in _cases() if c[0] == path.name])


def test_validate_race_refuses_a_negative_count(tmp_path):
    ban = tmp_path / "ban.yaml"
    ban.write_text(BAN, encoding="utf-8")
    res = runner.invoke(app, ["ruleset", "validate", str(ban), "--race", "-1"])
    assert res.exit_code == 2


def test_validate_warns_of_a_ban_without_release_located(tmp_path):
    ban = tmp_path / "ban.yaml"
    ban.write_text(BAN, encoding="utf-8")
    res = runner.invoke(app, ["ruleset", "validate", str(ban)])
    assert res.exit_code == 0, res.output
    assert f"{ban}:4:9: warning: this ban of 1 has no release" in res.output
    assert release_hint([1]) in res.output


def test_the_bundled_examples_state_their_releases():
    res = runner.invoke(app, ["ruleset", "validate", *map(str, EXAMPLES)])
    assert res.exit_code == 0, res.output
    assert "warning" not in res.output
