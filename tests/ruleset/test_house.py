"""House-rules files (issue 10): written once, read back exactly; every mistake located."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avecaesar.engine.data.errors import InputError
from avecaesar.engine.ruleset.house import house_file_text, load_house
from avecaesar.engine.ruleset.keys import rule_keys
from avecaesar.engine.ruleset.load import load_ruleset

# rule keys whose value is one word of an enum, a boolean or a small integer
ENUMS = {k: leaf["properties"]["value"]["enum"] for k, leaf in rule_keys().items()
         if "enum" in leaf["properties"]["value"]}
BOOLS = [k for k, leaf in rule_keys().items()
         if leaf["properties"]["value"].get("type") == "boolean"]


def values() -> st.SearchStrategy[dict[str, object]]:
    enum = st.sampled_from(sorted(ENUMS)).flatmap(
        lambda k: st.tuples(st.just(k), st.sampled_from(ENUMS[k])))
    boolean = st.tuples(st.sampled_from(BOOLS), st.booleans())
    return st.lists(st.one_of(enum, boolean), min_size=1, max_size=6).map(dict)


@settings(max_examples=60, deadline=None)
@given(values())
def test_a_saved_house_file_reads_back_the_same_values(tmp_path_factory, chosen) -> None:
    path = tmp_path_factory.mktemp("house") / "ours.yaml"
    path.write_text(house_file_text(chosen, "ours"), encoding="utf-8")
    got = load_house(path)
    assert {k: r["value"] for k, r in got.items()} == chosen
    assert all(r["source"] == "house rule: ours.yaml" for r in got.values())


def test_house_rules_come_after_the_variants_and_before_set(tmp_path: Path) -> None:
    path = tmp_path / "h.yaml"
    path.write_text("source: our club\nrules:\n  hand.size: 5\n  scoring.places: [9, 6, 3]\n",
                    encoding="utf-8")
    house = load_house(path)
    rs = load_ruleset("2022", ["four-hand-cards"], None, house)
    assert rs.value("hand.size") == 5 and rs.citation("hand.size") == "house rule: our club"
    assert rs.origins["hand.size"] == "--house"
    rs = load_ruleset("2022", ["four-hand-cards"], {"hand.size": "6"}, house)
    assert rs.value("hand.size") == 6


# Bad house-rules files and where their mistake is reported (file:line:col); the CLI test
# in tests/editor/test_cli_records.py runs the same table through `race --house`.
BAD_HOUSE_FILES = [
    ("", "h.yaml:1:1: a house-rules file needs 'rules:'"),
    ("rules:\n  hand: 3\n", "h.yaml:2:3: unknown rule key 'hand'"),
    ("rules:\n  hand.size: {value: 3, sauce: x}\n", "h.yaml:2:25: unknown key 'sauce'"),
    ("rules:\n  alley.no_stop: maybe\n", "h.yaml:2:18: alley.no_stop: 'maybe' is not one of"),
    ("rules:\n  hand.size: 3\n  hand.size: 4\n", "h.yaml:3:3: "),
    ("rules:\n  ramming.ti: 3\n", "h.yaml:2:3: unknown rule key 'ramming.ti'"),
    ("rules:\n  hand.size: many\n", "h.yaml:2:14: hand.size: 'many' is not of type"),
    ("rules: [1]\n", "h.yaml:1:1: a house-rules file needs 'rules:'"),
    ("rules:\n  hand.size: 4\nid: x\n", "h.yaml:3:1: unknown key 'id'"),
]


@pytest.mark.parametrize("text,where", BAD_HOUSE_FILES)
def test_bad_house_files(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "h.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_house(path)
    assert where in str(err.value)


def test_the_house_schema_is_current() -> None:
    """schemas/house.schema.json is made from the ruleset schema (`make docs` rewrites it)."""
    from avecaesar.engine.ruleset.house_schema import FILE, house_schema_text

    assert FILE.read_text(encoding="utf-8") == house_schema_text(), \
        "run: python -m avecaesar.engine.ruleset.house_schema"


@pytest.mark.parametrize("text,where", [*BAD_HOUSE_FILES[1:4], *BAD_HOUSE_FILES[5:]])
def test_the_house_schema_agrees_with_the_reader(text: str, where: str) -> None:
    """What the reader refuses, the schema an editor checks against refuses too; the files
    the reader accepts the schema accepts."""
    import jsonschema
    import yaml

    from avecaesar.engine.data.schemas import schema

    v = jsonschema.Draft202012Validator(schema("urn:avecaesar:house"))
    assert list(v.iter_errors(yaml.safe_load(text))), text
    good = ("rules:\n  ramming.tie: defender_wins\n  hand.size: {value: 4, source: ours}\n"
            "source: our club\n")
    assert not list(v.iter_errors(yaml.safe_load(good)))


def test_ruleset_validate_checks_a_house_file_as_one(tmp_path: Path) -> None:
    """The file `play` writes validates; a bad one gets every mistake at once, located."""
    from typer.testing import CliRunner

    from avecaesar.editor.main import app

    ours = tmp_path / "ourhouse.yaml"
    ours.write_text(house_file_text({"ramming.tie": "defender_wins",
                                     "ramming.attack_chips": "no_effect"},
                                    "our answers to the open rule values; pass with --house",
                                    ours), encoding="utf-8")
    res = CliRunner().invoke(app, ["ruleset", "validate", str(ours)])
    assert res.exit_code == 0 and res.output == "1 file(s) valid\n", res.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules:\n  scoring.places: [a, 2]\n  hand.size: 0\n  foo.bar: 1\n"
                   "extra: 2\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["ruleset", "validate", str(bad)])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert [ln.split(": ")[0] for ln in lines] == [f"{bad}:2:19", f"{bad}:3:14",
                                                   f"{bad}:4:3", f"{bad}:5:1"], res.output
    assert "missing key 'id'" not in res.output


def test_a_house_value_that_breaks_the_composed_rules_is_located(tmp_path: Path) -> None:
    """A value valid on its own that contradicts the edition is found only when the rules
    are composed: the error names every house rule to blame, with its file:line:col."""
    from avecaesar.engine.ruleset.compose import RulesetConflictError

    path = tmp_path / "ours.yaml"
    path.write_text("rules:\n  hand.size: 4\n  players.max: 1\n  race.laps: 1\n",
                    encoding="utf-8")
    with pytest.raises(RulesetConflictError) as err:
        load_ruleset("dicetree-2022", [], None, load_house(path))
    text = str(err.value)
    assert f"the house rule players.max at {path}:3:16" in text
    assert f"the house rule race.laps at {path}:4:14" in text
    assert "hand.size at" not in text  # not to blame
