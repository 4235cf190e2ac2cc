"""Making the published vectors: ask the engine the questions of every suite
(engine/lab/vector_suites.py), and write the answers — never silently over a changed one.

The questions of a suite file that exists are kept as they are (a position, its probes, a
race's seed and bots): ``vectors make`` asks them again and compares. A vector whose answer
changed, a hand-counted position whose count changed, or a vector that would be dropped is
*refused*: the file is not written, each difference is listed, and only ``--accept``
writes them (a rule change must be a visible diff). A suite without a file yet is sampled
from its seeded races (``--resample`` samples an existing one afresh, with the same care).

What each vector covers is found, not declared: ``breaks_if`` names the rule keys whose
change (a ``--set`` value, tried against the composed rules) changes that vector's answer
— the vectors ``avecaesar vectors check --set KEY=VALUE`` then fails; ``shows`` names the
keys with one supported value that the vector shows being applied (witnesses:
:data:`WITNESSES`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.moves import walks, why_not
from avecaesar.engine.core.player_counts import player_counts
from avecaesar.engine.core.race import Policy, run_race
from avecaesar.engine.core.race_setup import ChosenRules, RaceSetup, Seat
from avecaesar.engine.core.reasons import REASONS
from avecaesar.engine.core.record import record_lines
from avecaesar.engine.core.rule_map import RULE_MAP
from avecaesar.engine.core.state import LETTERS, WAIT, Move, RaceState
from avecaesar.engine.core.tournament import run_tournament
from avecaesar.engine.course.load import Course, bundled_course_ids
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.paths import VECTORS_DIR
from avecaesar.engine.data.safeio import write_atomic
from avecaesar.engine.data.values import Json, JsonDict, as_int, as_list
from avecaesar.engine.lab.vector_suites import SUITES_FILE, SuiteSpec, find_suite, read_suites
from avecaesar.engine.lab.vectors import (
    FORMAT,
    KINDS,
    VERSION,
    Suite,
    board_file,
    board_table,
    count_answer,
    position_answer,
    rule_values,
    state_of,
    turn_options,
    vector_problem,
)
from avecaesar.engine.ruleset.keys import leaf_schema
from avecaesar.engine.ruleset.load import load_ruleset

__all__ = ["WITNESSES", "Made", "make_folder", "mutations", "reasons_doc", "suite_document",
           "write_document"]

#: the fields of a vector that are its question (kept by ``vectors make``), per kind
QUESTION = {"positions": ("position", "ownerless", "owners", "probes_asked", "note",
                          "hand_count"),
            "counts": ("position", "ownerless", "owners", "note"),
            "races": ("seed", "players"), "tournaments": ("seed", "players")}
#: the fields that are its answer (a change of one is refused without --accept)
ANSWER = {"positions": ("legal", "skip", "cards", "probes"), "counts": ("counts", "divide"),
          "races": ("record",), "tournaments": ("record",)}
MAX_PROBES = 6
MAX_PERFT = 6000  # the most sequences of 3 turns a counts vector may have (check time)


# --- sampling the questions ------------------------------------------------------------

@dataclass
class _Moment:
    """A position met in a sampled race, with what the engine answers there."""

    state: RaceState
    question: JsonDict
    answer: JsonDict
    tags: list[str] = field(default_factory=list)


def _question(state: RaceState) -> JsonDict:
    game = state.game
    q: JsonDict = {"position": state.notation()}
    if game.ownerless and any(game.ownerless):
        q["ownerless"] = "".join(LETTERS[c] for c, f in enumerate(game.ownerless) if f)
    if game.owners:
        q["owners"] = list(game.owners)
    return q


def _policies(spec: SuiteSpec, seed: int) -> tuple[list[str], list[str], list[Policy]]:
    kinds = [b for b in spec.bots.split(",") if b]
    seats = [kinds[i % len(kinds)] for i in range(spec.players)]
    names = [f"P{i + 1}-{k}" for i, k in enumerate(seats)]
    return names, seats, [make_policy(k, seed * 100 + i) for i, k in enumerate(seats)]


def _moments(spec: SuiteSpec, setup: RaceSetup) -> Iterator[tuple[int, int, _Moment]]:
    """Every position before a turn of the suite's seeded races: (seed, ply, moment)."""
    for seed in spec.seeds:
        names, _kinds, policies = _policies(spec, seed)
        run = run_race(setup.race_rules, setup.board, names, policies, seed,
                       ownerless=OWNERLESS)
        state = RaceState.parse(run.state.game, run.setup["start"])
        state.log = False
        for ply, turn in enumerate(run.turns):
            snap = state.copy()
            snap.log = False
            yield seed, ply, _Moment(snap, _question(snap), position_answer(snap))
            if "move" in turn:
                state.push(turn["move"])
            else:
                state.skip(turn["skip"])


