"""The board is readable: no two spaces' boxes overlap in the drawing of any bundled course,
except where a bridge crosses the track beneath — and there both stay visible: the bridge is
translucent and every number lies in its own space, clear of the bridge (issue 22)."""

from __future__ import annotations

import itertools
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from avecaesar.editor.render.board import course_dot, render
from avecaesar.editor.render.board_bridges import overlaps, space_boxes
from avecaesar.engine.course.load import bundled_course_ids, load_course

pytestmark = pytest.mark.skipif(shutil.which("neato") is None,
                                reason="Graphviz (neato) is not installed")
SVG = "{http://www.w3.org/2000/svg}"


def _numbers(svg: str) -> dict[int, tuple[float, float, str]]:
    """Each space's number as drawn: (x, y of the text's middle, text)."""
    out: dict[int, tuple[float, float, str]] = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        m = re.fullmatch(r"(space|number)-(\d+)", g.get("id", ""))
        texts = g.findall(f".//{SVG}text")
        if m is None or not texts:
            continue
        size = float(texts[-1].get("font-size", "10"))
        x = sum(float(t.get("x", 0)) for t in texts) / len(texts)
        y = sum(float(t.get("y", 0)) for t in texts) / len(texts) - size * 0.35
        out[int(m[2])] = (x, y, "".join(t.text or "" for t in texts))
    return out


def _inside(p: tuple[float, float], box: list[tuple[float, float]]) -> bool:
    return overlaps([(p[0] - 0.5, p[1] - 0.5), (p[0] + 0.5, p[1] - 0.5),
                     (p[0] + 0.5, p[1] + 0.5), (p[0] - 0.5, p[1] + 0.5)], box, 0.0)


@pytest.mark.parametrize("cid", bundled_course_ids())
def test_no_space_hides_another(cid: str) -> None:
    course = load_course(cid)
    svg = render(course_dot(course.graph, numbers=True), "svg").decode("utf-8")
    boxes = space_boxes(svg)
    assert len(boxes) == course.graph.number_of_nodes()
    bridges = {n for n, (cls, _b) in boxes.items() if "bridge" in cls.split()}
    crossings = 0
    for (a, (ca, ba)), (b, (cb, bb)) in itertools.combinations(boxes.items(), 2):
        if not overlaps(ba, bb):
            continue
        lower = cb if a in bridges else ca
        assert (a in bridges) != (b in bridges) and "underpass" in lower.split(), \
            f"{cid}: spaces {a} and {b} overlap and neither is a bridge over the other"
        crossings += 1
    if crossings:  # the bridge is translucent: the space beneath shows through
        for group in ET.fromstring(svg).iter(f"{SVG}g"):
            if "bridge" in group.get("class", "").split():
                poly = group.find(f".//{SVG}polygon")
                assert poly is not None and float(poly.get("fill-opacity", "1")) < 0.6
    numbers = _numbers(svg)
    assert set(numbers) == set(boxes), f"{cid}: every space shows its number"
    for n, (x, y, text) in numbers.items():
        assert text.endswith(str(n))
        assert _inside((x, y), boxes[n][1]), f"{cid}: the number {n} lies outside its space"
        covered = [b for b in bridges if b != n and _inside((x, y), boxes[b][1])]
        assert not covered, f"{cid}: the number of space {n} lies under bridge space {covered}"


def test_the_alley_is_attached_where_it_is_entered_and_left() -> None:
    course = load_course("homebrew/rome")
    svg = render(course_dot(course.graph), "svg").decode("utf-8")
    enter = [(u, v) for u, v, a in course.graph.edges(data="alley") if a == "enter"]
    leave = [(u, v) for u, v, a in course.graph.edges(data="alley") if a == "exit"]
    assert enter and leave
    classes = [g.get("class", "") for g in ET.fromstring(svg).iter(f"{SVG}g")]
    assert classes.count("edge alley-enter") == len(enter)
    assert classes.count("edge alley-exit") == len(leave)
