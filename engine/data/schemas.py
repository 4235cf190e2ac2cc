"""JSON Schemas of the project's files: one registry, every error located in the YAML.

Schemas live in ``schemas/*.json`` (draft 2020-12), each with an ``$id`` such as
``urn:avecaesar:course``. They are loaded once into a :class:`referencing.Registry`; nothing
is fetched over the network.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from avecaesar.engine.data.errors import Problem
from avecaesar.engine.data.paths import SCHEMAS_DIR
from avecaesar.engine.data.suggest import did_you_mean, unknown_name
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.data.yamlsource import Source

__all__ = ["data_messages", "missing_part", "registry", "schema", "schema_problems", "validator"]


@cache
def _schemas() -> dict[str, JsonDict]:
    found: dict[str, JsonDict] = {}
    for path in sorted(SCHEMAS_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        found[doc["$id"]] = doc
    return found


@cache
def registry() -> Registry:
    """Every bundled schema, by ``$id``."""
    resources = [(sid, Resource.from_contents(doc, default_specification=DRAFT202012))
                 for sid, doc in _schemas().items()]
    return Registry().with_resources(resources)


def schema(schema_id: str) -> JsonDict:
    """The schema document with this ``$id``."""
    return _schemas()[schema_id]


@cache
def validator(schema_id: str) -> jsonschema.protocols.Validator:
    """A draft 2020-12 validator for the schema ``schema_id``, built once."""
    return jsonschema.Draft202012Validator(schema(schema_id), registry=registry())


_YAML11 = {True: "a boolean (true)", False: "a boolean (false)"}


def _declared(node: Any, schema_id: str | None, depth: int = 0) -> list[str]:
    """The property names a schema object declares, its ``$ref`` and ``allOf`` included
    (what ``unevaluatedProperties: false`` lets through)."""
    if not isinstance(node, dict):
        return []
    subs = list(node.get("allOf", []))
    ref = node.get("$ref")
    if isinstance(ref, str) and schema_id is not None and depth < 8:
        subs.insert(0, registry().resolver(base_uri=schema_id).lookup(ref).contents)
    names: list[str] = []
    for sub in subs:
        names += [n for n in _declared(sub, schema_id, depth + 1) if n not in names]
    return names + [n for n in node.get("properties", {}) if n not in names]


def _explain(err: ValidationError, source: Source,
             schema_id: str | None = None) -> tuple[list[str | int], str, str | None]:
    """(path, message, key) for one error; ``key`` set when a key itself is to blame."""
    path = list(err.absolute_path)
    v = err.validator
    if v in ("additionalProperties", "unevaluatedProperties") and isinstance(err.instance, dict):
        allowed = _declared(err.schema, schema_id) if v == "unevaluatedProperties" \
            else list(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed
                 and not any(_matches(p, k) for p in err.schema.get("patternProperties", {}))]
        if extra:
            k = str(extra[0])
            return path, (f"unknown key {k!r}{did_you_mean(k, allowed)}"
                          f" (allowed here: {', '.join(allowed)})"), k
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return path, f"missing key {missing!r} — add it here", None
    if v == "type" and not path:  # the whole file: never quote what it holds
        return path, (f"the file's top level is not {_a(err.validator_value)} of keys "
                      "(key: value lines) — is it the right file?"), None
    if v == "type":
        text = source.scalar_text(path)
        inst = err.instance
        want = err.validator_value
        if isinstance(inst, bool) and text is not None and "string" in str(want):
            return path, (f"{text!r} was read as {_YAML11[inst]} (YAML 1.1) — "
                          f"quote it (\"{text}\") if you mean the text"), None
        if isinstance(inst, int | float) and text is not None and "string" in str(want):
            return path, (f"{text} was read as a number — quote it (\"{text}\") "
                          "if you mean the text"), None
        return path, f"{_short(inst)} is not {_a(want)} — write {_a(want)} here", None
    named = _vocabulary(err.schema)
    if v == "enum" and named and isinstance(err.instance, str):
        return path, unknown_name(named, err.instance, [str(o) for o in err.validator_value]), None
    if v == "enum":
        opts = [str(o) for o in err.validator_value]
        hint = did_you_mean(str(err.instance), opts) if isinstance(err.instance, str) else ""
        return path, (f"{_short(err.instance)} is not allowed{hint}"
                      f" (one of: {', '.join(opts)})"), None
    if v == "const":
        return path, f"must be {err.validator_value!r}", None
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return path, f"{err.message} — change the number", None
    if v in ("minItems", "maxItems"):
        n = len(err.instance) if isinstance(err.instance, list) else "?"
        word = "too short — write at least" if v == "minItems" else "too long — write at most"
        return path, f"{n} items: {word} {err.validator_value}", None
    if v in ("minLength", "maxLength"):
        n = len(err.instance) if isinstance(err.instance, str) else "?"
        word = "too short — write at least" if v == "minLength" else "too long — write at most"
        return path, f"a text of {n} characters: {word} {err.validator_value}", None
    if v == "uniqueItems":
        return path, "the items must all differ — remove the repeated one", None
    if v == "pattern":
        form = err.schema.get("description") if isinstance(err.schema, dict) else None
        return path, (f"{_short(err.instance)} does not have the expected form "
                      f"({form or err.validator_value})"), None
    if v == "not" and isinstance(err.schema, dict) and "x-not" in err.schema:
        return path, f"{_short(err.instance)}: {err.schema['x-not']}", None
    desc = err.schema.get("description") if isinstance(err.schema, dict) else None
    message = err.message.replace(repr(err.instance), _short(err.instance))
    return path, _clip(message, 200) + (f" — expected: {desc}" if desc else ""), None


# the registries' schema $defs, by the start of their description: an unknown name there
# is "unknown condition 'x' — did you mean …? (one of: …)"
RULESET_ID = "urn:avecaesar:ruleset"
_VOCABULARY = {"a condition of the rule vocabulary": "condition",
               "an effect of the rule vocabulary": "effect",
               "an event of the rule vocabulary": "event"}


def _vocabulary(node: object) -> str:
    desc = node.get("description", "") if isinstance(node, dict) else ""
    return next((kind for start, kind in _VOCABULARY.items()
                 if isinstance(desc, str) and desc.startswith(start)), "")


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _non_finite(data: object) -> list[list[str | int]]:
    """Paths of every ``.nan``/``.inf`` in ``data`` (JSON Schema's "number" lets them
    through, and a drawing or a figure computed from one is broken)."""
    found: list[list[str | int]] = []
    stack: list[tuple[object, list[str | int]]] = [(data, [])]
    seen: set[int] = set()
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            found.append(path)
        elif isinstance(value, dict | list) and id(value) not in seen:
            seen.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, [*path, k]) for k, v in items)
    return sorted(found, key=str)


def _matches(pattern: str, key: object) -> bool:
    import re

    return isinstance(key, str) and re.search(pattern, key) is not None


def _short(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _a(types: object) -> str:
    names = types if isinstance(types, list) else [types]
    words = {"string": "a text", "integer": "a whole number", "number": "a number",
             "boolean": "true or false", "array": "a list", "object": "a mapping",
             "null": "nothing"}
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _descendants(err: ValidationError) -> list[ValidationError]:
    out = []
    for sub in err.context or ():
        out.append(sub)
        out.extend(_descendants(sub))
    return out


def vocabulary_error(err: ValidationError) -> tuple[list[str | int], str] | None:
    """An unknown name of the rule vocabulary (a condition, a condition with a parameter, an
    effect, an event) somewhere under ``err`` (a ``oneOf`` of the forms a name may take), as
    (path, ``unknown condition 'x' — did you mean …? (one of: …)``); None if there is none.
    Preferred to the best-matching branch, which may blame the form instead of the name."""
    every = [err, *_descendants(err)]
    for sub in every:  # a misspelt name, first: the deepest place it can be
        kind = _vocabulary(sub.schema)
        if sub.validator == "enum" and kind and isinstance(sub.instance, str):
            return list(sub.absolute_path), unknown_name(
                kind, sub.instance, [str(o) for o in sub.validator_value])
    plain = schema(RULESET_ID)["$defs"]["condition"]["enum"]
    for sub in every:  # then a {name: value} whose name is no condition with a parameter
        if (sub.validator == "additionalProperties" and _vocabulary(sub.schema) == "condition"
                and isinstance(sub.instance, dict) and len(sub.instance) == 1):
            name = str(next(iter(sub.instance)))
            if name in ("all", "any", "not") or name in plain:
                continue
            return list(sub.absolute_path), unknown_name(
                "condition", name, [*plain, *sub.schema.get("properties", {})])
    return None


def missing_part(err: ValidationError) -> str | None:
    """For a value with no file to point into (a house rule's): a missing key or an effect
    without its parameter, said as a file's problem says it, with where in the value
    (``alley_stop[0]: missing key 'count' — add it here``); None for any other error."""
    if err.validator != "required" and not (
            err.validator == "not" and isinstance(err.schema, dict) and "x-not" in err.schema):
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
    message = _explain(err, Source("<value>", err.instance, None))[1]
    return f"{where.lstrip('.')}: {message}" if where else message


def _leaves(err: ValidationError) -> ValidationError:
    """For oneOf/anyOf, the sub-error that best says what is wrong."""
    while err.context:
        best = best_match(err.context)
        if best is None or best is err:
            break
        err = best
    return err


def schema_problems(source: Source, schema_id: str) -> list[Problem]:
    """Every schema violation of ``source`` as located problems (empty when valid)."""
    problems: list[Problem] = [
        source.problem(path, "not a finite number (.nan or .inf) — write a number such as 90")
        for path in _non_finite(source.data)]
    seen: set[tuple[int, int, str]] = set()
    for err in validator(schema_id).iter_errors(source.data):
        named = vocabulary_error(err)
        if named is not None:
            path, message, key = (*named, None)
        else:
            path, message, key = _explain(_leaves(err), source, schema_id)
        p = source.problem(path, message, key=key)
        if (p.line, p.column, p.message) not in seen:
            seen.add((p.line, p.column, p.message))
            problems.append(p)
    return sorted(problems)


def data_messages(data: object, schema_id: str) -> list[tuple[list[str | int], str]]:
    """Every schema violation of in-memory ``data`` as (path, message), for data built in
    memory (a composed ruleset) that has no file to point into."""
    empty = Source("<data>", data, None)
    out: list[tuple[list[str | int], str]] = []
    for err in validator(schema_id).iter_errors(data):
        named = vocabulary_error(err)
        path, message, key = (*named, None) if named is not None else _explain(
            _leaves(err), empty, schema_id)
        if key is not None:
            path = [*path, key]
        if (path, message) not in out:
            out.append((path, message))
    return out
