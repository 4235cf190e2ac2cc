"""``avecaesar play`` for three people and a bot at one real terminal (a pseudo-terminal
driven by pexpect): what each person's screen shows, and never another person's hand.

The screens are cut where the program clears the terminal (``ESC [2J``, with the scrollback
``ESC [3J``): what stands between two clears is what the people at the table see at once.
Every figure a screen shows is checked against the race replayed from the record: the hand
of the person named, every chariot's points left, the bot's moves since that person's last
turn. One person takes back a chosen move before ending the turn (nothing drawn yet) and
chooses again; the pass screens offer no undo (the card is drawn); Ctrl-C ends the game with
exit code 130 and the record kept.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from avecaesar.engine.core.race import new_race
from avecaesar.engine.core.race_setup import race_setup
from avecaesar.engine.core.record import read_record
from avecaesar.engine.core.state import LETTERS, Move

pytestmark = pytest.mark.covers("command:play")

CLEAR = "\x1b[2J"
PEOPLE = ["Anna", "Ben", "Cleo"]
BOT = "P1-greedy"
COURSE = "dicetree-2022/arena-carthago"
CONFIRM = re.compile(r"press Enter to end your turn[^\n]*$")
PASS = re.compile(r"press Enter[^\n]*$")
ASK = re.compile(r"your move \(number[^\n]*$")


def _spawn(args: list[str], lang: str = "C.UTF-8") -> pexpect.spawn:
    env = {**os.environ, "LANG": lang, "LC_ALL": lang, "TERM": "xterm", "COLUMNS": "120",
           "AVECAESAR_NO_LIGHT": "1"}
    env.pop("LANGUAGE", None)
    env.pop("AVECAESAR_LANG", None)  # the locale decides, as at a real terminal
    return pexpect.spawn(sys.executable, ["-m", "avecaesar.editor", *args], env=env,
                         encoding="utf-8", timeout=60, dimensions=(60, 120))


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int, Path]:
    tmp = tmp_path_factory.mktemp("pty")
    rec = tmp / "table.jsonl"
    child = _spawn(["play", "-r", "dicetree-2022", "-c", COURSE, "--humans", ",".join(PEOPLE),
                    "--players", "4", "--bots", "greedy", "--seed", "11", "--record", str(rec)])
    transcript: list[str] = []
    confirms = 0
    for _ in range(60):
        child.expect([CONFIRM, PASS, ASK])
        transcript.append(child.before + child.after)
        if child.match.re is ASK:
            child.sendline("1")
            continue
        if child.match.re is CONFIRM:
            confirms += 1
            if confirms == 2:  # the second person takes the move back: nothing was drawn
                child.sendline("undo")
                continue
        child.sendline("")
    child.expect([CONFIRM, PASS, ASK])
    transcript.append(child.before + child.after)
    child.sendintr()  # Ctrl-C
    child.expect(pexpect.EOF)
    transcript.append(child.before)
    child.close()
    return "".join(transcript), child.exitstatus, rec


def _screens(text: str) -> list[str]:
    return [s for s in text.replace("\r\n", "\n").split(CLEAR) if s.strip()]


def _replayed(rec: Path) -> dict[int, dict[str, object]]:
    """Per ply (1-based, the turn about to be played): every chariot's hand and points left,
    and who drove the turns before it."""
    lines = read_record(rec)
    head = lines[0]
    rules, board = race_setup(head["ruleset"], head["variants"], head["overrides"],
                              head["course"], head.get("house"))
    state, _start = new_race(rules, board, [p["name"] for p in head["players"]],
                             int(head["seed"]))
    out: dict[int, dict[str, object]] = {}
    drivers: list[str] = []
    for ply, line in enumerate([*lines[1:], None], start=1):
        out[ply] = {"hands": [tuple(state.cards(c)) for c in range(state.game.chariots)],
                    "points": [sum(state.hands[c]) + sum(state.decks[c])
                               for c in range(state.game.chariots)],
                    "drivers": list(drivers), "names": list(state.game.names)}
        if line is None or line["type"] == "result":
            break
        drivers.append(line["name"])
        if line["type"] == "skip":
            state.skip(line["reason"])
        else:
            state.push(Move(0, ()) if line["type"] == "wait" else
                       Move(int(line["card"]), tuple(line["path"])))
    return out


def test_ctrl_c_exits_130_and_keeps_the_record(table: tuple[str, int, Path]) -> None:
    text, code, rec = table
    assert code == 130
    assert f"interrupted (Ctrl-C): the record is kept in {rec}" in text
    lines = read_record(rec)
    assert lines[0]["type"] == "header" and len(lines) > 10


def test_each_screen_shows_one_hand_its_owners(table: tuple[str, int, Path]) -> None:
    text, _code, rec = table
    truth = _replayed(rec)
    turns = 0
    for screen in _screens(text):
        hands = re.findall(r"^  hand: (.*)$", screen, re.M)
        mine = re.search(r"^(\w) \((\w+)\), your turn \(turn (\d+)\)", screen, re.M)
        if re.search(r"^pass to \w+ — press Enter", screen, re.M):
            assert not hands, screen  # a pass screen: nobody's hand
            assert "undo" not in screen  # the last card is drawn: nothing to take back
            continue
        if mine is None:
            continue
        turns += 1
        assert len(hands) == 1, screen  # one hand on a screen, never another person's
        letter, name, ply = mine[1], mine[2], int(mine[3])
        assert name in PEOPLE
        fact = truth[ply]
        c = LETTERS.index(letter)
        assert fact["names"][c] == name  # type: ignore[index]
        assert hands[0].split() == [str(k) for k in fact["hands"][c]]  # type: ignore[index]
        for other in PEOPLE:  # no other person's name beside a hand
            if other != name:
                assert f"({other}), your turn" not in screen
    assert turns >= 12


def test_the_public_part_stays_points_left_and_the_bots_moves(
        table: tuple[str, int, Path]) -> None:
    text, _code, rec = table
    truth = _replayed(rec)
    last: dict[str, int] = {}
    checked_bot = 0
    for screen in _screens(text):
        mine = re.search(r"^\w \((\w+)\), your turn \(turn (\d+)\)", screen, re.M)
        if mine is None:
            continue
        name, ply = mine[1], int(mine[2])
        fact = truth[ply]
        assert "seed 11 (repeat it with --seed 11)" in screen
        assert "points left / way home" in screen
        for c, points in enumerate(fact["points"]):  # type: ignore[arg-type]
            row = re.search(rf"^ [ >]{LETTERS[c]} .*?(\d+) / (\d+|-)", screen, re.M)
            assert row is not None and int(row[1]) == points, (LETTERS[c], screen)
        if name in last and last[name] < ply:
            drivers = fact["drivers"][last[name]:ply - 1]  # type: ignore[index]
            bots = sum(1 for d in drivers if d == BOT)
            since = screen.split("since your last turn:")[1] if bots else ""
            shown = len(re.findall(rf"^  \w \({BOT}\) (plays|skips|waits)", since, re.M))
            assert shown == bots, screen
            checked_bot += bots
        last[name] = ply
    assert checked_bot >= 3


def test_undo_before_the_draw_returns_to_the_mover_s_choice(table: tuple[str, int, Path]
                                                           ) -> None:
    """``undo`` at the mover's own prompt (the move chosen, the turn not ended): taken back
    with nothing drawn, and the same person chooses again on the same screen — no pass
    screen, no other hand, the same turn."""
    text, _code, rec = table
    text = text.replace("\r\n", "\n")
    m = re.search(r"end your turn \(your card is drawn then\), or type undo to choose again"
                  r" undo\s*taken back \(nothing was drawn\): choose again\s*your move", text)
    assert m, text[-3000:]
    before, after = text[:m.start()], text[m.end():]
    assert CLEAR not in text[before.rfind("your turn (turn"):m.end()]  # the same screen
    turn = re.findall(r"^\w \((\w+)\), your turn \(turn (\d+)\)", before, re.M)[-1]
    nxt = re.search(r"^\w \((\w+)\), your turn \(turn (\d+)\)", after, re.M)
    assert nxt is not None and (nxt[1], int(nxt[2])) != turn  # the next turn only after it
    truth = _replayed(rec)
    assert truth[int(turn[1]) + 1]["drivers"][-1] == turn[0]  # then the mover's move is kept


def test_three_friends_and_a_bot_in_german(tmp_path: Path) -> None:
    """The same table at a German terminal (LANG=de_DE.UTF-8): German screens, one hand per
    screen, the bot's moves and the points left kept, an undo before the draw, Ctrl-C."""
    rec = tmp_path / "tisch.jsonl"
    env_lang = "de_DE.UTF-8"
    child = _spawn(["play", "-r", "dicetree-2022", "-c", COURSE, "--humans", ",".join(PEOPLE),
                    "--players", "4", "--bots", "greedy", "--seed", "11", "--record", str(rec)],
                   lang=env_lang)
    confirm_de = re.compile(r"Enter beendet deinen Zug[^\n]*$")
    pass_de = re.compile(r"Enter drücken[^\n]*$")
    ask_de = re.compile(r"dein Zug \(Nummer[^\n]*$")
    seen: list[str] = []
    undone = False
    for _ in range(36):
        child.expect([confirm_de, pass_de, ask_de])
        seen.append(child.before + child.after)
        if child.match.re is ask_de:
            child.sendline("1")
        elif child.match.re is confirm_de and not undone:
            undone = True
            child.sendline("undo")
        else:
            child.sendline("")
    child.sendintr()
    child.expect(pexpect.EOF)
    seen.append(child.before)
    child.close()
    assert child.exitstatus == 130
    text = "".join(seen)
    assert "abgebrochen (Strg-C): das Spielprotokoll bleibt in" in text
    assert undone and "zurückgenommen (es wurde nichts gezogen): wähle neu" in text
    turns = 0
    for screen in _screens(text):
        if "du bist am Zug (Zug" not in screen:
            continue
        turns += 1
        assert len(re.findall(r"^  Hand: ", screen, re.M)) == 1, screen
        assert "Startwert 11 (wiederholen mit --seed 11)" in screen
        assert "Punkte übrig / Weg ins Ziel" in screen
        assert " plays " not in screen and "your turn" not in screen
    assert turns >= 6
    assert re.search(rf"\({BOT}\) spielt \d: ", text)  # the bot's moves, in German
