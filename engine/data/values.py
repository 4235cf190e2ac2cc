"""What a YAML or JSON document holds, as a type: :data:`Json`, and its checked narrowing.

The engine's files are validated by their JSON Schemas before anything reads them, so a
value of the wrong shape here is a bug in a schema or a caller, never a user's mistake; the
``as_*`` functions narrow a value and say where a wrong one came from (a
:class:`~avecaesar.engine.data.errors.AveCaesarError`, never a bare ``TypeError``).

``Json`` is covariant (``Sequence``, ``Mapping``), so a ``list[int]`` or a
``dict[str, str]`` is one without a copy: what a ``to_json()`` returns and what a record
line holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from avecaesar.engine.data.errors import AveCaesarError

__all__ = ["HouseRules", "Json", "JsonDict", "JsonObject", "as_bool", "as_int", "as_list", "as_map",
           "as_str"]

Json: TypeAlias = "bool | int | float | str | Sequence[Json] | Mapping[str, Json] | None"
JsonObject: TypeAlias = "Mapping[str, Json]"

#: a JSON object as it is written or read — a record line, a header, a view, a YAML
#: document's mapping. ``Any``, not :data:`Json`, on purpose: its fields are checked by its
#: JSON Schema (game-record, ruleset, course), not by the type checker, and the code that
#: reads a field knows its type from the schema; the one place the engine says so.
JsonDict: TypeAlias = "dict[str, Any]"

#: house rules (``--house FILE``, the table's answers): dotted key → the rule (value,
#: source, …), as a ruleset's own rules are written
HouseRules: TypeAlias = "Mapping[str, Mapping[str, Json]]"


def _wrong(value: object, want: str, where: str) -> AveCaesarError:
    return AveCaesarError(f"{where}: expected {want}, found {value!r}")


def as_int(value: Json | object, where: str) -> int:
    """``value`` as an int (not a bool)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _wrong(value, "a whole number", where)


def as_str(value: Json | object, where: str) -> str:
    if isinstance(value, str):
        return value
    raise _wrong(value, "a text", where)


def as_bool(value: Json | object, where: str) -> bool:
    if isinstance(value, bool):
        return value
    raise _wrong(value, "true or false", where)


def as_list(value: Json | object, where: str) -> Sequence[Json]:
    """``value`` as a list (a text is not one)."""
    if isinstance(value, list | tuple):
        return value
    raise _wrong(value, "a list", where)


def as_map(value: Json | object, where: str) -> Mapping[str, Json]:
    if isinstance(value, Mapping):
        return value
    raise _wrong(value, "a mapping", where)
