"""The published rules test vectors (vectors/, issue 38): they validate, the engine passes
them, a planted rule change fails them, every rule key and reason code is covered, and
``vectors make`` refuses a changed answer.

``avecaesar vectors check`` over the whole folder runs here once (the CI's check, in
process: no subprocess per vector).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app
from avecaesar.engine.core import conditions
from avecaesar.engine.core.reasons import REASONS
from avecaesar.engine.core.rule_map import RULE_MAP
from avecaesar.engine.data.errors import InputError
from avecaesar.engine.data.schemas import validator
from avecaesar.engine.lab.vector_suites import read_suites
from avecaesar.engine.lab.vectors import (
    SCHEMA_ID,
    Suite,
    check_folder,
    suite_files,
    vector_problem,
)
from avecaesar.engine.lab.vectors_make import WITNESSES, reasons_doc
from avecaesar.engine.ruleset.catalog import bundled

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"
runner = CliRunner()
KINDS = ("positions", "counts", "races", "tournaments")


def _docs() -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in suite_files(VECTORS)}


DOCS = _docs()


def _vectors():
    for name, doc in DOCS.items():
        for kind in KINDS:
            for v in doc[kind]:
                yield name, kind, v


@pytest.mark.covers("command:vectors check")
def test_the_engine_passes_every_published_vector():
    res = runner.invoke(app, ["vectors", "check", str(VECTORS)])
    assert res.exit_code == 0, res.output[-3000:]
    assert "vectors in" in res.output and "pass" in res.output


def test_at_least_500_vectors_of_every_kind_under_every_edition():
    kinds = {k: sum(len(d[k]) for d in DOCS.values()) for k in KINDS}
    assert sum(kinds.values()) >= 500, kinds
    assert all(kinds[k] > 0 for k in KINDS), kinds
    editions = {d["rules"]["ruleset"] for d in DOCS.values()}
    assert {"dicetree-2022", "pro-ludo-2006", "ravensburger-1989"} <= editions


def test_every_file_validates_against_the_schema():
    v = validator(SCHEMA_ID)
    files = [*suite_files(VECTORS), *sorted((VECTORS / "boards").glob("*.json"))]
    assert len(files) > len(DOCS)
    for path in files:
        errors = list(v.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert errors == [], (path.name, [e.message[:200] for e in errors[:3]])
    assert json.loads((VECTORS / "reasons.json").read_text(encoding="utf-8")) == reasons_doc()


def test_the_suites_are_the_files():
    specs = read_suites(VECTORS)
    assert [f"{s.name}.json" for s in specs] == sorted(DOCS) or sorted(
        f"{s.name}.json" for s in specs) == sorted(DOCS)


#: every reason code is given (the list only shrinks; it is empty since issue 38's last suites)
REASONS_NOT_YET_GIVEN: set[str] = set()
#: every rule key of the rule map is covered (the list only shrinks; it is empty since
#: issue 38's last suites)
KEYS_NOT_YET_COVERED: set[str] = set()


def test_every_reason_code_is_given_by_some_vector():
    def codes(reason):
        if isinstance(reason, dict) and "code" in reason:
            yield reason["code"]
            for p in reason.get("params", {}).values():
                yield from codes(p)

    seen = set()
    for _name, kind, v in _vectors():
        if kind == "positions":
            for r in v["cards"].values():
                seen.update(codes(r))
            for p in v["probes"]:
                seen.update(codes(p["why"]))
    missing = set(REASONS) - seen
    assert sorted(missing - REASONS_NOT_YET_GIVEN) == []
    assert missing >= REASONS_NOT_YET_GIVEN  # the list only shrinks: a code given leaves it


def test_every_rule_key_of_the_rule_map_is_covered():
    """Each key is in some vector's ``breaks_if`` (changing it changes that answer) or
    ``shows`` (a key with one supported value, shown at work)."""
    covered = {k for _n, _k, v in _vectors() for k in (*v.get("breaks_if", {}),
                                                       *v.get("shows", []))}
    missing = set(RULE_MAP) - covered
    assert sorted(missing - KEYS_NOT_YET_COVERED) == []
    assert missing >= KEYS_NOT_YET_COVERED  # the list only shrinks: a key covered leaves it
    assert set(WITNESSES) <= set(RULE_MAP)


def _one_per_group():
    """For each rule group, one key some vector says it breaks under, with that vector."""
    seen: dict[str, tuple] = {}
    for name, kind, v in _vectors():
        for key, value in v.get("breaks_if", {}).items():
            seen.setdefault(key.split(".")[0], (key, value, name, kind, v["id"]))
    return sorted(seen.values())


@pytest.mark.parametrize("key, value, file, kind, vid", _one_per_group(),
                         ids=lambda x: x if isinstance(x, str) and "." in x else None)
def test_a_vectors_breaks_if_is_true(key, value, file, kind, vid):
    """The change a vector says breaks it does (one key per rule group, checked here; every
    key's first vector in the full run: `vectors check --set KEY=VALUE`)."""
    only = lambda f, v: (f, v) == (file, vid)  # noqa: E731
    # unchanged, the vector passes: test_the_engine_passes_every_published_vector's check
    broken = check_folder(VECTORS, {key: value}, only, {file})
    assert broken.vectors == 1 and not broken.ok, (key, value, file, vid)


@pytest.mark.parametrize("variant", [e.id for e in bundled() if e.kind == "variant"])
def test_every_variant_races_in_a_suite(variant):
    suites = [d for d in DOCS.values() if variant in d["rules"]["variants"]]
    assert suites, f"no vector suite races with {variant}"
    keys = {k for d in suites for k in d["values"]}
    moves = any(d["positions"] for d in suites)
    only_scores = all(k.split(".")[0] in ("scoring", "tournament") for k in _keys(variant))
    assert moves or only_scores, f"{variant} changes more than scoring: it needs positions"
    assert keys


def _keys(variant: str) -> set[str]:
    import yaml

    entry = next(e for e in bundled() if e.id == variant)
    data = yaml.safe_load(Path(entry.path).read_text(encoding="utf-8"))
    return {f"{g}.{k}" for g, keys in (data.get("rules") or {}).items() for k in keys}


def test_the_house_examples_race_in_suites():
    examples = sorted(p.stem for p in (ROOT / "rulesets" / "examples").glob("*.yaml"))
    named = {Path(v).stem for d in DOCS.values() for v in d["rules"]["variants"]}
    assert set(examples) <= named


# --- a mutated engine fails them ------------------------------------------------------------

def test_a_planted_rule_change_fails_vectors():
    """A changed rule value — 2022's "may wait" at a blocked alley made "must wait"
    (DiceTree 2022 rulebook (DE) S.6) — fails vectors, each named with its file and line."""
    found = check_folder(VECTORS, {"alley.blocked_last_chance": "must_wait"}, None,
                         [f for f in DOCS if f.startswith("dicetree-2022")])
    assert not found.ok
    assert all(f.file.endswith(".json") and f.line > 1 for f in found.failures)
    res = runner.invoke(app, ["vectors", "check", str(VECTORS), "--suite",
                              "dicetree-2022-oval", "--set", "six_rule.card=5"])
    assert res.exit_code == 1 and "vectors fail under --set six_rule.card=5" in res.output


def test_a_planted_change_in_the_engines_code_fails_vectors(monkeypatch):
    """The condition a 6-card release reads, made always false in the registry the engine
    asks (core/conditions.py: compiled or not, ``holds`` looks it up there) — the lone
    leader with only sixes of the hand counts is frozen again."""
    monkeypatch.setitem(conditions.CONDITIONS, "alone_on_track",
                        conditions.Condition("never", lambda x: False))
    monkeypatch.setitem(conditions.CONDITIONS, "cannot_be_passed",
                        conditions.Condition("never", lambda x: False))
    found = check_folder(VECTORS, None, None, [f for f in DOCS if f.endswith("-oval.json")
                                               or f.startswith("house-")])
    assert not found.ok


# --- vectors make ---------------------------------------------------------------------------

def _small_folder(tmp_path: Path, suite: str) -> Path:
    folder = tmp_path / "v"
    (folder / "boards").mkdir(parents=True)
    shutil.copytree(VECTORS / "courses", folder / "courses")
    spec = next(s for s in read_suites(VECTORS) if s.name == suite)
    text = (VECTORS / "suites.yaml").read_text(encoding="utf-8")
    (folder / "suites.yaml").write_text(text, encoding="utf-8")
    shutil.copy(VECTORS / f"{suite}.json", folder / f"{suite}.json")
    doc = DOCS[f"{suite}.json"]
    shutil.copy(VECTORS / doc["board"], folder / doc["board"])
    assert Suite.from_json(doc) == spec.suite
    return folder


@pytest.mark.covers("command:vectors make")
def test_make_remakes_a_suite_byte_for_byte_and_refuses_a_changed_answer(tmp_path):
    suite = "pro-ludo-2006-water"
    folder = _small_folder(tmp_path, suite)
    published = (VECTORS / f"{suite}.json").read_text(encoding="utf-8")
    res = runner.invoke(app, ["vectors", "make", str(folder), "--suite", suite, "--quiet"])
    assert res.exit_code == 0, res.output
    assert (folder / f"{suite}.json").read_text(encoding="utf-8") == published
    # an answer changed by hand stands for a rule change: refused, the file left alone
    doc = json.loads(published)
    doc["positions"][0]["legal"] = doc["positions"][0]["legal"][:-1]
    tampered = json.dumps(doc)
    (folder / f"{suite}.json").write_text(tampered, encoding="utf-8")
    res = runner.invoke(app, ["vectors", "make", str(folder), "--suite", suite, "--quiet"])
    assert res.exit_code == 1
    assert f"{doc['positions'][0]['id']}: its legal changed" in res.output
    assert "--accept" in res.output
    assert (folder / f"{suite}.json").read_text(encoding="utf-8") == tampered
    res = runner.invoke(app, ["vectors", "make", str(folder), "--suite", suite, "--quiet",
                              "--accept"])
    assert res.exit_code == 0, res.output
    assert json.loads((folder / f"{suite}.json").read_text(encoding="utf-8"))["positions"][
        0]["legal"] == json.loads(published)["positions"][0]["legal"]


def test_make_never_changes_a_count_made_by_hand(tmp_path):
    folder = _small_folder(tmp_path, "pro-ludo-2006-oval")
    text = (folder / "suites.yaml").read_text(encoding="utf-8")
    (folder / "suites.yaml").write_text(text.replace(
        "{count: 17, position: \"40,3,s,6,-,5,r -,4,s,-,-,4,f | A 0 90 - B\", note: 'the "
        "6-rule holds", "{count: 16, position: \"40,3,s,6,-,5,r -,4,s,-,-,4,f | A 0 90 - B\","
        " note: 'the 6-rule holds"), encoding="utf-8")
    (folder / "pro-ludo-2006-oval.json").unlink()
    res = runner.invoke(app, ["vectors", "make", str(folder), "--suite", "pro-ludo-2006-oval",
                              "--quiet", "--accept"])
    assert res.exit_code == 1
    assert "counted by hand as 16, the engine gives 17" in res.output
    assert not (folder / "pro-ludo-2006-oval.json").exists()


@pytest.mark.parametrize(("args", "code", "said"), [
    (["vectors", "check", "/no/such/folder"], 2, "no such folder"),
    (["vectors", "check", "--suite", "nope"], 2, "no such suite"),
    (["vectors", "check", "--set", "hand.sise=4"], 2, "did you mean 'hand.size'"),
    (["vectors", "make", "/no/such/folder/v", "--quiet"], 2, "does not exist"),
])
def test_bad_input_to_the_vectors_commands(args, code, said):
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    assert said in res.output and "Traceback" not in res.output


def test_a_broken_vector_file_is_located(tmp_path):
    folder = _small_folder(tmp_path, "pro-ludo-2006-water")
    (folder / "broken.json").write_text('{"format": "avecaesar-vectors",\n "suite": }\n',
                                        encoding="utf-8")
    res = runner.invoke(app, ["vectors", "check", str(folder)])
    assert res.exit_code == 1 and "broken.json:2:" in res.output and "not JSON" in res.output


# --- the checker that knows no rules --------------------------------------------------------

def _outside_checker():
    path = ROOT / "tests" / "vectors_check.py"
    spec = importlib.util.spec_from_file_location("vectors_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module


def test_the_checker_without_the_engine_finds_nothing_wrong():
    path, checker = _outside_checker()
    imported = {a.name.split(".")[0] for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Import) for a in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(ast.parse(
        path.read_text())) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "json", "sys", "collections", "pathlib", "typing"}
    vectors, problems = checker.check(VECTORS)
    assert vectors >= 500 and problems == []


def test_the_checker_without_the_engine_catches_what_it_says(tmp_path):
    folder = _small_folder(tmp_path, "pro-ludo-2006-oval")
    shutil.copy(VECTORS / "reasons.json", folder / "reasons.json")
    doc = json.loads((folder / "pro-ludo-2006-oval.json").read_text(encoding="utf-8"))
    count = doc["counts"][0]
    count["counts"][1] += 1  # the breakdown no longer adds up
    p = next(v for v in doc["positions"] if v["legal"])
    p["legal"].append("9:" + p["legal"][0].partition(":")[2])  # a card nobody holds
    p["probes"].append({"move": "wait", "why": {"code": "made_up", "params": {}, "cite": None}})
    (folder / "pro-ludo-2006-oval.json").write_text(json.dumps(doc), encoding="utf-8")
    _path, checker = _outside_checker()
    _n, problems = checker.check(folder)
    text = "\n".join(problems)
    assert "the breakdown adds up to" in text
    assert "plays a 9, not a card it plays from" in text
    assert "reason code 'made_up' is not in reasons.json" in text


def test_a_bad_asked_position_is_a_located_error(tmp_path):
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "suites.yaml").write_text(
        "suites:\n  - name: s\n    ruleset: dicetree-2022\n    course: courses/oval.yaml\n"
        "    ask:\n      - {position: 'x', nots: 'typo'}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_suites(folder)
    assert "suites.yaml:6:" in str(err.value) and "an asked position is" in str(err.value)


def test_a_race_vector_claims_its_player_count_is_allowed():
    # a 2-player 2022 race: under players.min 3 it fails with the player-count sentence
    doc = DOCS["dicetree-2022-circus-maximus-2.json"]
    suite = Suite.from_json(doc)
    (race,) = doc["races"]
    assert vector_problem("races", suite.setup(VECTORS), race, suite) is None
    said = vector_problem("races", suite.setup(VECTORS, {"players.min": "3"}), race, suite)
    assert said is not None and said.startswith("2 players are too few")


def test_an_asked_position_is_answered_and_its_note_kept():
    doc = DOCS["six-rule-joint-leaders-without-free-when.json"]
    (asked,) = doc["positions"]
    assert asked["id"] == "a01" and "Pro Ludo 2006 Spielregel (DE) p.5" in asked["note"]
    # A and B lead jointly with only sixes and block C: the exception lets A play a 6 …
    assert {m.split(":")[0] for m in asked["legal"]} == {"6"}
    # … and without it A sits out: the vector names the key that decides it
    assert "six_rule.joint_leader_exception" in asked["breaks_if"]
