"""What the table says says it right (issue 36): a why-not names only cards a deck holds,
the end names each chariot's result with its reason, the winner first."""

from __future__ import annotations

import re

from avecaesar.editor.render.lang import language
from avecaesar.editor.table.choices import reach_counts, why_not_target
from avecaesar.editor.table.game import Game
from avecaesar.engine.bots.policies import greedy_policy
from avecaesar.engine.core.race import new_race
from avecaesar.engine.core.race_setup import ChosenRules, Seat, race_setup


def test_a_why_not_names_only_cards_the_deck_holds() -> None:
    """Spaces 7 to 12 ahead are reached by no card of a 1-6 deck: the why-not says so
    (was "reached with a 8 or 9 or 10 or 11"); a space some card reaches names those."""
    rules, board = race_setup("dicetree-2022", [], {}, "dicetree-2022/arena-carthago", None)
    state, _ = new_race(rules, board, ["A", "B", "C"], 5)
    held = set(rules.deck)
    named = beyond = 0
    for _ in range(12):  # a few turns in, from wherever the chariot to move stands
        c, pos = state.turn, state.pos[state.turn]
        for target in range(len(board.succ)):
            counts = reach_counts(state, pos, target) if pos is not None else []
            if not counts or any(m.path[-1] == target for m in state.legal_moves()):
                continue
            why = why_not_target(state, 1, target)
            cards = {int(x) for x in re.findall(r"reached with a ([\d or]+), not",
                                                  why)[0].split(" or ")} \
                if "reached with" in why else set()
            assert cards <= held, why
            named += bool(cards)
            beyond += "no card of the deck moves that far" in why
        state.push(greedy_policy(state, list(state.legal_moves())))
        assert state.turn != c or state.over
    assert named and beyond


def test_the_end_names_each_chariot_s_result_with_its_reason() -> None:
    on = ChosenRules.compose("dicetree-2022").on("dicetree-2022/arena-carthago")
    seats = [Seat("Ada", "greedy"), Seat("Bea", "random"), Seat("Cleo", "greedy")]
    game = Game.new(on.for_race(seats=seats, seed=11), None)
    while not game.state.over:
        game.step_bot()
    result = game.view_for(None)["result"]
    first = result["placings"][0]
    assert first["place"] == 1 and first["why"].startswith("finishes (1. over the line)")
    for p in result["placings"]:
        assert p["why"] and p["name"] not in p["why"], p
        if p["disqualified"]:
            assert "disqualified" in p["why"]
        elif not p["finished"]:
            assert p["why"] == "not finished" or "removed" in p["why"] or "crashes" in p["why"]
    with language("de"):
        german = game.view_for(None)["result"]["placings"][0]["why"]
    assert german.startswith("ist im Ziel (1. über der Linie)")
