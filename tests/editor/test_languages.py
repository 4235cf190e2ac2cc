"""The players' language: one catalog (editor/render/catalog.json) for the terminal, the
server and the page; every message in every language with the same fields; German chosen by
--lang, the locale or the browser; the engine's reasons rendered from their codes (English
from engine/core/reasons.py, the other languages from the catalog), their citations kept as
their sources write them; a changed English sentence leaves the German and every engine test
as they were."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render import lang
from avecaesar.editor.render.lang import (
    DEFAULT,
    LANGS,
    catalog,
    choose,
    from_accept,
    language,
    reason_text,
)
from avecaesar.engine.core.reasons import HOUSE, REASONS, Reason, ReasonCode

ROOT = Path(__file__).resolve().parents[2]
OVAL = ROOT / "tests" / "core" / "courses" / "oval.yaml"
SECTIONS = ("table", "events", "why", "page", "names")
runner = CliRunner()


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _entries(section: str) -> dict[str, dict[str, str]]:
    """A section's messages in every language; the reasons' English is the engine's."""
    if section != "why":
        return dict(catalog()[section])
    return {code: {DEFAULT: REASONS[code].english, **catalog()["why"].get(code, {})}
            for code in REASONS}


def test_every_message_has_every_language_with_the_same_fields() -> None:
    """Every reason code of the engine (REASONS) has its catalog entry, in every language
    but English (the engine's own), with the same fields as its English sentence; the
    catalog has no entry for a code the engine does not know."""
    data = catalog()
    assert sorted(data["languages"]) == sorted(LANGS)
    assert sorted(data["why"]) == sorted(REASONS)
    assert all(DEFAULT not in entry for entry in data["why"].values())
    count = 0
    for section in SECTIONS:
        for key, entry in _entries(section).items():
            assert sorted(entry) == sorted(LANGS), (section, key)
            for code in LANGS:
                assert entry[code].strip(), (section, key, code)
            assert all(_fields(entry[c]) == _fields(entry["en"]) for c in LANGS), (section, key)
            count += 1
    assert count >= 250


def test_the_german_is_not_the_english() -> None:
    """Only these read alike: the command word one types (undo), "live" and the colour
    orange (the names section: proper names such as "Arena-Carthago" are the same)."""
    same = [(s, k) for s in SECTIONS if s != "names" for k, e in _entries(s).items()
            if e["de"] == e["en"] and re.search(r"[a-z]{4}", re.sub(r"\{\w+\}", "", e["en"]))]
    assert same == [("table", "or_undo"), ("events", "colour_orange"), ("page", "live_ok")], same


def test_the_page_uses_only_words_of_the_catalog() -> None:
    """Every t("key") and data-t="key" of the Play page is in the catalog's page section."""
    page = catalog()["page"]
    sources = [(ROOT / "editor/web/static" / f).read_text(encoding="utf-8")
               for f in ("play.js", "play.html", "replay.js", "replay.html", "studio.js",
                         "studio.html")]
    used = set()
    for text in sources:
        used |= set(re.findall(r"\bt\(\"([a-z_0-9]+)\"\s*[,)]", text))  # not a prefix + …
        for pair in re.findall(r"\bt\([^()\"]*\? \"([a-z_0-9]+)\" : \"([a-z_0-9]+)\"", text):
            used |= set(pair)
        used |= set(re.findall(r"data-t(?:-title|-aria|-placeholder)?=\"([a-z_0-9]+)\"",
                               text))
    assert used and sorted(used - set(page)) == []
    # the keys built from a prefix: every value they are built from
    assert all(f"st_dir_{d}" in page for d in ("clockwise", "anticlockwise"))
    assert all(f"st_kind_{k.replace(' ', '_')}" in page for k in (
        "straight", "curve inside", "curve outside", "chicane", "section", "alley"))


