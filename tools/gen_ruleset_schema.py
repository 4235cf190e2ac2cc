"""Write ``schemas/ruleset.schema.json`` from the compact rule table below.

Run ``python tools/gen_ruleset_schema.py`` after changing the table; a test checks that the
committed schema equals this script's output, so the two never drift. The table is the one
place where a rule key, its type and its meaning are declared; ``docs/ruleset-reference.md``
is generated from the schema in turn (``python -m avecaesar.editor.ruleset_docs``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from avecaesar.engine.core.conditions import CONDITIONS as CONDITION_REGISTRY
from avecaesar.engine.core.effects import EFFECTS as EFFECT_REGISTRY
from avecaesar.engine.core.effects import EVENTS as EVENT_REGISTRY

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "ruleset.schema.json"

CITATION_PATTERN = (
    r"^(DiceTree 2022 rulebook \((DE|EN)\) S\.\d+([-–]\d+)?"
    r"|Ravensburger 1989 rules \(EN summary\), \S.*"
    r"|Ravensburger 1989 regler \(SV\), \S.*"
    r"|Pro Ludo 2006 Spielregel \(DE\) (p\.\d+([-–]\d+)?|[IVX]+)"
    r"|Pro Ludo 2006 rules \(PT\) \S.*"
    r"|reader homebrew \(PT comments\)"
    r"|house rule: \S.*"
    r"|user override \(--set\))(, \S.*)?$"
)

CITATION_HELP = (
    "a citation named as RULES.md's 'cite it as' column says: 'DiceTree 2022 rulebook (DE) S.5', "
    "'Ravensburger 1989 rules (EN summary), <section>', 'Ravensburger 1989 regler (SV), "
    "<section>', 'Pro Ludo 2006 Spielregel (DE) p.5' (or a chapter such as VII), "
    "'Pro Ludo 2006 rules (PT) <chapter>', 'reader homebrew (PT comments)'; "
    "optionally followed by ', <detail>'. Your own rules: 'house rule: <who/where>'"
)

# the condition vocabulary: the engine's one registry (engine/core/conditions.py), each
# name with the sentence that defines it
CONDITIONS = {name: c.doc for name, c in CONDITION_REGISTRY.items()}


def enum(values: dict[str, str], description: str = "the rule value") -> dict[str, Any]:
    """An enum whose every value is explained (``x-values`` feeds the generated docs)."""
    return {"description": description, "enum": list(values), "x-values": values}


def integer(minimum: int | None = None, description: str = "the rule value",
            maximum: int | None = None) -> dict[str, Any]:
    """An integer rule value; ``maximum`` bounds what the engine is asked to play (a card of
    99 would make every move a walk of 99 steps), see engine/data/limits.py."""
    s: dict[str, Any] = {"description": description, "type": "integer"}
    if minimum is not None:
        s["minimum"] = minimum
    if maximum is not None:
        s["maximum"] = maximum
    return s


BOOL = {"description": "the rule value", "type": "boolean"}
STRING = {"description": "the rule value", "type": "string", "minLength": 1}


def int_list(minimum: int = 0, description: str = "the rule value") -> dict[str, Any]:
    return {"description": description, "type": "array", "minItems": 1,
            "items": {"type": "integer", "minimum": minimum}}


CONDITION_LIST = {"description": "conditions that must all hold (see $defs/condition)",
                  "type": "array", "minItems": 1, "uniqueItems": True,
                  "items": {"$ref": "#/$defs/condition"}}

CONDITION_EXPR = {"$ref": "#/$defs/condition_expr"}
RESTRICTIONS = {
    "description": "card restrictions, checked in order",
    "type": "array", "minItems": 1,
    "items": {"type": "object", "additionalProperties": False,
              "required": ["cards", "forbidden_when"],
              "properties": {
                  "cards": {"description": "the card values restricted",
                            "type": "array", "minItems": 1, "uniqueItems": True,
                            "items": {"type": "integer", "minimum": 1, "maximum": 9}},
                  "forbidden_when": CONDITION_EXPR | {
                      "description": "the cards are forbidden while this holds"},
                  "unless": CONDITION_EXPR | {
                      "description": "but allowed while this holds; absent = no exception"},
                  "ends_when": CONDITION_EXPR | {
                      "description": "the restriction no longer applies once this holds; "
                                     "absent = never ends"},
                  "why": {"description": "the reason shown when a card is refused; {card} and "
                                         "{lead} are filled in",
                          "type": "string", "minLength": 1}}},
}

#: the largest movement value a card, race card or bonus may have (the decks go to 6)
MAX_CARD = 9

# the events and effects: the engine's registry (engine/core/effects.py)
EVENTS = {name: e.doc for name, e in EVENT_REGISTRY.items()}
EFFECTS = {name: e.doc + (f" ({e.cite})" if e.cite else "") for name, e in
           EFFECT_REGISTRY.items()}
EFFECT_ENTRY = {
    "description": "an effect by name, or {effect: name, <parameter>: value}",
    "oneOf": [
        {"$ref": "#/$defs/effect"},
        {"type": "object", "additionalProperties": False, "required": ["effect"],
         "properties": {
             "effect": {"$ref": "#/$defs/effect", "description": "the effect"},
             "card": {"description": "take_race_card: the race card's value",
                      "type": "integer", "minimum": 1, "maximum": MAX_CARD},
             "points": {"description": "grant_bonus: the bonus piece's points",
                        "type": "integer", "minimum": 1, "maximum": MAX_CARD},
             "amounts": {"description": "pay_prize: the prize per place of completing a lap",
                         "type": "array", "minItems": 1,
                         "items": {"type": "integer", "minimum": 0}}}},
    ]}
EFFECT_LISTS = {
    "description": "event → effects appended to the ruleset's own, applied in order",
    "type": "object", "minProperties": 1,
    "propertyNames": {"$ref": "#/$defs/event"},
    "additionalProperties": {"type": "array", "minItems": 1, "items": EFFECT_ENTRY},
}

COMPOSITION = {
    "description": "how many cards of each value one deck holds",
    "type": "array", "minItems": 1,
    "items": {"type": "object", "additionalProperties": False, "required": ["card", "count"],
              "properties": {
                  "card": {"description": "the movement value printed on the card",
                           "type": "integer", "minimum": 1, "maximum": MAX_CARD},
                  "count": {"description": "how many such cards one deck holds",
                            "type": "integer", "minimum": 1, "maximum": 50}}},
}

ROTATION = {
    "description": "the courses of the tournament's races, in order",
    "type": "array", "minItems": 1,
    "items": {"type": "object", "additionalProperties": False,
              "required": ["race", "course", "direction"],
              "properties": {
                  "race": {"description": "the race's number in the tournament (1 = first)",
                           "type": "integer", "minimum": 1},
                  "players": {"description": "the player counts this entry is for, e.g. '3-4'; "
                                             "absent = any number of players",
                              "type": "string", "pattern": r"^\d-\d$"},
                  "course": {"description": "the course as the rulebook names it (board side, "
                                            "colour or name)",
                             "type": "string", "minLength": 1},
                  "direction": {"description": "driving direction of that race",
                                "enum": ["clockwise", "anticlockwise", "either"]},
                  "course_id": {"description": "the bundled course id this entry maps to "
                                               "(``edition/name``, ``-ccw`` for anticlockwise); "
                                               "absent = no bundled course: the tournament "
                                               "needs --courses",
                                "type": "string", "minLength": 1}}},
}

JOINT_EXCEPTION = {
    "description": "when joint leaders may break the deadlock, and which of them; null = none",
    "type": ["object", "null"], "additionalProperties": False, "required": ["when", "who"],
    "properties": {
        "when": CONDITION_LIST | {"description": "conditions that must all hold for the "
                                                 "exception (see $defs/condition)"},
        "who": enum({
            "whose_turn_it_is": "the joint leader whose turn it is may play the card",
            "first_to_move": "the joint leader whose turn comes first may play the card",
            "one_of_them": "one of the joint leaders may (the source does not say which; the "
                           "first of them to move is the first who can)",
        }, "which joint leader may play the restricted card"),
    },
}

POSITION_MOVES = {
    "description": "spaces a chariot moves by its position in the field",
    "type": "object", "additionalProperties": False,
    "required": ["leading", "middle", "last"],
    "properties": {
        "leading": {"description": "spaces moved by the leading such chariot",
                    "type": "integer", "minimum": 0},
        "middle": {"description": "spaces moved by one in the midfield",
                   "type": "integer", "minimum": 0},
        "last": {"description": "spaces moved by one in last place",
                 "type": "integer", "minimum": 0},
    },
}

ALTERNATIVES = {
    "description": "decks a player may choose instead of the standard one",
    "type": "array",
    "items": {"type": "object", "additionalProperties": False, "required": ["name", "cards"],
              "properties": {
                  "name": {"description": "the deck's name in the rulebook",
                           "type": "string", "minLength": 1},
                  "cards": {"description": "how many cards that deck holds",
                            "type": "integer", "minimum": 1, "maximum": 100}}},
}

PER_PLAYERS = {
    "description": "the rule value: a number, or a list of {players, chariots}",
    "type": ["integer", "array"], "minimum": 1, "maximum": 6,
    "items": {"type": "object", "additionalProperties": False,
              "required": ["players", "chariots"],
              "properties": {
                  "players": {"description": "the number of players this entry is for",
                              "type": "integer", "minimum": 1, "maximum": 6},
                  "chariots": {"description": "chariots each of them drives",
                               "type": "integer", "minimum": 1, "maximum": 6}}},
}

# group -> (description, required in a complete ruleset?, {key: (description, required?, value)})
GROUPS: dict[str, tuple[str, bool, dict[str, tuple[str, bool, dict[str, Any]]]]] = {
    "players": ("Who plays and how many chariots each drives.", True, {
        "min": ("Fewest players the rules are written for.", True, integer(1, maximum=6)),
        "max": ("Most players the rules are written for.", True, integer(1, maximum=6)),
        "chariots_per_player": ("How many chariots each player drives: one number, or a "
                                "table by the number of players.", True, PER_PLAYERS),
    }),
    "deck": ("Each chariot's deck of race cards.", True, {
        "composition": ("Cards in one standard deck, by value.", True, COMPOSITION),
        "points": ("Movement points in one deck (sum of its card values).", True,
                   integer(1, maximum=500)),
        "piles": ("Piles a deck is split into before the race; draws come from a pile of "
                  "the player's choice when more than 1.", True, integer(1, maximum=10)),
        "alternatives": ("Other decks a player may choose (same points, fewer cards).", False,
                         ALTERNATIVES),
        "alternative_compositions": ("Card values of the alternative decks.", False, {
            "description": "the rule value: per alternative deck its name and every card's "
                           "value",
            "type": "array",
            "items": {"type": "object", "additionalProperties": False,
                      "required": ["name", "values"],
                      "properties": {
                          "name": {"description": "the alternative's name (deck.alternatives)",
                                   "type": "string", "minLength": 1},
                          "values": {"description": "the value of every card of that deck",
                                     "type": "array", "minItems": 1,
                                     "items": {"type": "integer", "minimum": 1,
                                               "maximum": MAX_CARD}}}}}),
        "split": ("How a deck is split into its piles (deck.piles > 1).", False, enum({
            "dealt_face_down": "the shuffled deck is dealt face down onto the piles: a pile "
                               "chosen blind gives an unseen card like the deck's top card",
            "sorted_by_player": "each player sorts their own deck onto the piles before the "
                                "race and draws from the pile of their choice",
        })),
        "choice": ("The deck every chariot races with: 'normal' (deck.composition) or the name "
                   "of one of deck.alternatives.", False, STRING),
    }),
    "hand": ("The cards a player holds.", True, {
        "size": ("Cards in hand; after playing one, draw back to this many.", True,
                 integer(1, maximum=10)),
    }),
    "race": ("One race.", True, {
        "laps": ("Laps to drive.", True, integer(1, maximum=10)),
        "direction": ("Default driving direction.", True,
                      enum({"clockwise": "clockwise", "anticlockwise": "anticlockwise"})),
        "max_chariots": ("Most chariots in one race.", True, integer(1, maximum=12)),
    }),
    "start": ("The start of a race.", True, {
        "order": ("How the first race's start places are decided.", True, enum({
            "reveal_highest_card": "each reveals a top card; the highest takes start place 1, "
                                   "the others follow clockwise",
        })),
        "ties": ("What happens when several reveal the same highest card.", True, enum({
            "redraw": "the tied players reveal again until one is highest",
        })),
        "reshuffle_after": ("Whether the revealed cards are shuffled back before the race.",
                            True, BOOL),
        "rows": ("The start grid as rows of start places (front row first); null = the rules "
                 "name places but no rows, the course lays them out.", True,
                 {"description": "the rule value", "type": ["array", "null"],
                  "items": {"type": "array", "minItems": 1,
                            "items": {"type": "integer", "minimum": 1}}}),
    }),
    "turns": ("A player's turn.", True, {
        "order": ("Who moves when.", True, enum({
            "start_place_order": "start place 1 opens, the others follow clockwise",
        })),
        "must_play": ("Zugzwang: a card that can be moved in full must be played.", True, BOOL),
        "exact_move": ("A card moves exactly its value, never fewer spaces.", True, BOOL),
        "no_move": ("What happens when no card in hand can be moved in full.", True, enum({
            "skip_turn": "skip the turn and play no card (keep the hand)",
            "skip_turn_cycle_card": "skip the turn, put a card under the deck and draw a "
                                    "replacement",
            "play_smallest_loss": "play the card that loses the fewest movement points and move "
                                  "as far as possible",
        })),
    }),
    "six_rule": ("The restriction on the highest card for the leader.", True, {
        "card": ("The restricted card value.", True, integer(1)),
        "forbidden_when": ("The card may not be played while these conditions hold.", True,
                           CONDITION_LIST),
        "at_start": ("The rule at the start of the race.", True, enum({
            "start_player_may": "the chariot on start place 1 may play the card as its first "
                                "card although it leads",
            "first_row_may_not": "no chariot in start row 1 may play it as its first card; from "
                                 "row 2 it is allowed",
        })),
        "only_sixes": ("What a chariot does that may not play any card of its hand because of "
                       "this rule.", True, enum({
                           "skip_turn": "skip turns until the condition no longer holds",
                           "crash": "the chariot crashes: it is out and its space stays "
                                    "blocked for the rest of the race; if that stops anyone "
                                    "from finishing, no points are awarded",
                       })),
        "chicane_exception": ("Conditions under which a leader holding only the restricted "
                              "card may play it anyway; null = no such exception.", True,
                              CONDITION_LIST | {"type": ["array", "null"]}),
        "joint_leader_exception": ("The exception for joint leaders who all hold only the "
                                   "restricted card.", True, JOINT_EXCEPTION),
        "free_when": ("Conditions under which a leader is not bound by the rule at all, "
                      "whatever its hand; absent or null = no such release.", False,
                      CONDITION_LIST | {"type": ["array", "null"]}),
        "ends_when": ("The rule stops applying once this condition holds.", True, enum({
            "race_has_finisher": CONDITIONS["race_has_finisher"],
            "never": "the rule applies for the whole race",
        })),
    }),
    "card_restrictions": ("More cards a chariot may not play in some positions, beside the "
                          "6-card rule (which the engine applies as restrictions of the same "
                          "kind); a house rule needs no code.", False, {
        "extra": ("Each entry forbids its cards while forbidden_when holds, unless 'unless' "
                  "holds, until ends_when holds (conditions: $defs/condition_expr); checked "
                  "in order after the 6-card rule.", False, RESTRICTIONS),
    }),
    "effects": ("More effects on the named events of a race, after those the ruleset's values "
                "give (the engine applies every event's list in order); a house rule needs no "
                "code.", False, {
        "extra": ("Per event (see $defs/event), effects appended to its list (see "
                  "$defs/effect); an effect that takes a parameter the ruleset's own values "
                  "give need not repeat it.", False, EFFECT_LISTS),
    }),
    "leader": ("Who leads the race.", True, {
        "measure": ("How chariots are compared to find the leader.", True, enum({
            "progress": "race progress: laps done and, within a lap, the spaces still to go to "
                        "the next line where all lanes line up (the end of a curve, the level "
                        "of the alley exit); equal progress = joint leaders",
        })),
        "finishers_lead": ("A chariot that has finished is ahead of every chariot still "
                           "racing, so no racing chariot leads once one has finished; absent "
                           "= only racing chariots are compared.", False, BOOL),
    }),
    "alley": ("The imperial alley (Kaisergasse, Imperator-Gasse, Via do Imperador).", True, {
        "laps": ("The laps during which the alley stop counts.", True, int_list(1)),
        "must_stop": ("Only coming to a stop on an alley space counts; driving through does "
                      "not.", True, BOOL),
        "overtaking": ("Whether chariots may overtake inside the alley.", True, BOOL),
        "tribute": ("What a chariot does when it stops in the alley.", True, enum({
            "coin": "it gives its coin to Caesar",
            "race_card": "it picks up a face-down race card (alley.race_card: its value)",
        })),
        "race_card": ("The value of the face-down race card a chariot picks up with the "
                      "race_card tribute; it joins the hand.", False,
                      integer(1, maximum=MAX_CARD)),
        "blocked_last_chance": ("What a chariot that still owes the stop does when the alley "
                                "is blocked on its last lap to stop.", True, enum({
                                    "must_wait": "it must skip turns until the way is free",
                                    "may_wait": "it may skip turns until the way is free",
                                    "must_move": "it may not wait; it must play a card",
                                })),
        "no_stop": ("The consequence for a chariot that made no alley stop.", True, enum({
            "disqualify": "disqualified: it may finish but scores the disqualified points",
            "execute": "executed: 0 points (the source says no more)",
            "no_penalty": "nothing: the stop is optional",
        })),
    }),
    "out_of_cards": ("A chariot whose deck runs out before the finish.", True, {
        "effect": ("What happens to it (it scores scoring.not_finished).", True, enum({
            "remove": "it is taken off the board at once",
        })),
    }),
    "finish": ("The end of a race.", True, {
        "overshoot": ("Steps beyond the finish line on the last lap.", True, enum({
            "lapses": "they lapse; how far over the line does not matter",
        })),
        "others_continue": ("After the winner, the others race on for the places.", True,
                            BOOL),
    }),
    "scoring": ("Points per race.", True, {
        "method": ("What is awarded.", True, enum({
            "laurels_by_place": "laurels (points) by finishing place",
            "prize_money": "prize money per lap (prize_money group)",
        })),
        "places": ("Points for places 1, 2, 3, …; places beyond the list score 0.", True,
                   int_list(0)),
        "not_finished": ("Points for a chariot that does not reach the finish.", True,
                         integer()),
        "disqualified": ("Points for a disqualified chariot.", True, integer()),
    }),
    "disqualification": ("A disqualified chariot.", True, {
        "may_finish": ("It may race on to the finish.", True, BOOL),
        "keeps_place": ("It keeps its finishing place, so those behind do not move up.", True,
                        BOOL),
    }),
    "tournament": ("A series of races.", True, {
        "races": ("Races in a tournament.", True, integer(1, maximum=20)),
        "next_start_order": ("How the next race's start order is decided.", True, enum({
            "loser_first": "the loser of the previous race takes start place 1, the others "
                           "follow clockwise",
            "last_starter_opens": "whoever started last in the previous race opens, the "
                                  "others follow clockwise",
            "winner_stays_reseat_by_place": "the winner stays, the others re-seat by their "
                                            "places; non-finishers at the back, the one "
                                            "farthest from the line last",
            "by_previous_result": "the previous race's winner takes start place 1, the second "
                                  "place 2, and so on",
        })),
        "course_choice": ("How each race's course is chosen.", True, enum({
            "rotation": "as course_rotation lists",
            "recommended_then_draw": "course_rotation for the first races, then draw a course "
                                     "card and set drawn cards aside",
        })),
        "course_rotation": ("The courses race by race.", True, ROTATION),
        "tie_break": ("How equal tournament totals are decided.", True, enum({
            "none": "the rules give no tie-break: the tied players share the place",
            "more_wins_then_seconds": "more race wins, then more second places, and so on",
        })),
    }),
    "water": ("Water ditches printed on some boards.", True, {
        "ditches": ("How a water ditch counts.", True, enum({
            "not_mentioned": "the rules mention no water ditches",
            "skipped": "not a playable space: jumped over without counting",
            "space": "decoration only: the space counts as an ordinary space",
        })),
    }),
    "ownerless": ("Chariots that no player drives.", True, {
        "when": ("When such chariots take part.", True, enum({
            "never": "never",
            "fill_empty_places": "start places without a player are filled with them",
        })),
        "move": ("How they move.", False, enum({
            "top_card": "they play the top card of their deck (no hand)",
            "first_card_then_position": "first move: the value of one revealed card; then "
                                        "position_moves",
        })),
        "position_moves": ("Spaces moved by position in the field (after the first move).",
                           False, POSITION_MOVES),
        "unusable_card": ("What happens when their move cannot be made in full.", False, enum({
            "under_deck": "the card goes back under the deck; no move",
            "discard": "the card is discarded; no move",
            "skip_move": "the move is skipped",
        })),
        "draws_when_blocked": ("Whether a card is turned up when the chariot cannot move at "
                               "all.", False, BOOL),
        "six_rule": ("Whether the 6-card rule applies to them (a restricted card is "
                     "discarded without moving).", False, BOOL),
        "forbidden_first_card": ("What one that moves first by a revealed card does when the "
                                 "6-card rule forbids that card (move: "
                                 "first_card_then_position).", False, enum({
                                     "reveal_next": "the next card of its deck is revealed "
                                                    "instead, until one may be played",
                                     "skip_move": "the first move is skipped",
                                 })),
        "alley_wait": ("Whether they are held to alley.blocked_last_chance like the players; "
                       "absent = yes.", False, BOOL),
        "alley": ("Their alley duty.", False, enum({
            "tries_lap_1": "they try to stop in the alley on lap 1 and hold a coin",
            "exempt": "they need not visit the alley (they may drive through it)",
            "avoid": "they do not drive through the alley: they keep out of it",
        })),
        "out_of_cards": ("When their deck runs out.", False, enum({
            "remove": "they are removed",
            "not_applicable": "they do not move by cards after the first move",
        })),
        "controller": ("Who moves them.", False, enum({
            "majority_trailing_breaks_ties": "to their own best advantage; the majority "
                                             "decides disputes, the trailing player breaks "
                                             "ties",
            "majority": "to their own advantage, even at a player's cost; the majority decides",
            "last_start_place_player": "the player on the last start place, to their own "
                                       "advantage; the currently worst player decides "
                                       "disputes",
        })),
        "turn_order": ("When they move.", False, enum({
            "in_start_order": "in the turn of their start place, like any chariot",
            "after_players_best_placed_first": "after the last player; the best-placed one "
                                               "first",
        })),
        "scores": ("Whether they score points.", False, BOOL),
        "occupies_places": ("Whether they occupy finishing places.", False, BOOL),
    }),
    "teams": ("Players driving several chariots as a team.", False, {
        "turn_order": ("How a player's own chariots take their turns.", True, enum({
            "player_orders_own_chariots": "each turn the player orders his own chariots",
            "in_start_order": "each chariot moves in the turn of its start place",
        })),
        "scoring": ("How teams are scored.", True, enum({
            "individual_and_team": "individual and team scoring after each race",
            "all_chariots_score": "every chariot scores; a player's points are their sum",
            "team_total": "the team's total decides, not which chariot wins",
        })),
    }),
    "bonus": ("A one-off bonus a chariot may use instead of a card.", False, {
        "points": ("Movement points of the bonus.", True, integer(1, maximum=MAX_CARD)),
        "granted": ("When a chariot receives it.", True, enum({
            "after_alley_stop": "after saluting Caesar in the alley",
        })),
        "uses": ("How often it can be used.", True, integer(1, maximum=10)),
        "instead_of_card": ("Whether it is used instead of playing a card.", True, BOOL),
    }),
    "ramming": ("Ramming attacks.", False, {
        "trigger": ("When a chariot may attack.", True, enum({
            "stop_beside_opponent_free_space_ahead": "it comes to a stop beside an opponent "
                                                     "with a free space ahead of both",
        })),
        "card": ("What each side shows.", True, enum({
            "highest_in_hand": "the highest card in hand; the higher card wins",
        })),
        "winner": ("What the winner does.", True, enum({
            "forward_one_take_chip": "moves one space forward and takes an attack chip",
        })),
        "loser": ("What the loser does.", True, enum({
            "back_one": "moves one space back",
        })),
        "tie": ("How a tie of equal cards resolves.", True, STRING),
        "attack_chips": ("What attack chips do.", True, STRING),
    }),
    "prize_money": ("Prize money instead of laurels.", False, {
        "per_lap": ("Prize money for each lap, by place.", True,
                    {"description": "the rule value", "type": "array",
                     "items": {"type": "integer", "minimum": 0}}),
        "alley_stop": ("What an alley stop does in a money race.", True, enum({
            "reshuffle_forfeit_lap_prize": "the chariot may reshuffle its whole deck but "
                                           "forfeits that lap's prize",
        })),
    }),
}


def leaf(description: str, value: dict[str, Any]) -> dict[str, Any]:
    """One rule: a value (or 'unknown') and the citation of where it comes from."""
    choices_items = {k: v for k, v in value.items() if k not in ("description",)}
    return {
        "description": description,
        "type": "object",
        "additionalProperties": False,
        "required": ["source"],
        "properties": {
            "value": value,
            "source": {"$ref": "#/$defs/sources",
                       "description": "where the value comes from (one citation or a list)"},
            "note": {"description": "a remark for readers: the source's wording, a conflict",
                     "type": "string"},
            "reading": {"description": "kind 'read': no sentence states the value outright, "
                                       "but the texts imply it; one sentence quoting the "
                                       "words it rests on",
                        "type": "string", "minLength": 1},
            "conflict": {"description": "kind 'conflict': the texts disagree; the value is "
                                        "the edition's default and these variants give the "
                                        "other reading(s)",
                         "type": "array", "minItems": 1,
                         "items": {"type": "string", "minLength": 1}},
            "unknown": {"description": "true: the sources do not give this value; it must be "
                                       "supplied (--set or an overlay) before it is used",
                        "const": True},
            "why": {"description": "for an unknown value: what the sources leave open",
                    "type": "string", "minLength": 1},
            "choices": {"description": "for an unknown value: the values the source offers to "
                                       "choose from",
                        "type": "array", "minItems": 1, "items": choices_items},
        },
        "if": {"required": ["unknown"]},
        "then": {"required": ["why"]},
        "else": {"required": ["value"]},
    }


def groups_schema() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for group, (gdesc, _greq, keys) in GROUPS.items():
        props[group] = {
            "description": gdesc,
            "type": "object",
            "additionalProperties": False,
            "properties": {k: leaf(d, v) for k, (d, _r, v) in keys.items()},
        }
    return {"description": "rule groups; each holds rule values", "type": "object",
            "additionalProperties": False, "properties": props}


def complete_schema() -> dict[str, Any]:
    """What a complete (composed) ruleset must state: every required group and key."""
    props: dict[str, Any] = {}
    for group, (gdesc, _greq, keys) in GROUPS.items():
        req = [k for k, (_d, r, _v) in keys.items() if r]
        if req:
            props[group] = {"description": f"{gdesc} When present, it states these keys.",
                            "required": req}
    return {"description": "a complete ruleset states every required group and key",
            "required": [g for g, (_d, r, _k) in GROUPS.items() if r],
            "properties": props}


ID = {"description": "lower-case id, words joined by '-' (the file name without .yaml)",
      "type": "string", "pattern": r"^[a-z0-9]+(-[a-z0-9]+)*$"}


def build() -> dict[str, Any]:
    common = {
        "id": ID,
        "title": {"description": "a human-readable name", "type": "string", "minLength": 1},
        "summary": {"description": "one or two sentences on what this file is",
                    "type": "string"},
    }
    ruleset_file = {
        "description": "an edition or a homebrew ruleset",
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "kind", "title", "rules"],
        "properties": common | {
            "kind": {"description": "edition: a publisher's rules; homebrew: a player's own",
                     "enum": ["edition", "homebrew"]},
            "aliases": {"description": "other names (case-insensitive) this ruleset answers to",
                        "type": "array", "uniqueItems": True,
                        "items": {"type": "string", "minLength": 1}},
            "extends": {"description": "the ruleset this one starts from; its rules then only "
                                       "state what changes",
                        "type": "string", "minLength": 1},
            "variants": {"description": "variants applied in order (in a homebrew file: before "
                                        "its own rules; in a composed ruleset: those applied)",
                         "type": "array", "items": {"type": "string", "minLength": 1}},
            "based_on": {"description": "set when composing: the chain of rulesets this one "
                                        "extends, oldest first",
                         "type": "array", "items": {"type": "string"}},
            "rules": {"$ref": "#/$defs/rules",
                      "description": "the rule values, grouped"},
        },
        "if": {"required": ["extends"]},
        "then": {},
        "else": {"properties": {"rules": {"$ref": "#/$defs/complete",
                                          "description": "a ruleset without 'extends' states "
                                                         "every rule"}}},
    }
    variant_file = {
        "description": "a variant: an overlay that changes, adds or removes rule values",
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "kind", "title", "source", "applies_to"],
        "properties": common | {
            "kind": {"description": "variant", "const": "variant"},
            "source": {"$ref": "#/$defs/sources",
                       "description": "where the variant as a whole is described"},
            "applies_to": {"description": "ids of the rulesets it is written for, or 'any'; a "
                                          "ruleset that extends one of them qualifies too",
                           "type": "array", "minItems": 1, "uniqueItems": True,
                           "items": {"type": "string", "minLength": 1}},
            "requires": {"description": "variants that must be applied before this one",
                         "type": "array", "uniqueItems": True,
                         "items": {"type": "string", "minLength": 1}},
            "conflicts": {"description": "variants that cannot be combined with this one",
                          "type": "array", "uniqueItems": True,
                          "items": {"type": "string", "minLength": 1}},
            "rules": {"$ref": "#/$defs/rules",
                      "description": "rule values to set (each replaces the whole rule)"},
            "remove": {"description": "dotted keys (group.key) or groups to remove",
                       "type": "array", "uniqueItems": True,
                       "items": {"type": "string", "pattern": r"^[a-z_]+(\.[a-z_]+)?$"}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:avecaesar:ruleset",
        "title": "Ave Caesar ruleset, variant or composed ruleset",
        "description": "An edition, homebrew or variant file in rulesets/, or a composed "
                       "ruleset. Every rule value carries its source citation.",
        "type": "object",
        "if": {"properties": {"kind": {"const": "variant", "description": "a variant file"}},
               "required": ["kind"]},
        "then": {"$ref": "#/$defs/variant_file"},
        "else": {"$ref": "#/$defs/ruleset_file"},
        "$defs": {
            "ruleset_file": ruleset_file,
            "variant_file": variant_file,
            "rules": groups_schema(),
            "complete": {"allOf": [{"$ref": "#/$defs/rules"}, complete_schema()]},
            "citation": {"description": CITATION_HELP, "type": "string",
                         "pattern": CITATION_PATTERN},
            "sources": {"description": CITATION_HELP, "type": ["string", "array"],
                        "pattern": CITATION_PATTERN, "minItems": 1,
                        "items": {"$ref": "#/$defs/citation"}},
            "condition": enum(CONDITIONS, "a condition of the rule vocabulary"),
            "event": enum(EVENTS, "an event of the rule vocabulary"),
            "effect": enum(EFFECTS, "an effect of the rule vocabulary"),
            "condition_expr": {
                "description": "a condition, or conditions combined with all / any / not",
                "oneOf": [
                    {"$ref": "#/$defs/condition"},
                    {"type": "object", "additionalProperties": False, "required": ["all"],
                     "properties": {"all": {"description": "every one holds",
                                            "type": "array", "minItems": 1,
                                            "items": {"$ref": "#/$defs/condition_expr"}}}},
                    {"type": "object", "additionalProperties": False, "required": ["any"],
                     "properties": {"any": {"description": "at least one holds",
                                            "type": "array", "minItems": 1,
                                            "items": {"$ref": "#/$defs/condition_expr"}}}},
                    {"type": "object", "additionalProperties": False, "required": ["not"],
                     "properties": {"not": {"$ref": "#/$defs/condition_expr",
                                            "description": "it does not hold"}}},
                ]},
        },
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if "--check" in sys.argv:
        sys.exit(0 if SCHEMA_PATH.read_text(encoding="utf-8") == render() else 1)
    SCHEMA_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
