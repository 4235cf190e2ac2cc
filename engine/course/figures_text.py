"""A course file's declared figures rewritten in its text (``course validate
--update-figures``, the studio's "update figures"), nothing else touched.

Only the characters of the figure values change: each value is replaced at the exact span
the YAML parser reports for it (PyYAML's node marks), so comments, key order, quoting, flow
or block style and every other byte of the file stay as they were. (A round-trip library
such as ruamel.yaml re-emits the whole document, which re-indents and re-wraps lines; span
replacement needs no new dependency and cannot touch what it does not replace.) A file that
declares no ``figures:`` block gets one appended at its end.
"""

from __future__ import annotations

import yaml

from avecaesar.engine.data.values import JsonDict

__all__ = ["FIGURE_KEYS", "rewrite_figures", "rewrite_value"]

FIGURE_KEYS = ("lap", "alley_extra", "shortest_race", "outside_race")


def _scalar(value: object) -> str:
    return "null" if value is None else str(value)


def _child(node: yaml.Node | None, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
    return None


def _format(node: yaml.Node, value: object) -> str:
    """``value`` written in the style of the node it replaces."""
    if not isinstance(value, list):
        return _scalar(value)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        indent = " " * node.start_mark.column
        return ("\n" + indent).join(f"- {_scalar(v)}" for v in value)
    return "[" + ", ".join(_scalar(v) for v in value) + "]"


def _loaded(node: yaml.Node) -> object:
    return yaml.safe_load(yaml.serialize(node))


def rewrite_figures(text: str, figures: dict[tuple[str, ...], JsonDict]) -> str:
    """``text`` with the figures declared under each block path (``("figures",)``,
    ``("anticlockwise", "figures")``) set to the given values; figures that already hold,
    and keys a block does not declare, are left alone."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    spans: list[tuple[int, int, str]] = []
    appended = ""
    for block_path, values in figures.items():
        node: yaml.Node | None = root
        for part in block_path:
            found = _child(node, part)
            node = found[1] if found else None
        if node is None:
            if block_path == ("figures",):
                appended = _block(values)
            continue
        if not isinstance(node, yaml.MappingNode):
            continue
        for key, value in values.items():
            found = _child(node, key)
            if found is None or _loaded(found[1]) == value:
                continue
            _k, v = found
            start, end = v.start_mark.index, v.end_mark.index
            old = text[start:end]
            tail = old[len(old.rstrip()):]  # a block node's span can end after a newline
            spans.append((start, end, _format(v, value) + tail))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    if appended:
        text = text + ("" if text.endswith("\n") else "\n") + appended
    return text


def rewrite_value(text: str, path: tuple[str | int, ...], value: object) -> str:
    """``text`` with the value at the YAML ``path`` (mapping keys and sequence indices)
    replaced by ``value``, written in the style of the node it replaces; every other byte
    stays. A path the text does not have is a ``KeyError``."""
    node: yaml.Node | None = yaml.compose(text, Loader=yaml.SafeLoader)
    for part in path:
        if isinstance(part, int) and isinstance(node, yaml.SequenceNode) \
                and 0 <= part < len(node.value):
            node = node.value[part]
            continue
        found = _child(node, str(part))
        if found is None:
            raise KeyError(f"no {'/'.join(map(str, path))} in the file")
        node = found[1]
    assert node is not None
    start, end = node.start_mark.index, node.end_mark.index
    old = text[start:end]
    tail = old[len(old.rstrip()):]
    return text[:start] + _format(node, value) + tail + text[end:]


def _block(values: JsonDict) -> str:
    lines = ["figures:"]
    for key in FIGURE_KEYS:
        if key in values:
            v = values[key]
            lines.append(f"  {key}: " + ("[" + ", ".join(map(_scalar, v)) + "]"
                                         if isinstance(v, list) else _scalar(v)))
    return "\n".join(lines) + "\n"
