"""The server's two folders: uploaded courses (data) and game records (saves).

The server reads no other path: a course is a bundled id or an upload named by its content
hash; a record is a file name inside the saves folder. Uploads are size-limited.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.paths import COURSES_DIR

__all__ = ["MAX_COURSE_BYTES", "MAX_RECORD_BYTES", "BadRequest", "Storage"]

MAX_COURSE_BYTES = 256 * 1024
MAX_RECORD_BYTES = 4 * 1024 * 1024
UPLOAD_PREFIX = "upload:"
_SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.jsonl$")
_UPLOAD_NAME = re.compile(r"^[0-9a-f]{16}$")


class BadRequest(AveCaesarError):
    """A request the server refuses: answered with a 4xx and this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        self.status = status
        super().__init__(message)


class Storage:
    """``root/uploads`` (courses, with a copy of the bundled board pieces beside them so
    their includes resolve) and ``root/saves`` (game records)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.uploads = self.root / "uploads"
        self.saves = self.root / "saves"
        (self.uploads / "courses").mkdir(parents=True, exist_ok=True)
        self.saves.mkdir(parents=True, exist_ok=True)
        pieces = COURSES_DIR / "pieces"
        if pieces.is_dir():
            shutil.copytree(pieces, self.uploads / "pieces", dirs_exist_ok=True)

    # courses -------------------------------------------------------------------------
    def store_course(self, text: str) -> str:
        """Keep an uploaded or pasted course; its reference is ``upload:<hash>``."""
        data = text.encode("utf-8")
        if len(data) > MAX_COURSE_BYTES:
            raise BadRequest(f"the course file is {len(data)} bytes; at most "
                             f"{MAX_COURSE_BYTES} are accepted", 413)
        name = hashlib.sha256(data).hexdigest()[:16]
        path = self.uploads / "courses" / f"{name}.yaml"
        if not path.exists():
            path.write_bytes(data)
        return UPLOAD_PREFIX + name

    def course_path(self, ref: str) -> str:
        """What the engine's ``load_course`` is given for ``ref``: a bundled id as it is, an
        upload as its file inside the data folder; anything else is refused."""
        if ref.startswith(UPLOAD_PREFIX):
            name = ref[len(UPLOAD_PREFIX):]
            path = self.uploads / "courses" / f"{name}.yaml"
            if not _UPLOAD_NAME.match(name) or not path.is_file():
                raise BadRequest(f"no uploaded course {ref!r}", 404)
            return str(path)
        base = ref.lower().removesuffix("-ccw")
        if base not in bundled_courses():
            raise BadRequest(f"unknown course {ref!r}: give a bundled course id or upload a "
                             "course file", 404)
        return ref

    def course_ref(self, engine_ref: str) -> str:
        """The inverse of :meth:`course_path` (for a record's header)."""
        p = Path(engine_ref)
        if p.suffix == ".yaml" and p.parent == self.uploads / "courses":
            return UPLOAD_PREFIX + p.stem
        return engine_ref

    @staticmethod
    def rule_name(name: str) -> str:
        """A ruleset or variant by its bundled id or alias only (the CLI also reads files;
        the server reads none)."""
        if "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
            raise BadRequest(f"{name!r}: give a bundled ruleset or variant name")
        return name

    def checked_header(self, head: dict[str, Any]) -> str:
        """A record's header as the server may load it: bundled rule names, and a course
        that is bundled or uploaded here. Returns the course for the engine."""
        for name in [str(head.get("ruleset", "")), *map(str, head.get("variants", []))]:
            self.rule_name(name)
        return self.course_path(self.course_ref(str(head.get("course", ""))))

    # records -------------------------------------------------------------------------
    def new_save(self, stem: str) -> Path:
        safe = re.sub(r"[^A-Za-z0-9-]+", "-", stem).strip("-")[:40] or "race"
        name = f"{time.strftime('%Y%m%d-%H%M%S')}-{safe}-{secrets.token_hex(3)}.jsonl"
        return self.saves / name

    def save_path(self, name: str) -> Path:
        if not _SAVE_NAME.match(name) or ".." in name:
            raise BadRequest(f"not a record name: {name!r}")
        path = self.saves / name
        if not path.is_file():
            raise BadRequest(f"no saved record {name!r}", 404)
        return path

    def store_record(self, text: str) -> Path:
        data = text.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise BadRequest(f"the record is {len(data)} bytes; at most {MAX_RECORD_BYTES} "
                             "are accepted", 413)
        path = self.saves / f"upload-{hashlib.sha256(data).hexdigest()[:12]}.jsonl"
        path.write_bytes(data)
        return path

    def list_saves(self) -> list[Path]:
        return sorted(self.saves.glob("*.jsonl"), key=lambda p: p.stat().st_mtime,
                      reverse=True)
