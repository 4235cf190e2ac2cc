"""Load YAML keeping where every value stood, so errors can name file:line:col.

The data is built from the same node tree that is kept for locating errors, so the two never
disagree. Duplicate keys, which PyYAML silently overwrites, are reported as problems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from avecaesar.errors import InputError, Problem

__all__ = ["Source", "load_yaml", "load_yaml_text"]

try:  # the C loader is ~8x faster than the pure-Python one
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader


@dataclass
class Source:
    """A loaded YAML document: its data, its node tree and its file name."""

    file: str
    data: Any
    root: yaml.Node | None

    def node_at(self, path: Sequence[str | int]) -> yaml.Node | None:
        """The node at a JSON path (keys and indexes), or the deepest one that exists."""
        node = self.root
        for part in path:
            child = _child(node, part)
            if child is None:
                return node
            node = child
        return node

    def key_node(self, path: Sequence[str | int], key: str) -> yaml.Node | None:
        """The node of the *key* ``key`` in the mapping at ``path`` (to point at a key)."""
        node = self.node_at(path)
        if isinstance(node, yaml.MappingNode):
            for k, _v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == key:
                    return k
        return None

    def where(self, path: Sequence[str | int], key: str | None = None) -> tuple[int, int]:
        """1-based (line, column) of the value at ``path`` (or of its key ``key``)."""
        node = self.key_node(path, key) if key is not None else None
        if node is None:
            node = self.node_at(path)
        if node is None:
            return (1, 1)
        return (node.start_mark.line + 1, node.start_mark.column + 1)

    def problem(self, path: Sequence[str | int], message: str,
                key: str | None = None) -> Problem:
        line, col = self.where(path, key)
        return Problem(self.file, line, col, message)

    def scalar_text(self, path: Sequence[str | int]) -> str | None:
        """The text as written of the scalar at ``path`` (``no``, ``1989``), if it is one."""
        node = self.node_at(path)
        if isinstance(node, yaml.ScalarNode) and len(path) >= 0:
            return node.value
        return None


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and (k.value == part or k.value == str(part)):
                return v
    elif (isinstance(node, yaml.SequenceNode) and isinstance(part, int)
          and 0 <= part < len(node.value)):
        return node.value[part]
    return None


def _duplicate_keys(node: yaml.Node | None, file: str, out: list[Problem]) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                if k.value in seen:
                    out.append(Problem(
                        file, k.start_mark.line + 1, k.start_mark.column + 1,
                        f"duplicate key {k.value!r} (first at line {seen[k.value]}) — "
                        "keep one of them"))
                else:
                    seen[k.value] = k.start_mark.line + 1
            _duplicate_keys(v, file, out)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _duplicate_keys(item, file, out)


def load_yaml_text(text: str, file: str) -> Source:
    """Parse YAML text; raise :class:`InputError` with every problem found."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = err.problem or str(err)
        raise InputError([Problem(file, line, col,
                                  f"YAML syntax: {what} — fix the indentation or quoting "
                                  "here")]) from err
    except yaml.YAMLError as err:
        raise InputError([Problem(file, 1, 1, f"YAML: {err}")]) from err
    problems: list[Problem] = []
    _duplicate_keys(root, file, problems)
    if problems:
        raise InputError(problems)
    if root is None:
        return Source(file, None, None)
    try:
        loader = _Loader(text)
        try:
            data = loader.construct_document(root)
        finally:
            loader.dispose()
    except yaml.YAMLError as err:  # e.g. an invalid timestamp
        mark = getattr(err, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise InputError([Problem(file, line, col, f"YAML value: {err}")]) from err
    return Source(file, data, root)


def load_yaml(path: str | Path) -> Source:
    """Read and parse a YAML file; a missing or unreadable file is an :class:`InputError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise InputError([Problem(str(path), 1, 1,
                                  "no such file — check the path")]) from err
    except (OSError, UnicodeDecodeError) as err:
        raise InputError([Problem(str(path), 1, 1, f"cannot read the file: {err}")]) from err
    return load_yaml_text(text, str(path))
