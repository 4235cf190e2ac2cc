"""``avecaesar play`` at the terminal: random seed (a table of people: drawn in secret,
committed to, revealed at the end), pass screen, a move pending until Enter ends the turn
(undo before that, none after), save, resume, the record kept when the input stops;
``--version``."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from avecaesar.editor.main import app
from avecaesar.engine.core.record import read_record

runner = CliRunner()
OVAL = str(Path(__file__).parents[1] / "core" / "courses" / "oval.yaml")
BASE = ["play", "--ruleset", "dicetree-2022", "--course", OVAL]


def test_the_seed_is_random_by_default_and_printed() -> None:
    seeds = set()
    for _ in range(3):
        res = runner.invoke(app, [*BASE, "--humans", "Anna"], input="")
        m = re.search(r"seed (\d+) \(repeat it with --seed \1\); start order: (.*)", res.output)
        assert m, res.output
        seeds.add(m[1])
        again = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", m[1]], input="")
        assert f"start order: {m[2]}" in again.output  # the printed seed repeats the race
    assert len(seeds) > 1


def test_two_people_pass_the_keyboard_and_the_hand_waits_for_enter() -> None:
    res = runner.invoke(app, [*BASE, "--humans", "Anna,Ben", "--seed", "4"],
                        input="\n1\n\n\n1\n\n")
    out = res.output
    first, second = out.index("pass to Anna — press Enter"), out.index("pass to Ben — press Enter")
    hands = [m.start() for m in re.finditer(r"  hand: ", out)]
    # each hand is printed only after its owner pressed Enter on their own pass screen
    assert first < hands[0] < second < hands[1]
    assert "A (Anna)" in out[first:second] and "B (Ben)" in out[second:]
    assert "Anna" not in out[second:].split("  hand: ")[1].split("\n")[0]


def test_undo_takes_back_the_chosen_move_before_its_card_is_drawn(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    res = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", "4", "--record", str(rec)],
                        input="1\nundo\n2\n\nundo\n")
    out = res.output
    assert "press Enter to end your turn (your card is drawn then)" in out
    assert "taken back (nothing was drawn): choose again" in out
    assert read_record(rec)[1]["card"] == read_record(rec)[1]["card"]  # one turn, move 2
    kept = [ln for ln in read_record(rec) if ln["type"] == "move"]
    assert len(kept) >= 1 and kept[0]["ply"] == 1
    # the drawn card came only with Enter; after it, undo is refused
    assert out.count("nothing to undo: a move can be taken back only until it is confirmed") \
        >= 1


def test_save_then_resume_to_the_end(tmp_path: Path) -> None:
    rec = tmp_path / "game.jsonl"
    res = runner.invoke(app, [*BASE, "--humans", "Anna", "--seed", "4"],
                        input=f"1\n\nsave {rec}\n1\n\n")
    assert res.exit_code == 1  # the input stopped before the race did
    assert f"saved to {rec}" in res.output
    assert f"the record is kept in {rec}: continue with --resume {rec}" in res.output
    kept = read_record(rec)
    assert kept[-1]["type"] != "result" and len(kept) >= 3  # header + both people's turns
    done = runner.invoke(app, ["play", "--resume", str(rec)], input="1\n\n" * 300)
    assert done.exit_code == 0, done.output[-1500:]
    assert f"resuming {rec}: {len(kept) - 1} turns replayed" in done.output
    assert "result:" in done.output
    final = read_record(rec)
    assert final[-1]["type"] == "result" and final[:len(kept)] == kept
    assert runner.invoke(app, ["replay", str(rec)]).exit_code == 0


def test_play_without_a_race_or_resume_is_a_clear_error() -> None:
    res = runner.invoke(app, ["play"])
    assert res.exit_code == 2 and "--resume FILE" in res.output


def test_version() -> None:
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and re.fullmatch(r"avecaesar \S+\n", res.output)


def test_every_card_in_hand_is_listed_the_forbidden_ones_with_their_reason() -> None:
    """Races among bots: at every turn each card value of the hand is on exactly one line,
    with the legal moves of the table's choices or the engine's reason (and its citation)
    why it has none."""
    from avecaesar.editor.render.lang import reason_text
    from avecaesar.editor.table.choices import options
    from avecaesar.editor.table.hand import hand_lines
    from avecaesar.engine.bots.policies import greedy_policy
    from avecaesar.engine.core.moves import card_forbidden
    from avecaesar.engine.core.race import new_race
    from avecaesar.engine.core.race_setup import race_setup

    rules, board = race_setup("dicetree-2022", [], {}, "dicetree-2022/arena-carthago", None)
    forbidden = 0
    for seed in range(3):
        state, _ = new_race(rules, board, ["A", "B", "C", "D"], seed)
        while not state.over and state.ply < 120:
            lines, wait = hand_lines(state)
            listed = [k for line in lines for k in line.cards]
            assert sorted(listed) == sorted(set(state.cards(state.turn)) | {
                m.card for m in options(state) if m.card < 0})
            numbers = sorted(i for line in lines for i, _m in line.moves)
            assert numbers + ([wait] if wait else []) == list(range(1, len(options(state)) + 1))
            for line in lines:
                if line.why is not None:
                    assert not line.moves and "—" in line.why  # the reason cites its rule
                    no = card_forbidden(state, state.turn, line.cards[0])
                    if no is not None:
                        assert line.why == reason_text(no)
                        forbidden += 1
            moves = state.legal_moves()
            if moves:
                state.push(greedy_policy(state, list(moves)))
            else:
                state.skip(moves.skip_reason or "blocked")
    assert forbidden >= 3  # the 6-card rule forbade a 6 in hand, and it was said why


def test_the_warning_when_points_left_fall_short_of_the_way_home() -> None:
    from avecaesar.editor.cli.play_screen import short_chariots, table_screen
    from avecaesar.editor.table.game import Game
    from avecaesar.engine.core.race_setup import ChosenRules, Seat

    on = ChosenRules.compose("dicetree-2022").on("dicetree-2022/arena-carthago")
    game = Game.new(on.for_race(seats=[Seat("Anna"), Seat("Ben")], seed=5), None)
    assert short_chariots(game) == []
    c = game.state.turn
    game.state.decks[c] = ()  # a chariot that has spent its deck: its hand only is left
    screen = "\n".join(table_screen(game, 0, "since"))
    assert short_chariots(game) == ["AB"[c]]
    row = next(ln for ln in screen.splitlines() if ln[2:].startswith(f"{'AB'[c]} "))
    held = sum(game.state.hands[c])
    assert f"{held} / " in row and "points short of its shortest way home" in row


def test_end_of_input_has_its_own_message_and_code(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    res = runner.invoke(app, [*BASE, "--humans", "Anna,Ben", "--seed", "4",
                              "--record", str(rec)], input="\n1\n\n")
    assert res.exit_code == 1
    assert f"input ended before the race did; the record is kept in {rec}" in res.output
    assert read_record(rec)[-1]["type"] == "move"


def test_no_undo_once_the_turn_is_ended_and_the_card_drawn() -> None:
    """Two people: Anna ends her turn (Enter draws her card); the pass screen to Ben offers
    no undo, and Ben's first answer 'undo' is refused — Anna's drawn card stays unseen."""
    res = runner.invoke(app, [*BASE, "--humans", "Anna,Ben", "--seed", "4"],
                        input="\n1\n\nundo\n\nundo\n")
    out = res.output
    passing = out.split("pass to Ben")[0].rsplit("=" * 64, 1)[1]  # the pass screen
    assert "undo" not in passing and "press Enter" in out.split("pass to Ben")[1][:20]
    after = out.split("pass to Ben — press Enter")[1]
    assert re.search(r"^B \(Ben\), your turn", after, re.M)
    assert "nothing to undo" in after


def test_a_table_of_people_is_dealt_in_secret_and_verified_at_the_end(tmp_path: Path
                                                                      ) -> None:
    """Without --seed, two people at one terminal are never shown the seed while they play:
    a commitment instead; the end reveals seed and nonce and ``replay --verify`` checks them
    (and fails on a record whose seed or nonce was changed)."""
    import json

    rec = tmp_path / "dealt.jsonl"
    res = runner.invoke(app, [*BASE, "--humans", "Anna,Ben", "--record", str(rec)],
                        input="\n1\n\n" * 400)
    assert res.exit_code == 0, res.output[-800:]
    head = read_record(rec)[0]
    seed, deal = head["seed"], head["deal"]
    before_end = res.output.rsplit("=" * 64, 1)[0]  # up to the last screen, once over
    assert str(seed) not in before_end and deal["nonce"] not in before_end
    assert deal["commitment"][:16] in before_end.splitlines()[0]
    assert f"the seed was {seed}" in res.output
    ok = runner.invoke(app, ["replay", str(rec), "--verify"])
    assert ok.exit_code == 0 and "the deal is verified" in ok.output, ok.output
    for key, value in (("seed", seed + 1), ("nonce", "0" * 32)):
        lines = rec.read_text().splitlines()
        first = json.loads(lines[0])
        if key == "seed":
            first["seed"] = value
        else:
            first["deal"]["nonce"] = value
        bad = tmp_path / f"bad-{key}.jsonl"
        bad.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
        no = runner.invoke(app, ["replay", str(bad), "--verify"])
        assert no.exit_code == 1 and "does not match" in no.output, no.output


def test_the_table_view_says_why_a_card_in_hand_has_no_move() -> None:
    """The web table's own-hand view carries, per card without a move, the same reason as
    the terminal (and only on the device of the person to move)."""
    from avecaesar.editor.table.game import Game
    from avecaesar.engine.core.race_setup import ChosenRules, Seat

    on = ChosenRules.compose("dicetree-2022").on("dicetree-2022/arena-carthago")
    for seed in range(60):
        game = Game.new(on.for_race(seats=[Seat("Anna"), Seat("Ben")], seed=seed), None)
        c = game.state.turn
        if 6 not in game.state.cards(c):
            continue
        seat = game.owner[c]
        mine = game.view_for(seat)["private"]
        assert "nobody in the first start row may open with a 6" in mine["why"]["6"]
        assert mine["why"]["6"].endswith("— DiceTree 2022 rulebook (DE) S.5")
        assert "why" not in game.view_for(1 - seat)["private"]
        return
    raise AssertionError("no seed dealt a 6 to the first player")
