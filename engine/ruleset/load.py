"""Rulesets as data: load, compose and query them; the values a course's figures need.

>>> rs = load_ruleset(EDITION, variants=[VARIANT])    # doctest: +SKIP
>>> rs.value("hand.size"), rs.citation("hand.size")  # doctest: +SKIP
(4, '<the citation of the variant that set it>')

A rule is addressed by a dotted key ``group.key``. Every rule carries its citation; a rule
the sources do not give is declared ``unknown`` and :meth:`Ruleset.value` raises
:class:`~avecaesar.engine.data.errors.MissingRuleValueError` until the user supplies it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from avecaesar.engine.course.figures import RaceFigures
from avecaesar.engine.data.errors import AveCaesarError, MissingRuleValueError
from avecaesar.engine.data.values import HouseRules, Json, JsonDict, as_int, as_list
from avecaesar.engine.ruleset.catalog import RulesetEntry, bundled
from avecaesar.engine.ruleset.compose import RulesetConflictError, compose
from avecaesar.engine.ruleset.keys import rule_keys, split_key

__all__ = ["KINDS", "Ruleset", "RulesetConflictError", "RulesetEntry", "list_rulesets",
           "load_ruleset", "race_figures", "rule_kind"]


@dataclass(frozen=True)
class Ruleset:
    """A composed, validated ruleset.

    id, title, kind: of the ruleset named (its variants are listed in ``variants``).
    data: the composed mapping (``id``, ``kind``, ``title``, ``based_on``, ``variants``,
        ``rules``), valid against ``schemas/ruleset.schema.json``.
    origins: for each dotted key, the file that last set it (ruleset id, ``variant X``,
        ``--set``).
    """

    id: str
    title: str
    kind: str
    variants: tuple[str, ...]
    data: JsonDict
    origins: Mapping[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``<ruleset> + <variant> + …``: the ruleset and its variants, in order."""
        return " + ".join([self.id, *self.variants])

    def __repr__(self) -> str:
        """Short: the label, how many rules it states and how many are open (the data is
        ``.data``; ``avecaesar ruleset show`` prints it all)."""
        stated = self.stated_keys()
        open_ = sum(1 for k in stated if self.is_unknown(k))
        return f"<Ruleset {self.label}: {len(stated)} rules, {open_} open>"

    def stated_keys(self) -> list[str]:
        """Every dotted key this ruleset states, in schema order."""
        return [k for k in rule_keys() if self.has(k)]

    def has(self, key: str) -> bool:
        """Whether the ruleset states ``key`` (known or declared unknown)."""
        group, _, name = key.partition(".")
        return name in self.data["rules"].get(group, {})

    def rule(self, key: str) -> JsonDict:
        """The whole rule: ``value`` or ``unknown``/``why``, ``source``, maybe ``note``."""
        group, name = split_key(key)
        try:
            found: JsonDict = self.data["rules"][group][name]
            return found
        except KeyError:
            raise AveCaesarError(f"the ruleset {self.label} does not state {key!r}") from None

    def is_unknown(self, key: str) -> bool:
        return bool(self.rule(key).get("unknown"))

    def unknown_keys(self) -> list[str]:
        """The keys declared open: using any of them needs the user to supply it."""
        return [k for k in self.stated_keys() if self.is_unknown(k)]

    def kind_of(self, key: str) -> str:
        """How the texts give the value of ``key`` (see :func:`rule_kind`)."""
        return rule_kind(self.rule(key))

    def kinds(self) -> dict[str, str]:
        """Every stated key's kind, in schema order."""
        return {k: self.kind_of(k) for k in self.stated_keys()}

    def value(self, key: str) -> Json:
        """The value of ``key``; :class:`MissingRuleValueError` if it is declared open."""
        rule = self.rule(key)
        if rule.get("unknown"):
            raise MissingRuleValueError(key, f"{rule['why']} [{self.citation(key)}]", "",
                                        rule.get("choices"))
        found: Json = rule["value"]
        return found

    def citation(self, key: str) -> str:
        """Where the rule comes from, as docs/sources.md names the documents."""
        source = self.rule(key)["source"]
        return "; ".join(source) if isinstance(source, list) else str(source)


KINDS = ("stated", "read", "conflict", "open")


def rule_kind(rule: Mapping[str, Json]) -> str:
    """``stated`` (a text says it), ``read`` (the texts imply it: ``reading`` quotes the
    words), ``conflict`` (texts disagree: the default here, ``conflict`` names the variants
    with the other readings) or ``open`` (no text decides it: ``unknown``)."""
    if rule.get("unknown"):
        return "open"
    if rule.get("conflict"):
        return "conflict"
    if rule.get("reading"):
        return "read"
    return "stated"


def load_ruleset(name_or_path: str, variants: Sequence[str] = (),
                 overrides: Mapping[str, str] | None = None,
                 house: HouseRules | None = None) -> Ruleset:
    """Load ``name_or_path`` (id, alias or file), apply ``variants`` in order, then the
    ``house`` rules (dotted key → rule, from ``--house FILE``), then the ``overrides``
    (dotted key → value text, as ``--set key=value``).

    Raises InputError (a file's problems, located), UnknownNameError (with the known names
    and the closest one), RulesetConflictError (conflicts, requirements, invalid result).
    """
    state = compose(name_or_path, variants, overrides, house)
    return Ruleset(id=state.id, title=state.title, kind=state.kind,
                   variants=tuple(state.variants), data=state.data(),
                   origins=dict(state.origins))


def list_rulesets() -> list[RulesetEntry]:
    """Every bundled edition, homebrew ruleset and variant."""
    return bundled()


def race_figures(ruleset: Ruleset) -> RaceFigures:
    """The rule values a course's shortest legal race and reserve depend on."""
    bonus = 0
    if ruleset.has("bonus.points"):
        uses = as_int(ruleset.value("bonus.uses"), "bonus.uses") \
            if ruleset.has("bonus.uses") else 1
        bonus = as_int(ruleset.value("bonus.points"), "bonus.points") * uses
    return RaceFigures(
        laps=as_int(ruleset.value("race.laps"), "race.laps"),
        alley_laps=tuple(as_int(x, "alley.laps")
                         for x in as_list(ruleset.value("alley.laps"), "alley.laps")),
        alley_required=ruleset.value("alley.no_stop") != "no_penalty",
        deck_points=as_int(ruleset.value("deck.points"), "deck.points"),
        bonus_points=bonus,
        water="skipped" if ruleset.value("water.ditches") == "skipped" else "space",
        source=f"ruleset {ruleset.label}",
    )
