"""The 6-card rule asked by several tables at once, in threads (issue 34).

The web table runs each table's engine calls in a worker thread (one lock per table, none
between tables). The rule's release ``cannot_be_passed`` (every edition's
``six_rule.free_when``) works out the other chariots' legal moves, in which the same
question, asked about them, must not recurse: that guard was a flag of the module
(``_PASSING = [False]`` in core/moves.py), so a table asking in one thread made another
table's leader, asking at the same moment, look passable — a leader who should be free was
bound, or (the flag cleared by the other thread in the middle of the question) one who
should be bound was free. The guard is now a value passed down the call.

Each thread asks its own table's question over and over, the interpreter switching threads
as often as it can; every answer must be the one the question gets alone.
``AVECAESAR_SIX_THREAD_ROUNDS`` sets the rounds (default 1,000 per thread). With the old
flag, pure Python gave 47–709 wrong answers of 1,000 on the joint-leader tables in each of
three runs; the compiled flavour holds the interpreter through the whole question, so there
the race did not show in this test (``make test`` runs it in both flavours).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

from avecaesar.engine.core.moves import six_rule
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.state import RaceState

ROUNDS = int(os.environ.get("AVECAESAR_SIX_THREAD_ROUNDS", "1000"))

# (edition, position on the test oval): A to move, leading with 6, 6, 6
TABLES = [
    # B is stuck behind A on the chicane (its 3 is blocked): A cannot be passed, its 6 is
    # free — the question that works out B's moves (a table asking it while another's guard
    # is up found A passable)
    ("dicetree-2022", "49,2,s,666,1,5,r 46,2,s,3,-,4,r | A 0 90 -"),
    ("ravensburger-1989", "49,2,s,666,1,5,r 46,2,s,3,-,4,r | A 0 90 -"),
    # B can drive its 1 past: A is bound
    ("pro-ludo-2006", "22,2,s,666,1,5,r 19,2,s,111,-,4,r | A 0 90 -"),
    # A and B lead jointly (22 and 29 have the same progress), both with only sixes: B's
    # moves ask B's own release, which is where the guard decides — asked of B, A is
    # passable, so B is bound, B cannot move, and A is free (the guard lowered by another
    # thread in the middle of this made A bound)
    ("dicetree-2022", "22,2,s,666,1,5,r 29,2,s,666,1,4,r | A 0 90 -"),
    ("pro-ludo-2006", "22,2,s,666,1,5,r 29,2,s,666,1,4,r | A 0 90 -"),
]


def _ask_in_threads(states: list[RaceState], rounds: int) -> list[list[str | None]]:
    """Every table's answers, each table asking ``rounds`` times in a thread of its own,
    all started together, the interpreter switching threads as often as it can."""
    answers: list[list[str | None]] = [[] for _ in states]
    start = threading.Barrier(len(states))

    def run(i: int) -> None:
        start.wait()
        for _ in range(rounds):
            answers[i].append(six_rule(states[i], 0))

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(states))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    return answers


def test_the_tables_questions_differ(position: Callable[..., RaceState]) -> None:
    """The positions ask the rule different things: some leaders are free, some bound."""
    alone = [six_rule(position(edition, text), 0) for edition, text in TABLES]
    assert alone == [None, None, alone[2], None, None]
    bound = alone[2]
    assert bound is not None and bound.code == "lead_no"
    assert isinstance(bound.params["lead"], Reason) and bound.params["lead"].code == "lead"


def test_six_card_questions_in_parallel_threads_get_the_answer_each_gets_alone(
        position: Callable[..., RaceState]) -> None:
    states = [position(edition, text) for edition, text in TABLES]
    alone = [six_rule(s, 0) for s in states]
    answers = _ask_in_threads(states, ROUNDS)
    wrong = {f"table {i} ({TABLES[i][0]})": sum(a != alone[i] for a in got)
             for i, got in enumerate(answers) if any(a != alone[i] for a in got)}
    assert [len(a) for a in answers] == [ROUNDS] * len(states)
    assert wrong == {}, f"answers that differ from the table's own, of {ROUNDS} each: {wrong}"
