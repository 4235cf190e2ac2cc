"""Mutations of good inputs into broken ones, for the fuzzers (tests/hardening/test_fuzz.py,
the CI-sized run, and tools/fuzz_inputs.py, the large run).

Every mutation takes a :class:`random.Random`, so a run is reproducible from its seed and
hypothesis can drive it (``st.randoms()``). Mutations work on the parsed data (a key removed,
a value replaced by one of another kind or out of range, a label misspelt) or on the text (cut
short, bytes inserted, indentation broken, an alias bomb appended).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import yaml

__all__ = ["NONSENSE", "mutate_record_line", "mutate_text", "mutate_yaml"]

#: values of every kind, in and out of range, for any field
NONSENSE: list[Any] = [
    0, -1, 1, 7, 99, 100_000, 10**30, -10**12, 0.5, float("nan"), float("inf"), -float("inf"),
    "", "x", "nonsense", "../../../etc/passwd", "/dev/zero", "home.9.9", "alley.99",
    "a" * 500, True, False, None, [], [1, 2], [[0, 1]], ["home.0.0", "nowhere.0.0"], {},
    {"a": 1}, {"straight": {"length": 3}}, "no", "1989", "1e400",
]

_BOMB = ("\nzz0: &z0 [a, a, a, a, a, a, a, a, a, a]\n"
         + "".join(f"zz{i}: &z{i} [{', '.join([f'*z{i - 1}'] * 10)}]\n" for i in range(1, 8)))


def _nonsense(rng: random.Random) -> Any:
    """A value of NONSENSE, copied: a list or mapping put into the data is mutated by later
    steps, and the shared one must not be (once it was put inside itself: a cycle)."""
    return copy.deepcopy(rng.choice(NONSENSE))


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in ``data`` (the root excluded)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append((*path, k))
            out.extend(_paths(v, (*path, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append((*path, i))
            out.extend(_paths(v, (*path, i)))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        data = data[p]
    return data


def mutate_yaml(text: str, rng: random.Random, steps: int = 1) -> str:
    """``text`` (a YAML mapping) with ``steps`` structural mutations, dumped back as YAML."""
    data = yaml.safe_load(text)
    for _ in range(steps):
        paths = _paths(data)
        if not paths:
            break
        path = rng.choice(paths)
        parent = _parent(data, path)
        key = path[-1]
        op = rng.randrange(6)
        if op == 0:  # remove
            del parent[key]
        elif op == 1:  # replace with nonsense
            parent[key] = _nonsense(rng)
        elif op == 2 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] = rng.choice([0, -parent[key], parent[key] * 1000, parent[key] + 1,
                                      parent[key] - 1, 10**9])
        elif op == 3 and isinstance(parent[key], str):  # misspell a name or label
            s = parent[key]
            i = rng.randrange(len(s) + 1)
            parent[key] = s[:i] + rng.choice("xq.9-_/") + s[i + 1:]
        elif op == 4 and isinstance(parent, list):  # duplicate an item
            parent.insert(rng.randrange(len(parent) + 1), parent[key])
        elif op == 5 and isinstance(parent, dict):  # an unknown key next to it
            parent[rng.choice(["lenght", "trak", "alley2", "x", "value", "from"])] = \
                _nonsense(rng)
        else:
            parent[key] = _nonsense(rng)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def mutate_text(text: str, rng: random.Random) -> str | bytes:
    """A text-level breakage: cut, garbage, bad indentation, tabs, an alias bomb, NULs."""
    op = rng.randrange(8)
    lines = text.splitlines()
    if op == 0:
        return text[: rng.randrange(len(text) + 1)]
    if op == 1 and lines:
        i = rng.randrange(len(lines))
        lines[i] = " " * rng.randrange(1, 5) + lines[i]
        return "\n".join(lines)
    if op == 2 and lines:
        i = rng.randrange(len(lines))
        lines[i] = "\t" + lines[i]
        return "\n".join(lines)
    if op == 3:
        return text + _BOMB
    if op == 4:
        i = rng.randrange(len(text) + 1)
        return (text[:i].encode() + bytes(rng.randrange(256) for _ in range(8))
                + text[i:].encode())
    if op == 5:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["{", "[", "]", ": :", "&a", "*nope", "!!python/object",
                                      "\x00", "'", '"', "- -", "? "]) + text[i:]
    if op == 6:
        return "[" * 500 + text
    return "\n".join(lines[: max(1, len(lines) // 2)]) + "\n" + "\n".join(lines)


def mutate_record_line(line: str, rng: random.Random) -> str:
    """One JSON line of a game record with one field changed (or the line broken)."""
    doc = json.loads(line)
    paths = _paths(doc)
    if not paths or rng.random() < 0.1:
        return line[: rng.randrange(len(line) + 1)]
    path = rng.choice(paths)
    parent = _parent(doc, path)
    value = parent[path[-1]]
    choices = list(NONSENSE)
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [value + 1, value - 1, -value]
    if isinstance(value, str) and value:
        choices += [value[::-1], value + "x", "A", "F", "L"]
    parent[path[-1]] = copy.deepcopy(rng.choice(choices))
    try:
        return json.dumps(doc, allow_nan=True)
    except ValueError:  # e.g. 10**30 nested too deep is fine; a cycle is impossible
        return line
