"""The players' language: one catalog (editor/render/catalog.json) for the terminal, the
server and the page; every message in every language with the same fields; German chosen by
--lang, the locale or the browser; the engine's reasons translated with their citations
kept as their sources write them."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render import lang
from avecaesar.editor.render.lang import LANGS, catalog, choose, from_accept, language, translate

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("table", "events", "why", "page")
runner = CliRunner()


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_message_has_every_language_with_the_same_fields() -> None:
    data = catalog()
    assert sorted(data["languages"]) == sorted(LANGS)
    count = 0
    for section in SECTIONS:
        for key, entry in data[section].items():
            assert sorted(entry) == sorted(LANGS), (section, key)
            for code in LANGS:
                assert entry[code].strip(), (section, key, code)
            assert all(_fields(entry[c]) == _fields(entry["en"]) for c in LANGS), (section, key)
            count += 1
    assert count >= 250


def test_the_german_is_not_the_english() -> None:
    """Only these read alike: the command word one types (undo) and "live"."""
    same = [(s, k) for s in SECTIONS for k, e in catalog()[s].items()
            if e["de"] == e["en"] and re.search(r"[a-z]{4}", re.sub(r"\{\w+\}", "", e["en"]))]
    assert same == [("table", "or_undo"), ("page", "live_ok")], same


def test_the_page_uses_only_words_of_the_catalog() -> None:
    """Every t("key") and data-t="key" of the Play page is in the catalog's page section."""
    page = catalog()["page"]
    sources = [(ROOT / "editor/web/static" / f).read_text(encoding="utf-8")
               for f in ("play.js", "play.html")]
    used = set()
    for text in sources:
        used |= set(re.findall(r"\bt\(\"([a-z_0-9]+)\"", text))
        used |= set(re.findall(r"data-t(?:-title|-aria)?=\"([a-z_0-9]+)\"", text))
    assert used and sorted(used - set(page)) == []


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


def _engine_reasons() -> list[str]:
    """The engine's reasons met in bot races under every edition: why each illegal card
    and space is not allowed, and every card restriction."""
    from avecaesar.engine.bots.policies import greedy_policy
    from avecaesar.engine.core.moves import card_forbidden, walks, why_not
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.race_setup import race_setup
    from avecaesar.engine.core.state import Move

    found: set[str] = set()
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
    return sorted(found)


def test_every_reason_of_the_engine_is_translated_its_citation_kept() -> None:
    reasons = _engine_reasons()
    assert len(reasons) >= 5
    for reason in reasons:
        german = translate(reason, "de")
        assert german != reason, reason
        if " — " in reason:  # the citation stays as its source writes it
            assert german.endswith(" — " + reason.rsplit(" — ", 1)[1]), (reason, german)
    assert translate("you lead jointly, so no 6 — DiceTree 2022 rulebook (DE) S.5", "de") \
        == "du führst gemeinsam mit anderen, also keine 6 — DiceTree 2022 rulebook (DE) S.5"
    assert translate("a sentence of a house rule", "de") == "a sentence of a house rule"


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


def test_each_reason_of_the_catalog_reads_back_in_german() -> None:
    """Every English reason of the ``why`` section, filled in and cited, comes out as its
    German sentence (the fields that are sentences themselves translated too)."""
    why = catalog()["why"]
    for key, entry in why.items():
        fields = {f: "7" for f in _fields(entry["en"])}
        if "lead" in fields:
            fields["lead"] = why["lead_jointly"]["en"]
        english = entry["en"].format(**fields) + " — Pro Ludo 2006 Spielregel (DE) p.5"
        want = dict(fields, lead=why["lead_jointly"]["de"]) if "lead" in fields else fields
        assert translate(english, "de") == entry["de"].format(**want) + \
            " — Pro Ludo 2006 Spielregel (DE) p.5", key
