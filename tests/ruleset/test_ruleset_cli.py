"""``avecaesar ruleset list|show|validate|diff`` through typer's CliRunner (issue 4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from avecaesar.engine.data.paths import RULESETS_DIR

INVALID = sorted((Path(__file__).parent / "invalid").glob("*.yaml"))


def test_there_are_at_least_20_malformed_files() -> None:
    assert len(INVALID) >= 20


@pytest.mark.covers("command:ruleset validate")
@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_malformed_file_gives_file_line_col_and_exit_1(run, path: Path) -> None:
    """Each file's first line says which message it must produce."""
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    result = run("validate", str(path))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert lines and all(re.match(rf"{re.escape(str(path))}:\d+:\d+: \S", ln) for ln in lines)
    assert expected in result.output


def test_validate_every_bundled_file_exit_0(run) -> None:
    files = [str(p) for p in sorted(RULESETS_DIR.rglob("*.yaml"))]
    result = run("validate", *files)
    assert result.exit_code == 0, result.output
    assert f"{len(files)} file(s) valid" in result.output


def test_validate_missing_file(run) -> None:
    result = run("validate", "no/such/ruleset.yaml")
    assert result.exit_code == 2  # a missing file is a usage error
    assert "no/such/ruleset.yaml:1:1: no such file" in result.output


def test_list_json(run) -> None:
    result = run("list", "--json")
    assert result.exit_code == 0
    entries = {e["id"]: e for e in json.loads(result.output)}
    assert entries["dicetree-2022"]["kind"] == "edition"
    assert entries["reader-homebrew"]["kind"] == "homebrew"
    assert entries["four-hand-cards"] == {
        "id": "four-hand-cards", "kind": "variant",
        "title": "4 hand cards instead of 3 (option)", "applies_to": ["any"]}
    assert entries["pro-ludo-2006-water-pt"]["applies_to"] == ["pro-ludo-2006"]
    assert "applies_to" not in entries["ravensburger-1989"]


@pytest.mark.covers("command:ruleset list")
def test_list_text(run) -> None:
    result = run("list")
    assert result.exit_code == 0
    assert re.search(r"^edition\s+ravensburger-1989\s+Ravensburger 1989", result.output, re.M)


@pytest.mark.covers("command:ruleset show")
def test_show_groups_values_with_citations(run) -> None:
    """The issue's example: 2022 with 4 hand cards and Ausgebremst scoring."""
    result = run("show", "dicetree-2022", "--variant", "four-hand-cards",
                 "--variant", "ausgebremst-scoring")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "[hand]\n  size: 4  [stated]\n      source: DiceTree 2022 rulebook (DE) S.8-12  " \
           "(set by variant four-hand-cards)" in out
    assert "places: [9, 6, 4, 3, 2, 1]" in out


def test_show_json_is_the_composed_ruleset(run) -> None:
    result = run("show", "1989", "--json", "--set", "disqualification.keeps_place=false")
    data = json.loads(result.output)
    assert data["id"] == "ravensburger-1989"
    assert data["rules"]["disqualification"]["keeps_place"] == {
        "value": False, "source": "user override (--set)"}


def test_show_lists_unknown_values(run) -> None:
    result = run("show", "2022", "-v", "ramming-attacks")
    assert result.exit_code == 0
    assert "open values (supply with --set KEY=VALUE or --house FILE): ramming.tie, " \
        "ramming.attack_chips" in result.output


@pytest.mark.parametrize("edition", ["1989", "2006", "2022"])
def test_show_marks_every_kind_and_open_lists_none_for_an_edition(run, edition) -> None:
    """Issue 10: `ruleset show` marks each value's kind; `--open` lists what is open."""
    out = run("show", edition).output
    value_lines = [ln for ln in out.splitlines() if ln.startswith("  ") and
                   not ln.startswith("      ")]
    assert value_lines and all(ln.rstrip().endswith(("[stated]", "[read]", "[conflict]",
                                                     "[open]")) for ln in value_lines)
    assert "[read]" in out and "      reading: " in out
    opened = run("show", edition, "--open")
    assert opened.exit_code == 0 and "no open values" in opened.output
    data = json.loads(run("show", edition, "--json").output)
    assert data["kinds"]["leader.finishers_lead"] == "read"
    assert json.loads(run("show", edition, "--open", "--json").output)["open"] == []


def test_show_open_lists_a_variants_open_values_and_a_house_file_closes_them(
        run, tmp_path) -> None:
    opened = json.loads(run("show", "2022", "-v", "ramming-attacks", "--open", "--json").output)
    assert [r["key"] for r in opened["open"]] == ["ramming.tie", "ramming.attack_chips"]
    assert opened["open"][0]["choices"] == ["no_effect", "attacker_wins", "defender_wins"]
    house = tmp_path / "ours.yaml"
    house.write_text("rules:\n  ramming.tie: defender_wins\n  ramming.attack_chips: "
                     "{value: no_effect, source: 'house rule: Friday', note: trophies}\n",
                     encoding="utf-8")
    res = run("show", "2022", "-v", "ramming-attacks", "--house", str(house), "--json")
    data = json.loads(res.output)
    assert data["rules"]["ramming"]["tie"] == {"value": "defender_wins",
                                              "source": "house rule: ours.yaml"}
    assert data["rules"]["ramming"]["attack_chips"]["note"] == "trophies"
    text = run("show", "2022", "-v", "ramming-attacks", "--house", str(house)).output
    assert "(set by --house)" in text and "open values" not in text


