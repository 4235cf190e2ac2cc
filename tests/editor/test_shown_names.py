"""Names with control or direction characters are shown escaped wherever they are printed
(issue 38, point 5): a record or an older file may carry one that the CLI and the web table
would refuse today; the event text, the result lines and the replay viewer show its escape."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.editor.render.event_text import describe, result_lines
from avecaesar.editor.render.replay_frames import record_frames
from avecaesar.engine.core.race import outcome
from avecaesar.engine.core.ruleset_adapter import rules_from_ruleset
from avecaesar.engine.core.state import RaceGame, RaceState
from avecaesar.engine.data.shown import escaped, is_plain
from avecaesar.engine.ruleset.load import load_ruleset

FORGED = "Eve\u202egnp.exe\nresult: B wins"


def test_escaped_shows_every_hidden_character_and_keeps_the_rest():
    assert escaped(FORGED) == "Eve\\u202egnp.exe\\nresult: B wins"
    assert escaped("Zoë Müller-Łukasz 3") == "Zoë Müller-Łukasz 3"
    assert is_plain("Ana María") and not is_plain("a\u200bb") and not is_plain("a\tb")


def test_the_event_text_and_the_result_show_a_forged_name_escaped(oval):
    rules = rules_from_ruleset(load_ruleset("dicetree-2022"))
    s = RaceState.parse(RaceGame(rules, oval, (FORGED, "B")),
                        "22,1,c,123,-,5,r 19,1,c,456,-,4,r | A 0 2 -")
    s.log = True
    move = next(iter(s.legal_moves()))
    text = describe(s.game, s.push(move)[0])
    assert "\u202e" not in text and "\n" not in text.strip()
    assert "Eve\\u202egnp.exe\\nresult: B wins" in text
    lines = "\n".join(result_lines(outcome(s)))
    assert "\u202e" not in lines and "\\u202e" in lines


def test_the_replay_viewer_shows_a_recorded_forged_name_escaped(tmp_path: Path):
    record = tmp_path / "race.jsonl"
    r = CliRunner().invoke(app, ["race", "--ruleset", "dicetree-2022", "--course",
                                 "dicetree-2022/arena-carthago", "--players", "2", "--seed", "3",
                                 "--record", str(record)])
    assert r.exit_code == 0, r.output
    # a record written before names were checked: the name in every place it is recorded
    forged = json.dumps(FORGED)[1:-1]
    record.write_text(record.read_text(encoding="utf-8").replace("P1-greedy", forged),
                      encoding="utf-8")
    frames = record_frames(record)
    assert escaped(FORGED) in frames["names"]
    shown = json.dumps(frames, ensure_ascii=False)
    assert "\u202e" not in shown and "\\u202e" in shown
