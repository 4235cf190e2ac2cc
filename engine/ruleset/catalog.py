"""Finding rulesets and variants: the bundled files, names, aliases and file paths.

Names resolve case-insensitively against each file's ``id`` and its ``aliases`` (the
aliases live in the data, so this module knows no edition by name). A name that looks like a
path (it ends in ``.yaml``/``.yml`` or contains a slash) is read as a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from avecaesar.engine.data.errors import InputError, Problem, UnknownNameError
from avecaesar.engine.data.limits import MAX_DATA_BYTES
from avecaesar.engine.data.paths import RULESETS_DIR
from avecaesar.engine.data.safeio import read_text
from avecaesar.engine.data.schemas import schema_problems
from avecaesar.engine.data.values import JsonDict
from avecaesar.engine.data.yamlsource import Source, load_yaml, load_yaml_text
from avecaesar.engine.ruleset.checks import name_issues, rule_issues
from avecaesar.engine.ruleset.embedded import embedded_text, note_read
from avecaesar.engine.ruleset.house import is_house_file
from avecaesar.engine.ruleset.keys import RULESET_SCHEMA

__all__ = ["RulesetEntry", "bundled", "check_source", "load_checked", "resolve",
           "resolve_variant"]


@dataclass(frozen=True)
class RulesetEntry:
    """One ruleset or variant file: what ``ruleset list`` shows."""

    id: str
    kind: str
    title: str
    applies_to: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    path: Path | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "kind": self.kind, "title": self.title}
        if self.kind == "variant":
            out["applies_to"] = list(self.applies_to)
        if self.aliases:
            out["aliases"] = list(self.aliases)
        return out


def _entry(source: Source, path: Path) -> RulesetEntry:
    d: JsonDict = source.data
    return RulesetEntry(
        id=str(d["id"]), kind=str(d["kind"]), title=str(d["title"]),
        applies_to=tuple(str(a) for a in d.get("applies_to", ())),
        aliases=tuple(str(a) for a in d.get("aliases", ())), path=path)


@cache
def _bundled(root: Path) -> tuple[RulesetEntry, ...]:
    """The bundled files' names, read lazily: the schema check of a file waits until it is
    composed (compose checks what it uses), so listing the names costs no schema check of
    forty files (issue 24: start-up); a file whose name fields are unreadable is checked
    here, for its clear error."""
    entries = []
    for path in sorted(root.rglob("*.yaml")):
        if path.relative_to(root).parts[0] == "examples":
            continue  # house-rule examples, used by path (--variant rulesets/examples/…)
        source = load_yaml(path)
        try:
            entries.append(_entry(source, path))
        except (KeyError, TypeError, AttributeError):
            raise InputError(schema_problems(source, RULESET_SCHEMA) or [
                source.problem([], "a ruleset file needs id, kind and title")]) from None
    return tuple(entries)


def bundled() -> list[RulesetEntry]:
    """Every bundled edition, homebrew ruleset and variant, in file order."""
    return list(_bundled(RULESETS_DIR))


def _looks_like_path(name: str) -> bool:
    return name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name


def _by_name(name: str, variants: bool) -> RulesetEntry:
    what = "variant" if variants else "ruleset"
    pool = [e for e in bundled() if (e.kind == "variant") == variants]
    wanted = name.strip().lower()
    for e in pool:
        if wanted == e.id.lower() or wanted in (a.lower() for a in e.aliases):
            return e
    raise UnknownNameError(what, name, [e.id for e in pool])


def _from_file(name: str, variants: bool) -> RulesetEntry:
    path = Path(name)
    source = load_checked(path)
    entry = _entry(source, path)
    if (entry.kind == "variant") != variants:
        want = "a variant" if variants else "an edition or homebrew ruleset"
        raise InputError([source.problem(["kind"], f"this file is a {entry.kind}; {want} "
                                         "is expected here", key="kind")])
    return entry


def resolve(name: str) -> RulesetEntry:
    """The edition or homebrew ruleset called ``name`` (id, alias or file path)."""
    return _from_file(name, False) if _looks_like_path(name) else _by_name(name, False)


def resolve_variant(name: str) -> RulesetEntry:
    """The variant called ``name`` (id, alias or file path of an overlay)."""
    return _from_file(name, True) if _looks_like_path(name) else _by_name(name, True)


# the parsed data of files found valid in this process (a digest of what was read): composing
# the same edition and variants again skips their schema check, the costliest step
_VALID: set[str] = set()


def _digest(source: Source) -> str:
    import hashlib
    import json

    text = json.dumps([source.file, source.data], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def check_source(source: Source) -> list[Problem]:
    """Every schema and semantic problem of one ruleset or variant file (none, at once, for
    data this process has already found valid)."""
    digest = _digest(source)
    if digest in _VALID:
        return []
    problems = _problems(source)
    if not problems:
        _VALID.add(digest)
    return problems


def _problems(source: Source) -> list[Problem]:
    problems = schema_problems(source, RULESET_SCHEMA)
    if problems or not isinstance(source.data, dict):
        return problems
    data: JsonDict = source.data
    complete = data.get("kind") != "variant" and "extends" not in data
    issues = rule_issues(data, complete)
    known = bundled()
    issues += name_issues(data, [e.id for e in known if e.kind != "variant"],
                          [e.id for e in known if e.kind == "variant"])
    return sorted(source.problem(path, message) for path, message in issues)


def load_checked(path: str | Path) -> Source:
    """Read one ruleset or variant file; raise :class:`InputError` with every problem.

    A file a record embeds is read from the record's copy (engine/ruleset/embedded.py)."""
    text = embedded_text(str(path))
    if text is None:
        text = read_text(path, MAX_DATA_BYTES, "YAML file")
    note_read(str(path), text)
    source = load_yaml_text(text, str(path))
    if source.data is None:
        raise InputError([Problem(str(path), 1, 1, "the file is empty — a ruleset needs "
                                  "id, kind, title and rules")])
    if is_house_file(source.data):  # named as what it is, with the right flag
        raise InputError([Problem(str(path), 1, 1, "this is a house-rules file (rules: with "
                                  "one group.key line per rule), not a ruleset or variant: "
                                  "give it with --house FILE")])
    problems = check_source(source)
    if problems:
        raise InputError(problems)
    return source
