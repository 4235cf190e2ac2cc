"""One map from a rule key to the primitive that applies it (issue 20).

Every key of the ruleset schema is an entry of :data:`RULE_MAP`: the kind of primitive
(``condition``: it is or builds a condition expression of core/conditions.py; ``effect``: it
becomes effects of core/effects.py on an event; ``field``: a typed value the named code
reads; ``check``: only the ruleset's own checks or the course figures read it) and where.
docs/architecture.md's rule table is generated from it
(``python -m avecaesar.editor.registry_docs``, ``make docs``), with the tests that declare
``@pytest.mark.covers("rule:<key>")``; tests/layers/test_rule_map.py fails when a key the
adapter reads has no entry, or an entry has no test.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KINDS", "RULE_MAP", "RuleUse"]

KINDS = ("condition", "effect", "field", "check")


@dataclass(frozen=True)
class RuleUse:
    """How the engine applies a rule key: the kind of primitive and where."""

    kind: str
    where: str


def _c(where: str) -> RuleUse:
    return RuleUse("condition", where)


def _e(where: str) -> RuleUse:
    return RuleUse("effect", where)


def _f(where: str) -> RuleUse:
    return RuleUse("field", where)


def _k(where: str) -> RuleUse:
    return RuleUse("check", where)


_SIX = "the 6-card restriction (`six_restrictions`, core/rule_values.py)"
_OWN = "`OwnerlessRules` (core/rule_values.py)"

RULE_MAP: dict[str, RuleUse] = {
    "players.min": _f("`RaceRules.players_min`: `check_player_count` (core/race.py)"),
    "players.max": _f("`RaceRules.players_max`: `check_player_count` (core/race.py)"),
    "players.chariots_per_player": _f("`RaceRules.chariots_for`: `check_seats`, `new_race`"),
    "deck.composition": _f("`RaceRules.deck` (`_deck`): every chariot's deck"),
    "deck.points": _k("the course figures' reserve (`race_figures`); `_deck` checks a chosen "
                      "deck's total"),
    "deck.piles": _f("`_six_joint` (the split deck is drawn in order)"),
    "deck.alternatives": _f("`_deck`: a chosen deck's card count"),
    "deck.alternative_compositions": _f("`_deck`: a chosen deck's cards"),
    "deck.split": _f("`_six_joint` (only `dealt_face_down`)"),
    "deck.choice": _f("`_deck`: which deck races"),
    "hand.size": _f("`RaceRules.hand_size`: `RaceState.push` draws back to it"),
    "race.laps": _f("`RaceRules.laps`: `walks`, the finish in `RaceState.push`"),
    "race.direction": _k("the course's direction (course files); no race rule reads it"),
    "race.max_chariots": _k("ruleset checks (`players.max` against it)"),
    "start.order": _f("assumed value (`ASSUMED`): `start_order` in core/race.py"),
    "start.ties": _f("assumed value (`ASSUMED`): `start_order` redraws"),
    "start.reshuffle_after": _f("assumed value (`ASSUMED`): `new_race` reshuffles"),
    "start.rows": _c("`RaceRules.row_of`: conditions `in_start_row_1`, `in_a_start_row`"),
    "turns.order": _f("assumed value (`ASSUMED`): `RaceState._advance`"),
    "turns.must_play": _f("citation of Zugzwang in `why_not`"),
    "turns.exact_move": _f("citation of the exact move in `why_not`; `walks`"),
    "turns.no_move": _e("`no_move: [cycle_card]` or `[play_smallest_loss]` (`rule_effects`)"),
    "six_rule.card": _c(f"the cards of {_SIX}"),
    "six_rule.forbidden_when": _c(f"`forbidden_when` of {_SIX}: `leading` / `leading_alone`"),
    "six_rule.at_start": _c(f"`unless` / the start clause of {_SIX}: `first_card`, "
                            "`start_player`, `in_start_row_1`"),
    "six_rule.only_sixes": _e("`only_restricted: [crash]` or a skip (`rule_effects`)"),
    "six_rule.chicane_exception": _c(f"`unless` of {_SIX}: `only_sixes_in_hand` and the "
                                     "listed expressions"),
    "six_rule.joint_leader_exception": _c(f"`unless` of {_SIX}: `leading_jointly`, the "
                                          "listed expressions, `JOINT_WHO`"),
    "six_rule.free_when": _c(f"`unless` of {_SIX}: the listed expressions (all / any / not)"),
    "six_rule.ends_when": _c(f"`ends_when` of {_SIX}: `race_has_finisher`"),
    "card_restrictions.extra": _c("more card restrictions after the 6-card rule "
                                  "(`_extra_restrictions`, `card_forbidden`)"),
    "effects.extra": _e("appended to the event's effect list (`_extra_effects`)"),
    "leader.measure": _f("`Position.leaders` (race progress; only `progress`)"),
    "leader.finishers_lead": _c("`Position.leaders`: nobody leads once a chariot has "
                                "finished (conditions `leading*`, the 2-4-6 measure)"),
    "alley.laps": _f("`RaceRules.alley_laps`: `stops_in_alley`, `alley_pending`, "
                     "`gives_up_alley`, the bots, the course figures"),
    "alley.must_stop": _e("`alley_missed: [...]` (`rule_effects`), `alley_pending`"),
    "alley.overtaking": _f("only `false` (the one-lane alley of the lane graph)"),
    "alley.tribute": _e("`alley_stop: [give_coin, take_race_card?]` (`rule_effects`)"),
    "alley.race_card": _e("`alley_stop: [.., take_race_card]` (`rule_effects`)"),
    "alley.blocked_last_chance": _f("primitives `alley_wait_binds`, `alley_must_wait`: the "
                                    "wait in `_Analysis._more`, `why_not`"),
    "alley.wait_laps": _f("`RaceRules.alley_wait_laps`: `wait_window` in core/moves.py"),
    "alley.no_stop": _e("`alley_missed: [disqualify, remove?/execute?]` (`rule_effects`)"),
    "out_of_cards.effect": _e("`out_of_cards: [remove]` (`rule_effects`)"),
    "finish.overshoot": _f("only `lapses`: `walks` end at the step over the line"),
    "finish.others_continue": _f("only `true`: `RaceState._advance` races on"),
    "scoring.method": _e("`laurels_by_place`, or `prize_money`: `lap_completed: [pay_prize]`"),
    "scoring.places": _f("`RaceRules.places`: `outcome`"),
    "scoring.not_finished": _f("`RaceRules.not_finished_points`: `outcome`"),
    "scoring.disqualified": _f("`RaceRules.disqualified_points`: `outcome`"),
    "disqualification.may_finish": _e("`alley_missed: [disqualify, remove]` when false"),
    "disqualification.keeps_place": _f("`RaceRules.dq_keeps_place`: `outcome`"),
    "tournament.races": _f("`TournamentRules.races`: core/tournament.py"),
    "tournament.next_start_order": _f("`TournamentRules.next_start_order`: `NEXT_SEATS`"),
    "tournament.course_choice": _f("`TournamentRules.draws_course`: `planned_courses`"),
    "tournament.course_rotation": _f("`TournamentRules.rotation`: `planned_courses`"),
    "tournament.tie_break": _f("`TournamentRules.tie_break`: `TIE_BREAKS`"),
    "water.ditches": _f("primitive `water_skipped`: `contract_water` (core/race_setup.py)"),
    "ownerless.when": _f(f"{_OWN}: whether empty start places are filled"),
    "ownerless.move": _f(f"{_OWN}: `Position.cards` (top card, or the 2-4-6 measure)"),
    "ownerless.position_moves": _f(f"{_OWN}: `Position.position_move` (2-4-6)"),
    "ownerless.unusable_card": _f(f"{_OWN}: primitive `under_deck`, `ownerless_skip`"),
    "ownerless.draws_when_blocked": _f(f"{_OWN}: `ownerless_skip`"),
    "ownerless.six_rule": _c(f"{_OWN}: condition `driven_by_nobody` exempts them"),
    "ownerless.forbidden_first_card": _f(f"{_OWN}: primitive `reveal_next` (`_revealed`)"),
    "ownerless.alley_wait": _f(f"{_OWN}: `held_to_wait`"),
    "ownerless.alley": _f(f"{_OWN}: primitives `alley_free`, `avoids_alley`"),
    "ownerless.out_of_cards": _f(f"{_OWN}: primitive `runs_out`"),
    "ownerless.controller": _k("ruleset checks (who moves them is the bots' policy)"),
    "ownerless.turn_order": _f(f"{_OWN}: primitive `after_players`"),
    "ownerless.scores": _f(f"{_OWN}: `outcome`"),
    "ownerless.occupies_places": _f(f"{_OWN}: `outcome`"),
    "teams.turn_order": _f("primitive `player_orders`: `RaceState._next_player_turn`"),
    "teams.scoring": _f("`RaceRules.team_scoring`: `outcome` — one way for its three "
                        "values: each chariot scores by its place, a player's points are "
                        "their chariots' sum"),
    "bonus.points": _e("`alley_stop: [.., grant_bonus]`; the bonus move in `_Analysis`"),
    "bonus.granted": _f("only `after_alley_stop` (`_variant_values`)"),
    "bonus.uses": _f("only 1 (`_variant_values`)"),
    "bonus.instead_of_card": _f("only `true` (`_variant_values`)"),
    "ramming.trigger": _f("only one trigger (`_variant_values`): `ram_targets`"),
    "ramming.card": _f("only `highest_in_hand`: `ram_winner`"),
    "ramming.winner": _f("only `forward_one_take_chip`: `RaceState._ram`"),
    "ramming.loser": _f("only `back_one`: `RaceState._ram`"),
    "ramming.tie": _f("primitive `ram_tie_winner`: `ram_winner`"),
    "ramming.attack_chips": _f("only `no_effect`"),
    "prize_money.per_lap": _e("`lap_completed: [pay_prize]` (`rule_effects`)"),
    "prize_money.alley_stop": _e("`alley_stop: [.., reshuffle]` (`rule_effects`)"),
}
