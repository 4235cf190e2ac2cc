"""``avecaesar replay FILE --html OUT.html``: the replay viewer as one self-contained file —
the board SVG, the frames, the script and the style inlined; no server, no external URL."""

from __future__ import annotations

import json
import re
from pathlib import Path

from avecaesar.editor.render.board_svg import board_svg
from avecaesar.editor.render.lang import catalog, current
from avecaesar.editor.render.replay_frames import record_frames
from avecaesar.engine.data.safeio import write_atomic

__all__ = ["replay_html", "write_replay_html"]

# the replay page's script and style, the same files `avecaesar serve` serves
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def _script_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def replay_html(record: Path) -> str:
    """The viewer page for ``record`` with everything it needs inside."""
    from avecaesar.engine.core.record import read_record
    from avecaesar.engine.course.load import load_course

    data = record_frames(record)
    svg = board_svg(load_course(str(read_record(record)[0]["course"])).graph)
    page = (STATIC / "replay.html").read_text(encoding="utf-8")
    body = page.split("<!--VIEWER-->")[1].split("<!--/VIEWER-->")[0]
    scripts = "\n".join((STATIC / f).read_text(encoding="utf-8").replace("</", "<\\/")
                        for f in ("board.js", "play_text.js", "replay.js"))
    words = {"languages": catalog()["languages"], "lang": current(), "page": catalog()["page"]}
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    title = re.sub(r"[<>&]", "", f"{data['course']} — replay of {record.name}")
    return (f"<!doctype html>\n<html lang=\"{current()}\"><head><meta charset=\"utf-8\">"
            f"<title>Ave Caesar — {title}</title>\n<style>\n{style}</style></head>\n<body>\n"
            f"<header><h1>Ave Caesar</h1><span>{title}</span></header>\n<main>{body}</main>\n"
            f"<script>window.REPLAY_DATA = {_script_json(data)};\n"
            f"window.PAGE_TEXT = {_script_json(words)};\n"
            f"window.REPLAY_SVG = {_script_json(svg)};</script>\n"
            f"<script>\n{scripts}\n</script>\n</body></html>\n")


def write_replay_html(record: Path, out: Path) -> None:
    """Write the page atomically (a temporary file first, renamed into place)."""
    write_atomic(out, replay_html(record))
