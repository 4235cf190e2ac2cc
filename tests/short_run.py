"""The CI-sized run of a command the docs or a command's ``Example:`` show (read by
tests/hardening/test_doc_commands.py and tests/layers/test_registries.py): the same command
and options, with a simulation's race counts cut (``--races``/``-k`` to at most 20, a
ladder's to 6, ``--screen`` to the least it takes, 10) and, unless it names its processes,
one process (``--workers 1``): a report does not depend on the worker count
(tests/lab/test_simulate.py, tests/lab/test_assistant.py), and a pool of fresh processes
costs more than 20 races."""

from __future__ import annotations

CUT = {"--races": 20, "-k": 20, "--screen": 10}
POOLED = (["simulate"], ["balance"], ["course", "balance"])  # the commands with --workers


#: a skill ladder races every entrant (the expert at up to 128 rollouts) in each race: 6 races
LADDER_RACES = 6


def short_run(words: list[str]) -> list[str]:
    """``words`` (the command's words after ``avecaesar``) as the tests run them."""
    out: list[str] = []
    skip = False
    cut = {**CUT, **({"--races": LADDER_RACES, "-k": LADDER_RACES} if "--ladder" in words
                     else {})}
    for i, w in enumerate(words):
        if skip:
            skip = False
            continue
        if w in cut and i + 1 < len(words) and words[i + 1].isdigit():
            out += [w, str(min(int(words[i + 1]), cut[w]))]
            skip = True
            continue
        out.append(w)
    pooled = any(out[:len(p)] == p for p in POOLED)
    if pooled and "--workers" not in out and "--cluster" not in out:
        out += ["--workers", "1"]
    return out
