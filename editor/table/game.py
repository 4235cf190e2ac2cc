"""One race at a table (the web page or the terminal): whose turn, the hidden hands, bot
steps, the pending move and its undo, the deal's commitment, the record.

Every rule question goes to the engine (``legal_moves``, ``why_not``, ``push``, ``skip``,
``play_turn``, ``record_lines``, ``replay``); what a device sees is the engine's one view
(``engine/core/view.py``: the public table plus the asking seat's own cards) with the table's
facts added. This module only keeps the table's memory: who is a person, whose seat a bot
stands in for, who has seen their hand, the move waiting to be confirmed and the record.

**The turn** (docs/web.md, "The turn"): a person's move is first *pending* — the chariot
stands on its new space for everyone to see, but the engine has not played it, so no card
has been drawn; the mover may take it back (every device sees that in the log). Confirming
it (the mover's "done", the next person's pass screen, or the web table's short timer) plays
it: the card is drawn, and from then on there is no undo. So nothing a player may take back
has ever shown them a card. Bots and skips (no choice to take back) are played at once.

The record is written before a change is acknowledged: every change (a move chosen or
confirmed, a skip, a bot's turn, an undo) is a transaction — when it cannot be written (the
record file, or the web table's database through :attr:`Game.sink`), the change is undone
and the error says so; the game is then exactly as before.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from avecaesar.editor.render.board import CHARIOT_FILL
from avecaesar.editor.render.event_text import describe
from avecaesar.editor.render.lang import catalog, current, name_of, reason_text, text
from avecaesar.editor.table.choices import options, why_not_target
from avecaesar.editor.table.hand import hand_lines
from avecaesar.editor.table.messages import say
from avecaesar.engine.bots.policies import Policy, greedy_policy
from avecaesar.engine.bots.registry import OWNERLESS, make_policy
from avecaesar.engine.core.race import (
    RaceRun,
    check_player_count,
    new_race,
    outcome,
    play_turn,
)
from avecaesar.engine.core.race_setup import RaceSetup
from avecaesar.engine.core.reasons import Reason
from avecaesar.engine.core.record import (
    deal_commitment,
    read_record,
    record_lines,
    replay,
    setup_from_header,
    write_record,
)
from avecaesar.engine.core.state import LETTERS, Event, Move, RaceState
from avecaesar.engine.core.view import public_event, public_record, view_for
from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["Game", "Pending", "RecordWriteError"]


class RecordWriteError(AveCaesarError):
    """The record could not be written: the change was not made. An output that cannot be
    written (a disk full): exit 2, as the table of exit codes says."""

    exit_code = 2


@dataclass
class Pending:
    """A person's move chosen but not yet played: no card drawn, so it may be taken back.

    deadline: when the web table confirms it by itself (seconds since the epoch; None: only
    when asked)."""

    chariot: int
    seat: int
    move: Move
    legal: int  # the legal moves the chariot had (the record's count)
    deadline: float | None = None

    def to_json(self) -> dict[str, Any]:
        m = self.move
        return {"chariot": self.chariot, "seat": self.seat, "card": m.card,
                "path": list(m.path), "ram": m.ram, "legal": self.legal,
                "deadline": self.deadline}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pending:
        return cls(int(d["chariot"]), int(d["seat"]),
                   Move(int(d["card"]), tuple(int(x) for x in d["path"]), int(d["ram"])),
                   int(d["legal"]), None if d.get("deadline") is None else float(d["deadline"]))


@dataclass
class Game:
    """A race in progress (or over) and its record file."""

    setup: RaceSetup  # rules, course, seats (in seat order; bot None: a person), seed
    path: Path | None  # the record file; None: not written until saved
    state: RaceState
    start: dict[str, Any]
    turns: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    revealed: tuple[int, int] | None = None  # (ply, chariot) whose owner confirmed
    pending: Pending | None = None  # a person's move not yet played (no card drawn)
    #: the deal: ``by`` "server" (seed drawn in secret; ``commitment`` over seed, ``nonce``
    #: and header, shown at the start) or "host" (a chosen seed: practice); None: neither
    #: (the CLI's own races)
    deal: dict[str, Any] | None = None
    #: called after every change instead of writing ``path`` (the web table's database)
    sink: Callable[[Game], None] | None = field(default=None, repr=False)
    policies: list[Policy | None] = field(default_factory=list)  # per chariot; None: a person
    owner: list[int] = field(default_factory=list)  # per chariot: seat index, -1 nobody's
    stand_in: dict[int, str] = field(default_factory=dict)  # person's seat → bot moving it
    _stand_ins: dict[tuple[int, str], Policy] = field(default_factory=dict, repr=False)

    # building ----------------------------------------------------------------------
    @classmethod
    def new(cls, setup: RaceSetup, path: Path | None, deal: str | None = None,
            sink: Callable[[Game], None] | None = None) -> Game:
        """A new race; ``deal`` "server": its seed was drawn in secret and the header
        carries a commitment to it (revealed, with its nonce, by the finished record);
        "host": a seed a person chose (practice: the deal is known to them)."""
        rules = setup.race_rules
        check_player_count(rules, len(setup.seats), setup.rules.ruleset,
                           setup.rules.variants)
        try:
            state, start = new_race(rules, setup.board, setup.names, setup.seed,
                                    setup.start_order)
        except ValueError as err:
            raise AveCaesarError(str(err)) from None
        game = cls(setup, path, state, start, sink=sink)
        if deal == "server":
            nonce = secrets.token_hex(16)
            head = game.record()[0]
            game.deal = {"by": "server", "nonce": nonce,
                         "commitment": deal_commitment(head, setup.seed, nonce)}
        elif deal is not None:
            game.deal = {"by": "host"}
        game._seat_policies()
        game.write()
        return game

    @classmethod
    def resume(cls, path: Path, course_check: Callable[[dict[str, Any]], str] | None = None
               ) -> Game:
        """Continue a saved record: every line re-checked by the engine's ``replay``
        (``course_check``: the course file to race on instead of the header's, the web
        table's check of an uploaded course)."""
        lines = read_record(path)
        head = lines[0]
        setup, _differs = setup_from_header(
            head, str(path), None if course_check is None else course_check(head))
        rules, board = setup.race_rules, setup.board
        turns = [ln for ln in lines[1:] if ln["type"] != "result"]
        replay([head, *turns], rules, board, str(path), partial=True)  # raises if illegal
        return cls.from_lines(setup, head, turns, path)

    @classmethod
    def from_lines(cls, setup: RaceSetup, head: dict[str, Any], turns: list[dict[str, Any]],
                   path: Path | None = None) -> Game:
        """The race ``setup`` with the recorded ``turns`` played again (lines already
        checked: a record :func:`replay` accepted, or the table's own database)."""
        rules, board = setup.race_rules, setup.board
        state, start = new_race(rules, board, setup.names, setup.seed, setup.start_order)
        game = cls(setup, path, state, start,
                   deal=dict(head["deal"]) if isinstance(head.get("deal"), dict) else None)
        game._seat_policies()
        game.play_lines(turns)
        return game

    def play_lines(self, turns: list[dict[str, Any]]) -> None:
        """Play recorded turn lines (checked ones) on this game, keeping their events."""
        state = self.state
        game = self
        for ln in turns:  # the same turns again, now keeping their events for the log
            c = LETTERS.index(ln["chariot"])
            if state.queue and c in state.choosable():
                state.choose(c)
            if ln["type"] == "skip":
                events = state.skip(ln["reason"])
                game._remember({"chariot": c, "skip": ln["reason"], "legal": 0,
                                "events": events})
                continue
            move = Move(0, ()) if ln["type"] == "wait" else Move(
                int(ln["card"]), tuple(ln["path"]),
                LETTERS.index(ln["ram"]) if ln.get("ram") else -1)
            events = state.push(move)
            game._remember({"chariot": c, "move": move, "legal": ln.get("legal", 0),
                            "events": events})

    def _seat_policies(self) -> None:
        per = self.state.game.rules.chariots_for(len(self.setup.seats))
        self.policies, self.owner = [], []
        for s in self.start["seats"]:
            seat = s // per
            kind = self.setup.seats[seat].bot
            self.owner.append(seat)
            self.policies.append(None if kind is None else
                                 make_policy(kind, self.setup.seed * 100 + seat))
        for _ in range(self.state.game.chariots - len(self.policies)):
            self.owner.append(-1)
            self.policies.append(greedy_policy)

    # the record --------------------------------------------------------------------
    def record(self) -> list[dict[str, Any]]:
        """The full record (the server's private copy: it holds the seed)."""
        run = RaceRun(self.state, self.start, self.turns, outcome(self.state))
        head = self.setup.header()
        if self.deal is not None:
            head["deal"] = dict(self.deal)
        lines = record_lines(run, head)
        return lines if self.state.over else lines[:-1]

    def public_record(self) -> list[dict[str, Any]]:
        """The record as the table has seen it (whole once the race is over)."""
        return public_record(self.record())

    def write(self) -> None:
        """Keep the change: the sink (the web table's database) or the record file
        (rewritten atomically, flushed to the disk); :class:`RecordWriteError` when it
        cannot be written."""
        if self.sink is not None:
            self.sink(self)
            return
        if self.path is None:
            return
        try:
            write_record(self.path, self.record())
        except (OSError, AveCaesarError) as err:
            why = getattr(err, "strerror", None) or str(err).rsplit(": ", 1)[-1]
            raise RecordWriteError(say("record_failed", why=why)) from None

    def memory(self) -> tuple[Any, ...]:
        """What a change may alter, to put back when it cannot be kept."""
        return (self.state.copy(), len(self.turns), len(self.log), self.pending,
                self.revealed, dict(self.stand_in))

    def restore(self, saved: tuple[Any, ...]) -> None:
        self.state, turns, log, self.pending, self.revealed, self.stand_in = saved
        del self.turns[turns:]
        del self.log[log:]

    @contextlib.contextmanager
    def _change(self) -> Iterator[None]:
        """A change that is kept only if it is written; otherwise undone."""
        saved = self.memory()
        try:
            yield
            self.write()
        except BaseException:
            self.restore(saved)
            raise

    def turn_state(self) -> dict[str, Any]:
        """The turn's state beyond the record (the web table keeps it with the table): the
        pending move, whose hand the shared device shows."""
        return {"pending": None if self.pending is None else self.pending.to_json(),
                "revealed": None if self.revealed is None else list(self.revealed)}

    def set_turn_state(self, doc: dict[str, Any]) -> None:
        p = doc.get("pending")
        self.pending = None if p is None else Pending.from_json(p)
        r = doc.get("revealed")
        self.revealed = None if r is None else (int(r[0]), int(r[1]))

    # turns -------------------------------------------------------------------------
    @property
    def humans(self) -> int:
        return sum(1 for p in self.setup.seats if p.bot is None)

    def is_human(self, c: int) -> bool:
        """A person moves chariot ``c`` now (not a bot, nor a bot standing in)."""
        return self.policies[c] is None and self.owner[c] not in self.stand_in

    def seat_chariots(self, seat: int) -> list[int]:
        return [c for c, o in enumerate(self.owner) if o == seat]

    def needs_pass(self) -> bool:
        """One shared device: the hand of the person to move is hidden until they confirm
        (2+ people)."""
        s = self.state
        if s.over or not self.is_human(s.turn):
            return False
        return self.humans > 1 and self.revealed != (s.ply, s.turn)

    def reveal(self) -> None:
        """The person to move says it is them: the shared device shows their hand."""
        s = self.state
        if s.over or not self.is_human(s.turn):
            raise AveCaesarError(say("not_a_person"))
        with self._change():
            self.revealed = (s.ply, s.turn)

    def _remember(self, turn: dict[str, Any]) -> None:
        self.turns.append(turn)
        self.log.append({"ply": len(self.turns), "chariot": LETTERS[turn["chariot"]],
                         "raw": [public_event(e) for e in turn["events"]]})

    def remember_undo(self, chariot: int, move: Move) -> None:
        """An undone pending move, as every device's log shows it."""
        self.log.append({"ply": len(self.turns), "chariot": LETTERS[chariot], "undo": True,
                         "raw": [Event("undo", chariot, {"card": move.card,
                                                         "path": list(move.path),
                                                         "from": self.state.pos[chariot]})]})

    def undos(self) -> list[dict[str, Any]]:
        """The undone moves in the log (the web table keeps them with the race)."""
        return [{"at": i, "ply": t["ply"], "chariot": LETTERS.index(t["chariot"]),
                 "card": t["raw"][0].data["card"], "path": t["raw"][0].data["path"],
                 "from": t["raw"][0].data["from"]}
                for i, t in enumerate(self.log) if t.get("undo")]

    def put_undos(self, undos: list[dict[str, Any]]) -> None:
        """Put recorded undos back into the log at their places (after a reload)."""
        for u in sorted(undos, key=lambda u: int(u["at"])):
            entry = {"ply": int(u["ply"]), "chariot": LETTERS[int(u["chariot"])], "undo": True,
                     "raw": [Event("undo", int(u["chariot"]),
                                   {"card": u["card"], "path": list(u["path"]),
                                    "from": u["from"]})]}
            self.log.insert(min(int(u["at"]), len(self.log)), entry)

    def log_texts(self, start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
        """Log entries ``start:end`` as the table shows them: each event in words, in the
        current language (each device its own)."""
        game = self.state.game
        lang = current()
        out = []
        for t in self.log[start:end]:
            words = t.setdefault("words", {})  # each language worded once per entry
            if lang not in words:
                words[lang] = [describe(game, e) for e in t["raw"]]
            entry = {"ply": t["ply"], "chariot": t["chariot"], "events": words[lang]}
            if t.get("undo"):
                entry["undo"] = True
            out.append(entry)
        return out

    def _result(self) -> dict[str, Any]:
        """The race's result with each chariot's reason in words: the events that decided
        it (is disqualified, is removed, crashes, finishes), as the log words them without
        the chariot's name; none: not finished."""
        game = self.state.game
        why: dict[int, dict[str, str]] = {}
        for t in self.log:
            for e in t["raw"]:
                if e.kind in _DECIDING and e.chariot is not None:
                    who = f"{LETTERS[e.chariot]} ({game.names[e.chariot]})"
                    words = describe(game, e).strip().removeprefix(who).strip()
                    why.setdefault(e.chariot, {})[e.kind] = words
        done = outcome(self.state)
        result: dict[str, Any] = done.to_json()
        result["placings"] = [
            {**p.to_json(), "why": "; ".join(why.get(p.chariot, {}).get(k, "") for k in _DECIDING
                                             if k in why.get(p.chariot, {}))
             or text("events", "note_not_finished")} for p in done.placings]
        return result

    def policy(self, c: int) -> Policy | None:
        """What moves chariot ``c`` when no person does (None: a person)."""
        seat = self.owner[c]
        kind = self.stand_in.get(seat)
        if kind is None:
            return self.policies[c]
        if (seat, kind) not in self._stand_ins:
            self._stand_ins[seat, kind] = make_policy(kind, self.setup.seed * 100 + seat)
        return self._stand_ins[seat, kind]

    def bot_to_move(self) -> bool:
        return not self.state.over and not self.is_human(self.state.turn)

    def step_bot(self) -> None:
        """One turn of the bot (or chariot nobody drives) to move."""
        s = self.state
        if s.over:
            raise AveCaesarError(say("race_over"))
        policy = self.policy(s.turn)
        if policy is None:
            raise AveCaesarError(say("persons_turn", name=s.game.names[s.turn]))
        with self._change():
            if self.pending is not None:  # a bot stands in now: the person's move holds
                self._play_pending()
                return
            self._remember(play_turn(s, policy, OWNERLESS))

    def human_turn_ready(self, shared: bool = True) -> None:
        s = self.state
        if s.over:
            raise AveCaesarError(say("race_over"))
        if not self.is_human(s.turn):
            raise AveCaesarError(say("bots_turn"))
        if self.pending is not None:
            raise AveCaesarError(say("pending_first"))
        if shared and self.needs_pass():
            raise AveCaesarError(say("pass_first", name=s.game.names[s.turn]))

    def skip_if_forced(self, shared: bool = True) -> bool:
        """A person with no legal move skips (the engine says why): there is no choice to
        take back, so it is played at once."""
        self.human_turn_ready(shared)
        s = self.state
        moves = s.legal_moves()
        if moves:
            return False
        reason = moves.skip_reason or "blocked"
        c = s.turn
        with self._change():
            self._remember({"chariot": c, "skip": reason, "legal": 0,
                            "events": s.skip(reason)})
        return True

    def move(self, card: int, space: int | None, shared: bool = True,
             confirm: bool = False, deadline: float | None = None) -> str | None:
        """Choose ``card`` to ``space`` (``card`` 0: wait); return why not, or None when
        done. The move is pending (nothing drawn; :meth:`take_back` may undo it) until
        :meth:`confirm` plays it — at once with ``confirm``; ``deadline``: when the web
        table confirms it by itself."""
        self.human_turn_ready(shared)
        s = self.state
        chosen = None
        for m in options(s):
            if m.card == card and (card == 0 or (m.path and m.path[-1] == space)):
                chosen = m
                break
        if chosen is None:
            if card == 0:
                return say("wait_not_allowed")
            if space is None:
                return say("choose_space")
            return why_not_target(s, card, space)
        c = s.turn
        with self._change():
            self.pending = Pending(c, self.owner[c], chosen, len(s.legal_moves()), deadline)
            if confirm:
                self._play_pending()
        return None

    def confirm(self, seat: int | None = None) -> None:
        """Play the pending move: its card is drawn now, and there is no undo after it;
        ``seat``: only the mover's own device may (None: the one shared device)."""
        self._own_pending(seat, "nothing_to_confirm", "not_your_confirm")
        with self._change():
            self._play_pending()

    def _own_pending(self, seat: int | None, nothing: str, not_yours: str) -> Pending:
        """The pending move, if ``seat`` may act on it (None: the one shared device);
        otherwise the message ``nothing`` or ``not_yours`` (naming the mover)."""
        p = self.pending
        if p is None or self.state.over:
            raise AveCaesarError(say(nothing))
        if seat is not None and p.seat != seat:
            raise AveCaesarError(say(not_yours, name=self.setup.seats[p.seat].name))
        return p

    def _play_pending(self) -> None:
        p = self.pending
        assert p is not None
        s = self.state
        events = s.push(p.move)
        self._remember({"chariot": p.chariot, "move": p.move, "legal": p.legal,
                        "events": events})
        self.pending = None
        self.revealed = None

    def undo_seat(self) -> int | None:
        """The seat whose move an undo would take back (None: nothing to undo): only a
        pending move — a played one has drawn its card."""
        return None if self.pending is None or self.state.over else self.pending.seat

    def take_back(self, seat: int | None = None) -> None:
        """Take back the pending move (it drew nothing); ``seat``: only if it is that
        seat's (a device of its own), None: whoever's (one shared device)."""
        p = self._own_pending(seat, "nothing_to_undo", "not_your_undo")
        with self._change():
            self.pending = None
            self.remember_undo(p.chariot, p.move)

    # what a device sees ------------------------------------------------------------
    def view_for(self, seat: int | None, shared: bool = False) -> dict[str, Any]:
        """What the device of ``seat`` sees (None: a spectator's, or with ``shared`` the
        one device passed around, which sees the hand of the person to move once they have
        confirmed): the engine's view for that seat plus the table's facts — the turn's
        state (``turn.phase``: choose, pending, pass or bot; ``turn.pending``: the move
        chosen, not yet played) and the deal's commitment."""
        s = self.state
        mine: list[int] = []
        if seat is not None:
            mine = self.seat_chariots(seat)
        elif shared and not s.over and self.is_human(s.turn) and not self.needs_pass():
            mine = self.seat_chariots(self.owner[s.turn])
        view = _worded(view_for(s, mine))
        out: dict[str, Any] = {
            "record": self.path.name if self.path else None,
            "ruleset": rules_name(self), "rules_title": rules_title(self),
            "course_title": name_of(self.setup.course, self.setup.course_name),
            "ply": s.ply, "over": s.over,
            "chariots": self._chariots(view["public"]["chariots"]),
            "log": self.log_texts(max(0, len(self.log) - 200)), "humans": self.humans,
            "mine": [LETTERS[c] for c in mine],
            "start_places": list(s.game.board.start_places), "private": view["private"],
            "deal": self._deal_view()}
        if s.over:
            out["result"] = self._result()
            out["seed"] = self.setup.seed  # the race is over: it may be repeated
            return out
        c = s.turn
        p = self.pending
        phase = ("pending" if p is not None else "bot" if not self.is_human(c)
                 else "pass" if shared and self.needs_pass() else "choose")
        out["turn"] = {"chariot": c, "letter": LETTERS[c], "name": s.game.names[c],
                       "human": self.is_human(c), "seat": self.owner[c], "phase": phase,
                       "pass": phase == "pass",
                       "pending": None if p is None else {
                           "card": p.move.card, "path": list(p.move.path),
                           "to": p.move.path[-1] if p.move.path else s.pos[c],
                           "from": s.pos[c], "deadline": p.deadline}}
        who = self.undo_seat()
        out["can_undo"] = out["can_confirm"] = who is not None and (shared or who == seat)
        if p is not None and c in mine:
            hands = out["private"].get("hands", {})
            hand = list(hands.get(LETTERS[c], []))
            if p.move.card in hand:  # the card is on the table, the hand not yet refilled
                hand.remove(p.move.card)
                hands[LETTERS[c]] = hand
        elif c in mine and self.is_human(c):
            out["private"].update(self._choices())
        return out

    def _deal_view(self) -> dict[str, Any] | None:
        """The deal as a device sees it: who chose the seed and the commitment (the nonce
        and seed once the race is over)."""
        d = self.deal
        if d is None:
            return None
        if self.state.over:
            return {**d, "seed": self.setup.seed}
        return {k: v for k, v in d.items() if k != "nonce"}

    def _chariots(self, public: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for c, pc in enumerate(public):
            seat = self.owner[c]
            kind = None if seat < 0 else self.stand_in.get(seat) or self.setup.seats[seat].bot
            out.append({**pc, "colour": CHARIOT_FILL[c % len(CHARIOT_FILL)], "seat": seat,
                        "human": self.is_human(c),
                        "bot": "greedy" if seat < 0 else kind,
                        "stand_in": seat in self.stand_in})
        return out

    def _choices(self) -> dict[str, Any]:
        """The moves of the person to move (only ever sent to their own device)."""
        s = self.state
        moves = options(s)
        lines, _wait = hand_lines(s)
        return {"options": [{"card": m.card, "space": m.path[-1], "path": list(m.path)}
                            for m in moves if m.card],
                # why a card of the hand has no move: the rule's words and citation
                "why": {str(k): line.why for line in lines if line.why for k in line.cards},
                "wait": any(m.card == 0 for m in moves),
                "skip": None if moves else (s.legal_moves().skip_reason or "blocked"),
                "skip_text": None if moves else _skip_words(s.legal_moves().skip_reason)}


#: the events that decide a chariot's result (its reason on the end screen)
#: (what took the chariot out of the placings first)
_DECIDING = ("disqualified", "removed", "crashed", "finish")


def _skip_words(reason: str | None) -> str:
    """Why a chariot skips, in the current language (the log's words)."""
    key = f"skip_{reason or 'blocked'}"
    return text("events", key) if key in catalog()["events"] else str(reason)


def _worded(view: dict[str, Any]) -> dict[str, Any]:
    """The engine's view with its reasons (the 6-card status, as data) in words, in the
    current language; the citations as their sources write them."""
    for ch in view["public"]["chariots"]:
        six = ch.get("six")
        if six and six.get("why"):
            ch["six"] = {**six, "why": reason_text(Reason.from_json(six["why"]))}
    private = view["private"]
    private["six"] = {k: reason_text(Reason.from_json(v)) if v else v
                      for k, v in private.get("six", {}).items()}
    return view


def rules_name(game: Game) -> str:
    v = game.setup.rules.variants
    return game.setup.rules.ruleset + (" + " + ", ".join(v) if v else "")


def rules_title(game: Game) -> str:
    """The ruleset and its variants by their titles, in the current language."""
    rules = game.setup.rules
    return " + ".join(name_of(x) for x in (rules.ruleset, *rules.variants))
