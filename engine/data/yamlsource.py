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

from avecaesar.engine.data.errors import InputError, Problem
from avecaesar.engine.data.limits import MAX_DATA_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES
from avecaesar.engine.data.safeio import read_text

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
        """The text as written of the scalar at ``path`` (``no``, ``0x1F``), if it is one."""
        node = self.node_at(path)
        if isinstance(node, yaml.ScalarNode):
            return str(node.value)
        return None


def _child(node: yaml.Node | None, part: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and (k.value == part or k.value == str(part)):
                found: yaml.Node = v
                return found
    elif (isinstance(node, yaml.SequenceNode) and isinstance(part, int)
          and 0 <= part < len(node.value)):
        item: yaml.Node = node.value[part]
        return item
    return None


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_size(root: yaml.Node, file: str) -> None:
    """Refuse an alias bomb or a too deeply nested document before anything walks it.

    An alias makes PyYAML reuse a node, so the tree is a DAG: its size with every alias
    expanded is computed once per node (no re-visits), and a "billion laughs" file of 1 KB
    is refused in microseconds."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        key = id(node)
        if key in size:
            continue
        kids = _children(node)
        if not ready:
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in size)
            continue
        size[key] = 1 + sum(size[id(k)] for k in kids)
        depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
        if size[key] > MAX_YAML_NODES or depth[key] > MAX_YAML_DEPTH:
            mark = node.start_mark
            what = (f"is nested {depth[key]} levels deep (the limit is {MAX_YAML_DEPTH})"
                    if depth[key] > MAX_YAML_DEPTH else
                    f"expands to over {MAX_YAML_NODES:,} values through its aliases (*name)")
            raise InputError([Problem(file, mark.line + 1, mark.column + 1,
                                      f"this YAML {what} — write the values out, nest "
                                      "less, or use fewer aliases")])


def _duplicate_keys(root: yaml.Node | None, file: str, out: list[Problem]) -> None:
    visited: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in visited:  # an aliased node is checked once
            continue
        visited.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, _v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    if k.value in seen:
                        out.append(Problem(
                            file, k.start_mark.line + 1, k.start_mark.column + 1,
                            f"duplicate key {_clip(k.value)!r} (first at line "
                            f"{seen[k.value]}) — keep one of them"))
                    else:
                        seen[k.value] = k.start_mark.line + 1
        stack.extend(_children(node))


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


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
        raise InputError([Problem(file, 1, 1, f"YAML: {_clip(str(err).splitlines()[0], 80)}"
                                  " — is this a YAML file?")]) from err
    if root is not None:
        _check_size(root, file)
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
    except (yaml.YAMLError, ValueError, OverflowError) as err:  # e.g. a bad timestamp
        mark = getattr(err, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = getattr(err, "problem", None) or _clip(str(err).splitlines()[0], 80)
        raise InputError([Problem(file, line, col, f"YAML value: {what} — write a plain "
                                  "number, text, list or mapping here")]) from err
    return Source(file, data, root)


def load_yaml(path: str | Path, limit: int = MAX_DATA_BYTES) -> Source:
    """Read and parse a YAML file of at most ``limit`` bytes; a missing, unreadable, too large
    or not regular file is a :class:`~avecaesar.engine.data.errors.FileAccessError`."""
    text = read_text(path, limit, "YAML file")
    return load_yaml_text(text, str(path))