@pytest.mark.parametrize(("explicit", "env", "want"), [
    ("de", {}, "de"), ("en", {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LANG": "de_DE.UTF-8"}, "de"), (None, {"LC_ALL": "de_AT"}, "de"),
    (None, {"LANG": "C.UTF-8", "LANGUAGE": "de:en"}, "de"), (None, {"LANG": "fr_FR"}, "en"),
    (None, {}, "en"), (None, {"AVECAESAR_LANG": "de", "LANG": "en_GB"}, "de"),
])
def test_the_language_of_a_command(explicit: str | None, env: dict[str, str],
                                   want: str) -> None:
    assert choose(explicit, env) == want


def test_the_browser_s_language() -> None:
    assert from_accept("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert from_accept("fr-FR,en;q=0.5,de;q=0.7") == "de"
    assert from_accept("fr-FR") == "en" and from_accept(None) == "en"


def _engine_reasons() -> list[Reason]:
    """The engine's reasons met in bot races under every edition: why each illegal card
    and space is not allowed, and every card restriction."""
    from avecaesar.engine.bots.policies import greedy_policy
    from avecaesar.engine.core.moves import card_forbidden, walks, why_not
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.core.state import Move

    found: set[Reason] = set()
    for ruleset, course in (("dicetree-2022", "dicetree-2022/arena-carthago"),
                            ("pro-ludo-2006", "pro-ludo-2006/circus-maximus"),
                            ("ravensburger-1989", "ravensburger-1989/a-white")):
        rules, board = race_setup(ruleset, [], {}, course, None)
        state, _ = new_race(rules, board, ["A", "B", "C", "D"], 7)
        while not state.over and state.ply < 150:
            c = state.turn
            for card in range(1, 7):
                no = card_forbidden(state, c, card)
                if no:
                    found.add(no)
                for path in list(walks(state, c, card, empty=True))[:3]:
                    why = why_not(state, Move(card, path))
                    if why:
                        found.add(why)
            moves = state.legal_moves()
            if moves:
                state.push(greedy_policy(state, list(moves)))
            else:
                state.skip(moves.skip_reason or "blocked")
    return sorted(found, key=str)


def test_every_reason_of_the_engine_is_translated_its_citation_kept() -> None:
    reasons = _engine_reasons()
    assert len({r.code for r in reasons}) >= 4
    for reason in reasons:
        english, german = reason_text(reason, "en"), reason_text(reason, "de")
        assert english == str(reason) and german != english, reason
        if reason.cite:  # the citation stays as its source writes it
            assert german.endswith(" — " + reason.cite), (reason, german)
    joint = Reason("lead_no", {"card": 6, "lead": Reason("lead_jointly")},
                   "DiceTree 2022 rulebook (DE) S.5")
    assert reason_text(joint, "de") == (
        "du führst gemeinsam mit anderen, also keine 6 — DiceTree 2022 rulebook (DE) S.5")
    assert str(joint) == "you lead jointly, so no 6 — DiceTree 2022 rulebook (DE) S.5"
    with language("de"):
        assert reason_text(joint) == reason_text(joint, "de")


def test_a_house_rule_s_own_words_stay_as_written() -> None:
    """A house rule's ``why:`` is shown as its group wrote it, whatever the language; the
    engine's words filled into it ({lead}) follow the reader's language."""
    plain = Reason(HOUSE, {"text": "a sentence of a house rule"}, "house rule: ours")
    assert reason_text(plain, "de") == str(plain) == (
        "a sentence of a house rule — house rule: ours")
    lead = Reason(HOUSE, {"text": "{lead}, so no {card} (house rule)", "card": 5,
                          "lead": Reason("lead")})
    assert str(lead) == "you lead, so no 5 (house rule)"
    assert reason_text(lead, "de") == "du führst, so no 5 (house rule)"


def test_race_in_german() -> None:
    res = runner.invoke(app, ["race", "-r", "2022", "-c", "dicetree-2022/arena-carthago",
                              "-n", "3", "--seed", "2", "--lang", "de"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Startwert 2; Startreihenfolge:" in out and "Ergebnis:" in out
    assert re.search(r"spielt \d: (Startfeld \d \(Feld \d+\)|Feld \d+) → Feld \d+", out)
    assert "Punkte" in out and " plays " not in out and "result:" not in out
    assert "überquert die Linie: Runde 1" in out


def test_play_in_german_follows_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AVECAESAR_LANG", "")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    oval = str(ROOT / "tests" / "core" / "courses" / "oval.yaml")
    res = runner.invoke(app, ["play", "-r", "2022", "-c", oval, "--humans", "Anna",
                              "--seed", "4"], input="")
    out = res.output
    assert "Startwert 4 (wiederholen mit --seed 4)" in out
    assert "du bist am Zug" in out and "  Hand: " in out and "Punkte übrig" in out
    assert "dein Zug (Nummer, oder Karte:Feld" in out
    assert "die Eingabe endete vor dem Rennen" in out
    assert lang.current() == "en"  # the command's language ends with the command


def test_the_table_answers_in_the_request_s_language() -> None:
    from avecaesar.editor.table.choices import why_not_target
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.race_setup import race_setup

    rules, board = race_setup("dicetree-2022", [], {}, "dicetree-2022/arena-carthago", None)
    state, _ = new_race(rules, board, ["A", "B"], 3)
    card = state.cards(state.turn)[0]
    pos = state.pos[state.turn]
    assert pos is not None
    with language("de"):
        german = why_not_target(state, card, pos)
    english = why_not_target(state, card, pos)
    assert german.startswith("Startfeld") or german.startswith("Feld"), german
    assert english.startswith("start place") or english.startswith("space"), english
    assert german.rsplit(" — ", 1)[1] == english.rsplit(" — ", 1)[1]  # the citation


def test_the_catalog_is_one_file_shipped_with_the_package() -> None:
    text = (ROOT / "editor" / "render" / "catalog.json").read_text(encoding="utf-8")
    assert json.loads(text) == catalog()
    assert '"avecaesar.editor.render" = ["*.json"]' in (ROOT / "pyproject.toml").read_text(
        encoding="utf-8")


def _filled(code: str) -> Reason:
    """Reason ``code`` with every field of its sentence filled (a reason for ``lead``)."""
    params: dict[str, object] = {f: 7 for f in _fields(REASONS[code].english)}
    if "lead" in params:
        params["lead"] = Reason("lead_jointly")
    if code == HOUSE:
        params.update(text="nobody may play a {card} on a chicane (house rule)", card=1)
    return Reason(code, params, "Pro Ludo 2006 Spielregel (DE) p.5")


def test_each_reason_code_renders_in_german_from_its_code() -> None:
    """Every code of the engine, its fields filled, comes out as the catalog's German
    sentence (the fields that are reasons rendered in German too), the citation kept."""
    why = catalog()["why"]
    cite = " — Pro Ludo 2006 Spielregel (DE) p.5"
    for code in REASONS:
        reason = _filled(code)
        fields = {k: reason_text(v, "de") if isinstance(v, Reason) else v
                  for k, v in reason.params.items()}
        if code == HOUSE:
            fields["text"] = str(fields["text"]).format(**fields)
        assert reason_text(reason, "de") == why[code]["de"].format(**fields) + cite, code


def test_a_changed_english_sentence_changes_the_english_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34: the German is found by the reason's code, never by its English wording —
    rewording every English sentence (here in memory) changes what English readers see, at
    the table and in the engine's own messages, and nothing a German reader sees."""
    from avecaesar.editor.table.choices import why_not_target
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.core.state import RaceGame, RaceState

    rules, board = race_setup("dicetree-2022", [], {}, str(OVAL), None)
    # the test oval: a 3 from 43 runs 46-49-50, and B stands on 49
    state = RaceState.parse(RaceGame(rules, board, ("A", "B")),
                            "43,1,c,123,-,6,r 49,1,c,111,-,4,r | A 0 2 -")
    reasons = [_filled(code) for code in REASONS]
    german = [reason_text(r, "de") for r in reasons]

    def table_answer(lang: str) -> str:  # the 3 to space 50, as the table answers it
        with language(lang):
            return why_not_target(state, 3, 50)

    english_before, german_before = table_answer("en"), table_answer("de")
    assert "is taken: no jumping" in english_before and "besetzt" in german_before
    for code, entry in list(REASONS.items()):
        if code != HOUSE:
            monkeypatch.setitem(REASONS, code, ReasonCode(entry.doc, "CHANGED " + entry.english))
    assert [reason_text(r, "de") for r in reasons] == german
    with language("de"):
        assert [reason_text(r) for r in reasons] == german
    for r in reasons:
        if r.code != HOUSE:
            assert reason_text(r, "en").startswith("CHANGED ") and str(r).startswith("CHANGED ")
    assert table_answer("en") == "CHANGED " + english_before
    assert table_answer("de") == german_before


#: the engine's tests that ask for reasons (why_not, card_forbidden, the restrictions)
ENGINE_REASON_TESTS = ["tests/core/test_scenarios.py", "tests/core/test_six_release.py",
                       "tests/core/test_who_leads.py", "tests/core/test_card_restrictions.py",
                       "tests/core/variants/test_variant_scenarios.py"]
#: a pytest plugin loaded before any test: every English sentence of the engine's reasons
#: with the words between its {fields} reversed, so no phrase of it is left
REWORD = """
import string
from avecaesar.engine.core import reasons

def _reworded(text):
    return "".join(lit[::-1] + ("{" + f + "}" if f is not None else "")
                   for lit, f, _spec, _conv in string.Formatter().parse(text))

for code, entry in list(reasons.REASONS.items()):
    reasons.REASONS[code] = reasons.ReasonCode(entry.doc, _reworded(entry.english))
assert str(reasons.Reason("no_card", {"card": 4})) == " on evah uoy4dnah ni "
"""
#: a planted engine test that needs an English sentence: the same run must catch it
PLANTED = """
from avecaesar.engine.core.moves import why_not
from avecaesar.engine.core.race import new_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.state import Move


def test_planted_needs_the_english():
    rules, board = race_setup("dicetree-2022", [], {}, "dicetree-2022/arena-carthago")
    state, _ = new_race(rules, board, ["A", "B"], 5)
    assert "you have no 9 in hand" in str(why_not(state, Move(9, (1,))))
"""


def test_no_engine_test_needs_an_english_sentence(tmp_path: Path) -> None:
    """Issue 34: the engine's tests of reasons assert codes and parameters, never English
    prose — they pass with every English sentence reworded, while a planted test that
    reads the English fails in the same run."""
    import os
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    (tmp_path / "reword_reasons.py").write_text(REWORD, encoding="utf-8")
    (tmp_path / "test_planted_english.py").write_text(PLANTED, encoding="utf-8")
    report = tmp_path / "report.xml"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "reword_reasons", "-p", "no:randomly",
         "-p", "no:cacheprovider", "-p", "no:xdist", f"--rootdir={ROOT}",
         f"--junitxml={report}", *[str(ROOT / t) for t in ENGINE_REASON_TESTS],
         str(tmp_path / "test_planted_english.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    cases = list(ET.parse(report).getroot().iter("testcase"))
    failed = sorted(c.get("name", "") for c in cases
                    if c.find("failure") is not None or c.find("error") is not None)
    assert len(cases) > 50 and failed == ["test_planted_needs_the_english"], \
        run.stdout[-3000:]
    assert run.returncode == 1


def test_every_bundled_ruleset_variant_and_course_has_its_title_in_every_language() -> None:
    """The names section titles every bundled ruleset, variant and course (the setup's
    menus, the table, the replay); a course's English is its file's own name."""
    from avecaesar.engine.course.load import bundled_courses, load_course
    from avecaesar.engine.ruleset.catalog import bundled

    names = catalog()["names"]
    ids = [e.id for e in bundled()] + sorted(bundled_courses())
    assert sorted(set(ids) - set(names)) == []  # a new bundled one needs its title here
    for course in bundled_courses():
        assert names[course]["en"] == load_course(course).graph.graph["name"], course
    with language("de"):
        assert lang.name_of("ravensburger-1989/a-white") == "Seite A, weiße Strecke"
        assert lang.name_of("upload:abc", "My course") == "My course"


def test_an_unknown_language_exits_2_listing_the_catalog_s() -> None:
    for command in (["race", "-r", "pro-ludo-2006", "-c", "pro-ludo-2006/circus-maximus"],
                    ["tournament", "-r", "pro-ludo-2006"], ["replay", str(OVAL)]):
        r = runner.invoke(app, [*command, "--lang", "fr"])
        assert r.exit_code == 2, (command, r.output)
        assert "--lang 'fr'" in r.output and "en (English), de (Deutsch)" in r.output
    assert lang.asked("de_AT.UTF-8") == "de" and lang.asked("EN") == "en"


def test_tournament_and_replay_speak_german(tmp_path: Path) -> None:
    record = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["race", "-r", "pro-ludo-2006", "-c", "pro-ludo-2006/circus-maximus",
                            "--players", "3", "--record", str(record)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(record), "--lang", "de"])
    assert r.exit_code == 0 and "Züge nachgespielt, jeder Zug erlaubt; ins Ziel" in r.output
    r = runner.invoke(app, ["tournament", "-r", "pro-ludo-2006", "-n", "3", "--courses",
                            "pro-ludo-2006/circus-maximus", "--lang", "de"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Turnier nach pro-ludo-2006, 3 Spieler")
    assert "Gesamtwertung:" in r.output and " Punkte" in r.output and "points" not in r.output