@pytest.mark.parametrize("args,message", [
    (["show", "dicetre"], "unknown ruleset 'dicetre' — did you mean 'dicetree-2022'?"),
    (["show", "2022", "-v", "gladiator"], "unknown variant 'gladiator'"),
    (["show", "2022", "-v", "four-hand-cards", "-v", "split-deck"],
     "variant 'split-deck' conflicts with variant 'four-hand-cards'"),
    (["show", "2022", "--set", "hand.size"], "write KEY=VALUE"),
    (["show", "2022", "--set", "hand.size=[1"], "is not a readable value"),
    (["show", "tests/none.yaml"], "tests/none.yaml:1:1: no such file"),
])
def test_usage_errors_exit_2_without_traceback(run, args, message) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def _diff(run, a: str, b: str) -> dict[str, dict]:
    result = run("diff", a, b, "--json")
    assert result.exit_code == 0, result.output
    return {row["key"]: row for row in json.loads(result.output)["differences"]}


def test_diff_1989_2022_lists_the_rules_md_differences(run) -> None:
    """docs/sources.md, "Where the editions differ" table, Ravensburger 1989 vs DiceTree 2022."""
    rows = _diff(run, "ravensburger-1989", "dicetree-2022")
    expected = {
        "scoring.places": ([6, 4, 3, 2, 1, 0], [8, 6, 4, 3, 2, 1]),
        "six_rule.at_start": ("start_player_may", "first_row_may_not"),
        "start.rows": (None, [[1, 2, 3], [4, 5, 6]]),
        "six_rule.chicane_exception": (["on_chicane"], ["on_chicane", "blocks_others"]),
        "alley.blocked_last_chance": ("must_wait", "may_wait"),
        "tournament.next_start_order": ("loser_first", "winner_stays_reseat_by_place"),
        "disqualification.keeps_place": (False, True),
        "tournament.tie_break": ("none", "more_wins_then_seconds"),
        "tournament.course_choice": ("rotation", "recommended_then_draw"),
        "ownerless.when": ("fill_empty_places", "never"),
        "players.min": (3, 2),
    }
    for key, (a, b) in expected.items():
        assert rows[key]["a"]["value"] == a, key
        assert rows[key]["b"]["value"] == b, key
        assert rows[key]["a"]["source"].startswith("Ravensburger 1989")
        assert rows[key]["b"]["source"].startswith("DiceTree 2022 rulebook (DE) S.")
    joint = rows["six_rule.joint_leader_exception"]
    assert (joint["a"]["value"]["who"], joint["b"]["value"]["who"]) == \
        ("whose_turn_it_is", "one_of_them")
    assert "tournament.course_rotation" in rows
    # the same in both [Ravensburger 1989 regler (SV), En sexa på hand; DiceTree 2022 S.5]
    assert "six_rule.ends_when" not in rows


def test_diff_2006_2022_end_of_six_rule_and_water(run) -> None:
    """The 6-rule never ends [Pro Ludo 2006 Spielregel (DE) p.5] but ends with the first
    finisher [DiceTree 2022 rulebook (DE) S.5]; water ditches skipped [p.5]."""
    rows = _diff(run, "pro-ludo-2006", "dicetree-2022")
    assert rows["six_rule.ends_when"]["a"]["value"] == "never"
    assert rows["six_rule.ends_when"]["b"]["value"] == "race_has_finisher"
    assert rows["water.ditches"]["a"]["value"] == "skipped"
    assert rows["six_rule.joint_leader_exception"]["a"]["value"]["who"] == "first_to_move"


@pytest.mark.covers("command:ruleset diff")
def test_diff_text_table_has_both_citations(run) -> None:
    result = run("diff", "1989", "2022")
    assert result.exit_code == 0
    assert ("scoring.places\n  A: [6, 4, 3, 2, 1, 0]  [Ravensburger 1989 rules (EN summary), "
            "Scoring; Ravensburger 1989 regler (SV), Slutet på loppet]\n"
            "  B: [8, 6, 4, 3, 2, 1]  [DiceTree 2022 rulebook (DE) S.7]") in result.output


def test_diff_with_variants(run) -> None:
    result = run("diff", "2022", "2022", "--variant-b", "ausgebremst-scoring", "--json")
    rows = json.loads(result.output)["differences"]
    assert [r["key"] for r in rows] == ["scoring.places"]


def test_diff_of_identical_rulesets_is_empty(run) -> None:
    result = run("diff", "2006", "pro-ludo", "--json")
    assert json.loads(result.output)["differences"] == []