def _tags(m: _Moment) -> list[str]:
    """What makes a position worth a vector (the first of each kind is kept)."""
    a, s = m.answer, m.state
    out = [f"skip {a['skip']}"] if a["skip"] else []
    out += [f"no {k}: {r['code']}" for k, r in a["cards"].items() if r]
    legal = a["legal"]
    out += ["wait offered"] * ("wait" in legal)
    out += ["ramming attack offered"] * any("!" in x for x in legal)
    out += ["bonus piece offered"] * any(x.startswith("+") for x in legal)
    out += ["lapsed points"] * any(_short_path(x) for x in legal)
    out += ["a chariot nobody drives to move"] * s.game.is_ownerless(s.turn)
    out += ["a player orders their chariots"] * (len(s.choosable()) > 1)
    out += ["after the first finisher"] * bool(s.finish_order)
    here = s.pos[s.turn]
    out += ["in the alley"] * (here is not None and s.game.board.alley[here])
    return out


def _short_path(text: str) -> bool:
    m = Move.parse(text)
    return m.card > 0 and 0 < len(m.path) < m.card


def _select(moments: list[_Moment], n: int) -> list[_Moment]:
    """The first moment of each tag, then moments spread evenly over the races, ``n`` in
    all (distinct positions)."""
    out: list[_Moment] = []
    seen_tags: set[str] = set()
    seen: set[str] = set()
    for m in moments:
        m.tags = _tags(m)
        new = [t for t in m.tags if t not in seen_tags]
        if new and m.question["position"] not in seen and len(out) < n:
            out.append(m)
            seen.add(m.question["position"])
            seen_tags.update(m.tags)
    step = max(1, len(moments) // max(1, n - len(out) + 1))
    for m in moments[step::step]:
        if len(out) >= n:
            break
        if m.question["position"] not in seen:
            out.append(m)
            seen.add(m.question["position"])
    return out


def probes_for(state: RaceState) -> list[str]:
    """Moves that are not legal here, one for each reason the engine can give for them:
    a card not held, a path too short or not forward, no path, waiting, ramming, the bonus
    piece, a walk on past the line, a walk onto a taken space — at most :data:`MAX_PROBES`,
    each reason once."""
    c = state.turn
    legal = list(state.legal_moves())
    cards = sorted(set(state.cards(c)))
    candidates: list[Move] = []
    missing = next((k for k in range(1, 7) if k not in cards), None)
    if missing is not None:
        candidates += [Move(missing, p) for p in _first_walk(state, c, missing)]
    real = [m for m in legal if m.card > 0]
    if real:
        m = real[-1]
        if len(m.path) > 1:
            candidates.append(Move(m.card, m.path[:-1]))
        start = state.pos[c]
        if start is not None:
            candidates.append(Move(m.card, (start, *m.path[1:])))
        candidates.append(Move(m.card, ()))
        others = [o for o in range(len(state.pos)) if o != c and state.pos[o] is not None]
        if others:
            candidates.append(Move(m.card, m.path, others[0]))
        candidates.append(Move(-3, m.path[:3]))
        candidates += _past_the_line(state, c, m)
    candidates.append(WAIT)
    for k in cards:
        for p in walks(state, c, k, empty=True):
            if Move(k, p) not in legal:
                candidates.append(Move(k, p))
                break
    if state.end is not None:
        candidates = [Move(cards[0] if cards else 1, ())]
    out: list[str] = []
    codes: set[str] = set()
    for move in candidates:
        why = why_not(state, move)
        if why is None or why.code in codes:
            continue
        codes.add(why.code)
        out.append(str(move))
        if len(out) >= MAX_PROBES:
            break
    return out


def _first_walk(state: RaceState, c: int, k: int) -> list[tuple[int, ...]]:
    return [p for p in walks(state, c, k, empty=True)][:1] or [()]


def _past_the_line(state: RaceState, c: int, m: Move) -> list[Move]:
    """A move that drives on after the step over the line of the last lap (if ``m``
    finishes)."""
    board = state.game.board
    if not m.path or not any(cross for v, cross in board.succ[m.path[-2] if len(
            m.path) > 1 else state.pos[c] or 0] if v == m.path[-1]):
        return []
    nxt = board.succ[m.path[-1]]
    return [Move(m.card, (*m.path, nxt[0][0]))] if nxt else []


def _counts_from(moments: list[_Moment], n: int) -> list[tuple[_Moment, JsonDict]]:
    """Positions whose sequences of 3 turns are at most :data:`MAX_PERFT`, spread over the
    races, with their counts; those with a skip, a wait or a ramming attack first."""
    if n <= 0:
        return []
    small = [m for m in moments if 0 < len(turn_options(m.state)) <= 14]
    keen = [m for m in small if m.tags]
    rest = [m for m in small if not m.tags]
    step = max(1, len(rest) // (n + 1))
    out: list[tuple[_Moment, JsonDict]] = []
    for m in [*keen, *rest[step::step]]:
        if len(out) >= n:
            break
        answer = count_answer(m.state)
        if 0 < answer["counts"][-1] <= MAX_PERFT:
            out.append((m, answer))
    return out


def _race_vector(spec: SuiteSpec, setup: RaceSetup, seed: int) -> JsonDict:
    names, kinds, policies = _policies(spec, seed)
    race = setup.for_race(seats=[Seat(n, k) for n, k in zip(names, kinds, strict=True)],
                          seed=seed)
    run = run_race(race.race_rules, race.board, names, policies, seed, ownerless=OWNERLESS)
    # the course as the suite names it (a file relative to the vectors folder, wherever
    # that folder is), so the record is the same whichever folder it was made in
    header = {**race.header(), "course": spec.suite.course,
              "variants": list(spec.suite.variants)}
    return {"seed": seed, "players": [{"name": n, "bot": k} for n, k in zip(names, kinds,
                                                                             strict=True)],
            "record": record_lines(run, header)}


def _tournament_vector(spec: SuiteSpec, setup: RaceSetup, seed: int) -> JsonDict:
    chosen = setup.rules
    names, kinds, policies = _policies(spec, seed)
    course = chosen.course_setups()
    pool = chosen.course_pool()
    header = {**chosen.header(), "courses": None,
              "players": [{"name": n, "bot": k} for n, k in zip(names, kinds, strict=True)],
              **chosen.header_facts(), "tournament_seed": seed}
    done = run_tournament(chosen.tournament_rules, course, names, policies, seed, None, pool,
                          header, ownerless=OWNERLESS)
    return {"seed": seed, "players": header["players"], "record": done.record()}


# --- the suite's document -------------------------------------------------------------------

def _position_vector(m: _Moment, vid: str, note: str | None = None,
                     hand: int | None = None, asked: Sequence[str] = ()) -> JsonDict:
    probes = list(dict.fromkeys([*probes_for(m.state), *asked]))
    answer = position_answer(m.state, probes)
    v: JsonDict = {"id": vid, **m.question}
    if note or m.tags:
        v["note"] = note or "; ".join(m.tags)
    if hand is not None:
        v["hand_count"] = hand
    return {**v, **answer}


def _asked(setup: RaceSetup, vector: JsonDict) -> _Moment:
    state = state_of(setup, vector)
    return _Moment(state, {k: vector[k] for k in ("position", "ownerless", "owners")
                           if k in vector}, position_answer(state))


def suite_document(spec: SuiteSpec, folder: Path, old: JsonDict | None = None
                   ) -> JsonDict:
    """A suite's vector file: its questions (``old``'s if given, else sampled, and the hand
    counts) with the engine's answers now and what they rest on (what each vector covers:
    :func:`annotate`)."""
    suite = spec.suite
    setup = suite.setup(folder)
    values, cites = rule_values(setup.rules)
    doc: JsonDict = {
        "format": FORMAT, "version": VERSION, "suite": suite.name, "rules": suite.rules_json(),
        "course": suite.course, "board": board_file(suite, folder), "players": list(
            player_counts(setup.race_rules, setup.board).allowed),
        "values": values, "citations": cites}
    if old is None:
        doc.update(_sampled(spec, setup))
    else:
        doc.update(_asked_again(spec, setup, old))
    for kind in KINDS:
        doc[kind] = doc.get(kind, [])
    return doc


def _hand_vectors(spec: SuiteSpec, setup: RaceSetup) -> list[JsonDict]:
    out = []
    for i, h in enumerate(spec.hand, start=1):
        m = _asked(setup, {"position": h.position})
        out.append(_position_vector(m, f"h{i:02d}", h.note, h.count))
    for i, a in enumerate(spec.ask, start=1):
        question = {"position": a.position, **({"ownerless": a.ownerless} if a.ownerless
                                                else {})}
        out.append(_position_vector(_asked(setup, question), f"a{i:02d}", a.note,
                                    asked=a.probes))
    return out


def _sampled(spec: SuiteSpec, setup: RaceSetup) -> JsonDict:
    moments = [m for _s, _p, m in _moments(spec, setup)]
    picked = _select(moments, spec.positions)
    positions = _hand_vectors(spec, setup) + [
        _position_vector(m, f"p{i:02d}") for i, m in enumerate(picked, start=1)]
    counts = [{"id": f"c{i:02d}", **m.question, **({"note": "; ".join(m.tags)} if m.tags
                                                   else {}), **a}
              for i, (m, a) in enumerate(_counts_from(moments, spec.counts), start=1)]
    races = [{"id": f"r{i:02d}", **_race_vector(spec, setup, seed)}
             for i, seed in enumerate(spec.seeds[:spec.races], start=1)]
    tours = [{"id": f"t{i:02d}", **_tournament_vector(spec, setup, seed)}
             for i, seed in enumerate(spec.seeds[:spec.tournaments], start=1)]
    return {"positions": positions, "counts": counts, "races": races, "tournaments": tours}


def _asked_again(spec: SuiteSpec, setup: RaceSetup, old: JsonDict
                 ) -> JsonDict:
    out: JsonDict = {}
    positions = []
    for v in old.get("positions", []):
        state = state_of(setup, v)
        probes = [p["move"] for p in v.get("probes", [])]
        keep = {k: v[k] for k in ("id", "position", "ownerless", "owners", "note",
                                  "hand_count") if k in v}
        positions.append({**keep, **position_answer(state, probes)})
    out["positions"] = positions
    out["counts"] = [{**{k: v[k] for k in ("id", "position", "ownerless", "owners", "note")
                         if k in v}, **count_answer(state_of(setup, v))}
                     for v in old.get("counts", [])]
    out["races"] = [{"id": v["id"], **_race_vector(spec, setup, int(v["seed"]))}
                    for v in old.get("races", [])]
    out["tournaments"] = [{"id": v["id"], **_tournament_vector(spec, setup, int(v["seed"]))}
                          for v in old.get("tournaments", [])]
    return out


# --- what each vector covers ----------------------------------------------------------------

def mutations(chosen: ChosenRules) -> dict[str, list[str]]:
    """Per rule key of the rule map the composed rules state, ``--set`` values to try
    against it (YAML text): the same value (only its citation changes, to the ``--set``
    one), then other values of its kind (every other enumerated value, the other boolean,
    a number one more and one less, a list changed in one place)."""
    rs = chosen.composed
    choices = _open_choices(chosen)
    out: dict[str, list[str]] = {}
    for key in RULE_MAP:
        if not rs.has(key) or rs.rule(key).get("unknown"):
            continue
        value = rs.value(key)
        want = leaf_schema(key)["properties"]["value"]
        alts = [json.dumps(value)]
        alts += [json.dumps(e) for e in want.get("enum", []) if e != value][:2]
        alts += [json.dumps(c) for c in choices.get(key, []) if c != value]
        if isinstance(value, bool):
            alts.append(json.dumps(not value))
        elif isinstance(value, int):
            alts += [json.dumps(value + 1), json.dumps(value - 1)]
        elif isinstance(value, list) and value and all(isinstance(x, int) for x in value):
            alts += [json.dumps([value[0] + 1, *value[1:]]), json.dumps(value[1:] or [1])]
        elif value is None or isinstance(value, list):
            alts += [json.dumps(v) for v in _list_alternatives(key, value)]
        elif isinstance(value, Mapping):
            alts += [json.dumps(v) for v in _mapping_alternatives(key, value, want)]
        out[key] = list(dict.fromkeys(alts))
    return out


def _open_choices(chosen: ChosenRules) -> dict[str, list[Json]]:
    """The answers each open value lists (``choices``) that the suite supplies with
    ``--set``: the rules composed once without the suite's overrides still hold them."""
    if not chosen.overrides:
        return {}
    try:
        plain = load_ruleset(chosen.ruleset, list(chosen.variants), None, chosen.house)
    except AveCaesarError:
        return {}
    return {key: list(as_list(plain.rule(key).get("choices") or [], key))
            for key in chosen.overrides_dict if plain.has(key)}


def _mapping_alternatives(key: str, value: Mapping[str, Json], want: JsonDict
                          ) -> list[Json]:
    """Values to try for a rule whose value is a mapping: none at all (when the schema
    allows null), each field with an enumerated value changed to its other values, each
    whole-number field one more; an event's effects (``effects.extra``) with one effect's
    parameter changed."""
    out: list[Json] = []
    types = want.get("type")
    if isinstance(types, list) and "null" in types:
        out.append(None)
    fields = want.get("properties")
    for name, field_value in value.items():
        schema = fields.get(name, {}) if isinstance(fields, Mapping) else {}
        if isinstance(field_value, bool):
            continue
        if isinstance(field_value, int):
            out.append({**value, name: field_value + 1})
        for other in schema.get("enum", []) if isinstance(schema, Mapping) else []:
            if other != field_value:
                out.append({**value, name: other})
        if isinstance(field_value, list):  # an event's effects: one parameter changed
            for i, effect in enumerate(field_value):
                if isinstance(effect, Mapping):
                    out += [{**value, name: [*field_value[:i], e, *field_value[i + 1:]]}
                            for e in _entry_changed(effect)]
    return out


def _list_alternatives(key: str, value: Json) -> list[Json]:
    """Values to try for a rule whose value is a list of conditions or entries."""
    if key.startswith("six_rule."):
        return [None, ["on_chicane"], ["leading"]]
    if key == "deck.composition":  # a 1 and a 5 become two 3s: the same points and cards
        entries = [e for e in as_list(value, key) if isinstance(e, Mapping)]
        counts = {as_int(e["card"], key): as_int(e["count"], key) for e in entries}
        if counts.get(1) and counts.get(5):
            counts[1] -= 1
            counts[5] -= 1
            counts[3] = counts.get(3, 0) + 2
        return [[{"card": k, "count": n} for k, n in sorted(counts.items()) if n]]
    if key == "start.rows":
        return [None, [[1, 2], [3, 4, 5, 6]]]
    if key == "alley.wait_laps":
        return [[1], [3]]
    if key == "card_restrictions.extra":
        return [[{"cards": [1], "forbidden_when": "leading"}]]
    if key == "effects.extra":
        return [{"alley_stop": [{"effect": "draw_card", "count": 1}]}]
    out: list[Json] = [value[:1]] if isinstance(value, list) and len(value) > 1 else []
    if isinstance(value, list):  # entries that are mappings: one number or card list changed
        for i, entry in enumerate(value):
            if isinstance(entry, Mapping):
                out += [[*value[:i], e, *value[i + 1:]] for e in _entry_changed(entry)]
    return out


def _entry_changed(entry: Mapping[str, Json]) -> list[Json]:
    """An entry with each whole-number field one more, and each list of numbers with a
    point moved from its largest number to its smallest (the same sum — a deck keeps its
    84 points — and other cards)."""
    out: list[Json] = []
    for name, v in entry.items():
        if isinstance(v, int) and not isinstance(v, bool):
            out.append({**entry, name: v + 1})
        elif isinstance(v, list) and len(v) > 1 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in v):
            numbers = [as_int(x, name) for x in v]
            lo, hi = numbers.index(min(numbers)), numbers.index(max(numbers))
            if numbers[hi] - numbers[lo] >= 2:
                numbers[lo] += 1
                numbers[hi] -= 1
                out.append({**entry, name: list(numbers)})
    return out


def _mutated(suite: Suite, folder: Path, key: str, alt: str, base: RaceSetup,
             loaded: Course) -> RaceSetup | None:
    """The suite's setup with ``--set key=alt``, or None when it does not compose or
    changes nothing the engine reads."""
    try:
        setup = suite.setup(folder, {key: alt}, loaded)
    except AveCaesarError:
        return None
    same = (setup.race_rules == base.race_rules
            and setup.race_rules.citations == base.race_rules.citations
            and setup.rules.tournament_rules == base.rules.tournament_rules)
    return None if same else setup


def annotate(doc: JsonDict, base: RaceSetup, folder: Path) -> None:
    """Fill each vector's ``breaks_if`` (the rule changes that change its answer, each the
    first value of :func:`mutations` that does) and ``shows`` (:data:`WITNESSES`)."""
    suite = Suite.from_json(doc)
    loaded = suite.course_of(folder)
    breaks: dict[str, dict[str, str]] = {}
    for key, alts in mutations(base.rules).items():
        for alt in alts:
            setup = _mutated(suite, folder, key, alt, base, loaded)
            if setup is None:
                continue
            hit = [(kind, v) for kind in KINDS for v in doc[kind]
                   if vector_problem(kind, setup, v, suite) is not None]
            for _kind, v in hit:
                breaks.setdefault(v["id"], {}).setdefault(key, alt)
            if hit:
                break
    for kind in KINDS:
        for v in doc[kind]:
            v.pop("breaks_if", None)
            v.pop("shows", None)
            if v["id"] in breaks:
                v["breaks_if"] = dict(sorted(breaks[v["id"]].items()))
            shown = sorted(k for k, w in WITNESSES.items() if w(kind, v, doc, base))
            if shown:
                v["shows"] = shown


def _moves_of(kind: str, v: JsonDict) -> list[str]:
    """The moves a position or count vector lists (not the skip)."""
    if kind == "positions":
        return list(v.get("legal", []))
    if kind == "counts":
        return [row[0] for row in v.get("divide", []) if row[0] != "skip"]
    return []


def _record_lines(kind: str, v: JsonDict) -> list[JsonDict]:
    if kind == "races":
        return list(v["record"])
    if kind == "tournaments":
        return [line for r in v["record"]["races"] for line in r["record"]]
    return []


def _lapses(kind: str, v: JsonDict, doc: JsonDict, base: RaceSetup) -> bool:
    """A legal move ends at the step over the line with points to spare (they lapse)."""
    board = base.board
    for text in _moves_of(kind, v):
        m = Move.parse(text)
        if m.card > 0 and m.path and len(m.path) < m.card:
            prev = m.path[-2] if len(m.path) > 1 else None
            if prev is not None and (m.path[-1], True) in board.succ[prev]:
                return True
            if prev is None and any(m.path[0] == n and cross for s in board.succ
                                    for n, cross in s):
                return True
    return False


def _alley_queue(kind: str, v: JsonDict, doc: JsonDict,
                 base: RaceSetup) -> bool:
    """The chariot to move stands in the alley with another chariot ahead of it there."""
    if kind not in ("positions", "counts"):
        return False
    state = state_of(base, v)
    board = base.board
    p = state.pos[state.turn]
    return p is not None and board.alley[p] and any(
        q is not None and board.alley[q] and board.progress[q] > board.progress[p]
        for o, q in enumerate(state.pos) if o != state.turn)


def _race_shows(test: Callable[[list[JsonDict], JsonDict], bool]
                ) -> Callable[[str, JsonDict, JsonDict, RaceSetup], bool]:
    def witness(kind: str, v: JsonDict, doc: JsonDict,
                base: RaceSetup) -> bool:
        lines = _record_lines(kind, v)
        return bool(lines) and test(lines, doc)
    return witness


def _after_finish(lines: list[JsonDict], doc: JsonDict) -> bool:
    final = [line for line in lines if line.get("type") == "result"]
    return any(len([p for p in r.get("placings", []) if p.get("place")]) > 1 for r in final)


def _deck_points(lines: list[JsonDict], doc: JsonDict) -> bool:
    head = lines[0]
    groups = str(head.get("start", "")).split("|")[0].split()
    sums = {sum(int(x) for part in g.split(",")[3:6] for x in part if x.isdigit())
            for g in groups}
    return sums == {doc["values"].get("deck.points")}


def _reveal_tie(lines: list[JsonDict], doc: JsonDict) -> bool:
    """The start order needed a second reveal: a tie for the highest card redrew."""
    return len(lines[0].get("reveals", [])) > 1


def _nobody_drives(lines: list[JsonDict], doc: JsonDict) -> bool:
    head = lines[0]
    return len(head.get("chariots", [])) > len(head.get("players", []))


def _rule_is(key: str, want: Callable[[Json], bool]
             ) -> Callable[[str, JsonDict, JsonDict, RaceSetup], bool]:
    def witness(kind: str, v: JsonDict, doc: JsonDict,
                base: RaceSetup) -> bool:
        return kind in ("positions", "counts", "races") and want(doc["values"].get(key))
    return witness


def _bonus_used(kind: str, v: JsonDict, doc: JsonDict,
                base: RaceSetup) -> bool:
    moves = _moves_of(kind, v) + [str(line.get("card")) for line in _record_lines(kind, v)]
    return any(str(m).startswith(("+", "-")) for m in moves)


def _rams(kind: str, v: JsonDict, doc: JsonDict, base: RaceSetup) -> bool:
    return any("!" in m for m in _moves_of(kind, v)) or any(
        "ram" in line for line in _record_lines(kind, v))


def _leader_reason(kind: str, v: JsonDict, doc: JsonDict,
                   base: RaceSetup) -> bool:
    return kind == "positions" and any(
        r and r.get("code") == "lead_no" for r in v.get("cards", {}).values())


def _course_direction(kind: str, v: JsonDict, doc: JsonDict,
                      base: RaceSetup) -> bool:
    return kind == "races" and str(doc["course"]).endswith("-ccw")


def _six_chariots(lines: list[JsonDict], doc: JsonDict) -> bool:
    return bool(len(lines[0].get("chariots", [])) == doc["values"].get("race.max_chariots"))


def _team_sums(lines: list[JsonDict], doc: JsonDict) -> bool:
    """A result with several chariots per player: each player's points are the sum of
    their chariots' (the one meaning the engine gives every ``teams.scoring`` value)."""
    for r in (line for line in lines if line.get("type") == "result" and line.get("teams")):
        placings = r.get("placings") or []
        for team in r["teams"]:
            own = [p["points"] for p in placings
                   if str(p.get("name", "")).startswith(f"{team['player']}/")]
            if not own or sum(own) != team["points"]:
                return False
        return True
    return False


def _chosen_deck_size(lines: list[JsonDict], doc: JsonDict) -> bool:
    """Every chariot is dealt the chosen deck's card count (``deck.alternatives``: a
    change of the count alone is refused when the rules compose — the deck's composition
    must hold that many cards — so a race shows the value at work instead)."""
    values = doc["values"]
    chosen = values.get("deck.choice")
    sizes = {str(d.get("name")): d.get("cards") for d in values.get("deck.alternatives") or []
             if isinstance(d, Mapping)}
    if chosen not in sizes:
        return False
    groups = str(lines[0].get("start", "")).split("|")[0].split()
    dealt = {sum(len(part) for part in g.split(",")[3:5] if part != "-") for g in groups}
    return dealt == {sizes[chosen]}


#: the rule keys with one supported value (or whose change alone the rules refuse), and how
#: a vector shows that value at work
WITNESSES: dict[str, Callable[[str, JsonDict, JsonDict, RaceSetup], bool]] = {
    "finish.overshoot": _lapses,
    "alley.overtaking": _alley_queue,
    "finish.others_continue": _race_shows(_after_finish),
    "leader.measure": _leader_reason,
    "deck.points": _race_shows(_deck_points),
    "start.order": _race_shows(lambda lines, doc: bool(lines[0].get("reveals"))),
    "start.ties": _race_shows(_reveal_tie),
    "start.reshuffle_after": _race_shows(lambda lines, doc: bool(lines[0].get("reveals"))),
    "turns.order": _race_shows(lambda lines, doc: len(lines) > 3),
    "race.direction": _course_direction,
    "race.max_chariots": _race_shows(_six_chariots),
    "ownerless.controller": _race_shows(_nobody_drives),
    "out_of_cards.effect": _race_shows(lambda lines, doc: any(
        line.get("type") == "result" for line in lines)),
    "deck.split": _rule_is("deck.split", lambda x: x == "dealt_face_down"),
    # the piles dealt face down: any number races as the shuffled deck (a pile chosen blind
    # gives an unseen card, ruleset_adapter._six_joint), so the engine reads only "split"
    "deck.piles": _rule_is("deck.piles", lambda x: isinstance(x, int) and x > 1),
    "deck.alternatives": _race_shows(_chosen_deck_size),
    "bonus.granted": _bonus_used,
    "bonus.uses": _bonus_used,
    "bonus.instead_of_card": _bonus_used,
    "ramming.trigger": _rams,
    "ramming.card": _rams,
    "ramming.winner": _rams,
    "ramming.loser": _rams,
    "ramming.attack_chips": _rams,
    "teams.scoring": _race_shows(_team_sums),
    "prize_money.alley_stop": _race_shows(lambda lines, doc: doc["values"].get(
        "scoring.method") == "prize_money"),
}


# --- writing, refusing a changed answer -----------------------------------------------------

def write_document(doc: JsonDict) -> str:
    """A vector file's text: the header fields one per line, the rule values and citations
    one key a line, every vector on a line of its own (a changed answer is a changed line)."""
    out = ["{"]
    keys = list(doc)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = doc[key]
        if key in KINDS:
            if not value:
                out.append(f" {json.dumps(key)}: []{comma}")
                continue
            out.append(f" {json.dumps(key)}: [")
            out += [f"  {_line(v)}{',' if j < len(value) - 1 else ''}"
                    for j, v in enumerate(value)]
            out.append(f" ]{comma}")
        elif key in ("values", "citations"):
            out.append(f" {json.dumps(key)}: {{")
            items = list(value.items())
            out += [f"  {json.dumps(k)}: {_line(v)}{',' if j < len(items) - 1 else ''}"
                    for j, (k, v) in enumerate(items)]
            out.append(f" }}{comma}")
        else:
            out.append(f" {json.dumps(key)}: {_line(value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def _line(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _board_text(board: JsonDict) -> str:
    head = {k: v for k, v in board.items() if k != "nodes"}
    lines = ["{"] + [f" {json.dumps(k)}: {_line(v)}," for k, v in head.items()]
    nodes = board["nodes"]
    lines.append(' "nodes": [')
    lines += [f"  {_line(n)}{',' if i < len(nodes) - 1 else ''}" for i, n in enumerate(nodes)]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def reasons_doc() -> JsonDict:
    """``reasons.json``: every reason code with its meaning and English sentence (the
    registry engine/core/reasons.py), the documentation a vector's codes are checked
    against."""
    return {"format": "avecaesar-vector-reasons", "version": VERSION,
            "reasons": {code: {"meaning": r.doc, "english": r.english}
                        for code, r in REASONS.items()}}


@dataclass
class Made:
    """What :func:`make_folder` did: files written, files refused and why."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    refused: dict[str, list[str]] = field(default_factory=dict)
    vectors: int = 0


def _question_key(kind: str, v: JsonDict) -> str:
    return json.dumps([v.get(k) for k in QUESTION[kind] if k != "probes_asked"],
                      sort_keys=True)


def changes(old: JsonDict, new: JsonDict) -> list[str]:
    """What a new suite file changes in the old one's answers (empty: nothing refused):
    the rule values and each vector whose answer differs or that is gone."""
    out = []
    for what in ("values", "citations", "players"):
        if old.get(what) != new.get(what):
            out.append(f"the {what} change")
    for kind in KINDS:
        now = {_question_key(kind, v): v for v in new.get(kind, [])}
        for v in old.get(kind, []):
            got = now.get(_question_key(kind, v))
            if got is None:
                out.append(f"{v['id']}: dropped (its question is no longer asked)")
                continue
            for f in ANSWER[kind]:
                if v.get(f) != got.get(f):
                    out.append(f"{v['id']}: its {f} changed")
                    break
            if kind == "positions" and "hand_count" in v and len(got["legal"]) != v[
                    "hand_count"]:
                out.append(f"{v['id']}: counted by hand as {v['hand_count']}, the engine "
                           f"gives {len(got['legal'])}")
    return out


def make_folder(folder: Path, names: Sequence[str] = (), accept: bool = False,
                resample: bool = False,
                progress: Callable[[str], None] | None = None,
                annotate_again: bool = False) -> Made:
    """Make (or remake) the vector files of ``folder``'s suites (``names``: only these),
    their board files and ``reasons.json``; a file whose answers changed is refused unless
    ``accept``; ``annotate_again``: find what each vector covers even where the answers
    are the same. A folder without ``suites.yaml`` gets the published one (and the course
    files it names)."""
    made = Made()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "boards").mkdir(exist_ok=True)
    if not (folder / SUITES_FILE).is_file():
        write_atomic(folder / SUITES_FILE, (VECTORS_DIR / SUITES_FILE).read_text(
            encoding="utf-8"))
    every = read_suites(folder)
    suites = [find_suite(every, n) for n in names] if names else list(every)
    _courses_there(folder, suites)
    for spec in suites:
        path = folder / f"{spec.name}.json"
        old = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
        if progress is not None:
            progress(spec.name)
        doc = suite_document(spec, folder, None if resample or old is None else old)
        made.vectors += sum(len(doc[k]) for k in KINDS)
        hand = _hand_problems(doc)  # never accepted: a count made by hand is the truth
        found = changes(old, doc) if old is not None else []
        if hand or (found and not accept):
            made.refused[path.name] = hand + found
            continue
        if old is None or found or resample or annotate_again:
            annotate(doc, spec.suite.setup(folder), folder)  # what each vector covers now
        else:
            _annotations_kept(old, doc)  # the same answers: the same coverage
        text = write_document(doc)
        if old is not None and path.read_text(encoding="utf-8") == text:
            made.unchanged.append(path.name)
        else:
            write_atomic(path, text)
            made.written.append(path.name)
        setup = spec.suite.setup(folder)
        write_atomic(folder / str(doc["board"]), _board_text(board_table(setup.board)))
    write_atomic(folder / "reasons.json", json.dumps(reasons_doc(), indent=1,
                                                     ensure_ascii=False) + "\n")
    return made


def _annotations_kept(old: JsonDict, doc: JsonDict) -> None:
    """Each vector's ``breaks_if`` and ``shows`` as the old file had them (same ids, same
    answers: what changes them is a change of the rules, refused or accepted first)."""
    for kind in KINDS:
        before = {v["id"]: v for v in old.get(kind, [])}
        for v in doc[kind]:
            for f in ("breaks_if", "shows"):
                if f in before.get(v["id"], {}):
                    v[f] = before[v["id"]][f]


def _courses_there(folder: Path, suites: Sequence[SuiteSpec]) -> None:
    """The course files the suites name that are not bundled, copied from the published
    vectors (``courses/``) into ``folder`` where they are missing."""
    for spec in suites:
        course = spec.suite.course
        if course.lower() in bundled_course_ids() or (folder / course).is_file():
            continue
        source = VECTORS_DIR / course
        (folder / course).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / course, source.read_text(encoding="utf-8"))


def _hand_problems(doc: JsonDict) -> list[str]:
    """The hand-counted positions whose count the engine does not give."""
    return [f"{v['id']}: counted by hand as {v['hand_count']}, the engine gives "
            f"{len(v['legal'])} ({v['position']})"
            for v in doc["positions"] if "hand_count" in v and len(v["legal"]) != v[
                "hand_count"]]
