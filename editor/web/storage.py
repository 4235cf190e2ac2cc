"""The server's folders: uploads (courses, house-rules and variant files), game records
(saves) and the tables' private files (tables, see tables.py).

The server reads no other path: a course is a bundled id or an upload named by its content
hash; a record is a file name inside the saves folder. Uploads are size-limited and do not
pile up: at most :data:`MAX_UPLOADS` of each kind are kept (the least recently used one that
no saved record names goes first), and the studio's checks of a text as it is typed are
read from a scratch file that is deleted at once (:meth:`Storage.scratch_course`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.paths import COURSES_DIR
from avecaesar.engine.data.safeio import mtime, read_head, write_atomic

__all__ = ["MAX_COURSE_BYTES", "MAX_RECORD_BYTES", "MAX_RULES_BYTES", "MAX_UPLOADS",
           "BadRequest", "Storage"]

MAX_COURSE_BYTES = 256 * 1024
MAX_RULES_BYTES = 64 * 1024
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: uploads of one kind (courses, rules files, records) kept at most
MAX_UPLOADS = 200
UPLOAD_PREFIX = "upload:"
RULES_PREFIXES = ("house:", "variant:")
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
        self.root = Path(os.path.realpath(root))
        self.uploads = self.root / "uploads"
        self.saves = self.root / "saves"
        (self.uploads / "courses").mkdir(parents=True, exist_ok=True)
        (self.uploads / "rules").mkdir(parents=True, exist_ok=True)
        (self.uploads / "scratch").mkdir(parents=True, exist_ok=True)
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
        self._keep(self.uploads / "courses", f"{name}.yaml", data)
        return UPLOAD_PREFIX + name

    @staticmethod
    def upload_ref(text: str) -> str:
        """The reference :meth:`store_course` gives ``text`` (nothing is stored)."""
        return UPLOAD_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @contextlib.contextmanager
    def scratch_course(self, text: str) -> Iterator[str]:
        """A course text as a file the engine can read (its includes resolve as an
        upload's do), deleted when the block ends: a check as you type stores nothing."""
        data = text.encode("utf-8")
        if len(data) > MAX_COURSE_BYTES:
            raise BadRequest(f"the course file is {len(data)} bytes; at most "
                             f"{MAX_COURSE_BYTES} are accepted", 413)
        # beside the uploads, so ../pieces/... includes resolve the same way
        path = self.uploads / "courses" / f".scratch-{secrets.token_hex(8)}.yaml"
        try:
            write_atomic(path, data)  # a disk full leaves no half of it behind
            yield str(path)
        finally:
            path.unlink(missing_ok=True)

    def _keep(self, folder: Path, name: str, data: bytes) -> Path:
        """Store an upload (touched when it is there already), then drop the least
        recently used ones beyond :data:`MAX_UPLOADS` that no saved record names."""
        path = folder / name
        if path.exists():
            path.touch()
            return path
        write_atomic(path, data)  # whole or not at all: its name is its content's hash
        files = sorted((p for p in folder.iterdir() if not p.name.startswith(".")),
                       key=mtime)
        if len(files) > MAX_UPLOADS:
            named = self._named_by_records()
            for old in files[:len(files) - MAX_UPLOADS]:
                if old != path and old.stem not in named:
                    old.unlink(missing_ok=True)
        return path

    def _named_by_records(self) -> set[str]:
        """The upload hashes the saved records' headers name (read first lines only)."""
        found: set[str] = set()
        for rec in self.saves.glob("*.jsonl"):
            data = read_head(rec, 1_000_000)  # never blocks on a FIFO, never a traceback
            if data is None:
                continue
            head = data.split(b"\n", 1)[0].decode("utf-8", "replace")
            found.update(re.findall(r"([0-9a-f]{16})\.yaml", head))
        return found

    # house-rules and variant files -----------------------------------------------------
    def store_rules_file(self, text: str, kind: str) -> tuple[str, dict[str, dict[str, Any]]]:
        """Keep an uploaded house-rules file (``kind`` house) or variant file (variant),
        read as the CLI reads ``--house`` / ``--variant`` files; its reference and its
        rules as house rules (dotted key → rule), which is how the record keeps them."""
        data = text.encode("utf-8")
        if len(data) > MAX_RULES_BYTES:
            raise BadRequest(f"the file is {len(data)} bytes; at most {MAX_RULES_BYTES} "
                             "are accepted", 413)
        if kind not in ("house", "variant"):
            raise BadRequest("kind: house or variant")
        name = hashlib.sha256(data).hexdigest()[:16]
        path = self._keep(self.uploads / "rules", f"{kind}-{name}.yaml", data)
        return f"{kind}:{name}", self._read_rules(path, kind)

    def rules_file(self, ref: str) -> dict[str, dict[str, Any]]:
        """The house rules of an uploaded house-rules or variant file."""
        kind, _, name = ref.partition(":")
        path = self.uploads / "rules" / f"{kind}-{name}.yaml"
        if kind not in ("house", "variant") or not _UPLOAD_NAME.match(name) \
                or not path.is_file():
            raise BadRequest(f"no uploaded rules file {ref!r}", 404)
        return self._read_rules(path, kind)

    @staticmethod
    def _read_rules(path: Path, kind: str) -> dict[str, dict[str, Any]]:
        from avecaesar.engine.ruleset.house import load_house

        if kind == "house":
            return load_house(path)
        from avecaesar.engine.ruleset.catalog import load_checked

        doc = load_checked(path).data  # the schema of a ruleset file, problems located
        if doc.get("kind") != "variant":
            raise BadRequest(f"{path.name}: not a variant file (kind: variant)")
        if doc.get("remove"):
            raise BadRequest("a variant file that removes rules cannot be uploaded: write "
                             "the values it changes instead")
        title = str(doc.get("title") or doc.get("id"))
        out: dict[str, dict[str, Any]] = {}
        for group, keys in (doc.get("rules") or {}).items():
            for key, rule in keys.items():
                entry = dict(rule)
                entry.setdefault("source", f"house rule: variant file {title}")
                out[f"{group}.{key}"] = entry
        return out

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
        name = f"upload-{hashlib.sha256(data).hexdigest()[:12]}.jsonl"
        old = sorted(self.saves.glob("upload-*.jsonl"), key=mtime)
        for gone in old[:max(len(old) + 1 - MAX_UPLOADS, 0)]:
            if gone.name != name:
                gone.unlink(missing_ok=True)
        path = self.saves / name
        write_atomic(path, data)
        return path

    def list_saves(self) -> list[Path]:
        return sorted(self.saves.glob("*.jsonl"), key=mtime, reverse=True)
