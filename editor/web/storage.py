"""The server's uploads and folders: courses, house-rules and variant files and records
uploaded (kept in the database, store.py, by their content hash), the files the engine reads
them from (``uploads/``, written from the database when needed), and ``saves/``, where a
record put there by hand (from the terminal's ``play``) can be opened and continued.

The server reads no other path: a course is a bundled id or an upload named by its content
hash; a record is a race in the database, an uploaded record, or a file name inside the
saves folder. Uploads are size-limited and do not pile up (the database's retention keeps
at most a number of each kind, never a course a kept race is played on); the studio's
checks of a text as it is typed are read from a scratch file that is deleted at once
(:meth:`Storage.scratch_course`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from avecaesar.editor.table.messages import say
from avecaesar.engine.course.load import bundled_courses
from avecaesar.engine.data.errors import AveCaesarError
from avecaesar.engine.data.paths import COURSES_DIR
from avecaesar.engine.data.safeio import mtime, write_atomic

if TYPE_CHECKING:
    from avecaesar.editor.web.store import Store

__all__ = ["MAX_COURSE_BYTES", "MAX_RECORD_BYTES", "MAX_RULES_BYTES", "BadRequest",
           "Storage"]

MAX_COURSE_BYTES = 256 * 1024
MAX_RULES_BYTES = 64 * 1024
MAX_RECORD_BYTES = 4 * 1024 * 1024
UPLOAD_PREFIX = "upload:"
RULES_PREFIXES = ("house:", "variant:")
_SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.jsonl$")
_UPLOAD_NAME = re.compile(r"^[0-9a-f]{16}$")
_UPLOADED_COURSE = re.compile(r"(?:^|/)uploads/courses/([0-9a-f]{16})\.yaml$")
_RECORD_UPLOAD = re.compile(r"^upload-[0-9a-f]{12}\.jsonl$")


class BadRequest(AveCaesarError):
    """A request the server refuses: answered with a 4xx and this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        self.status = status
        super().__init__(message)


class Storage:
    """``root/uploads`` (the files of the uploads the engine reads, with a copy of the
    bundled board pieces beside them so their includes resolve) and ``root/saves`` (records
    put there by hand); the uploads themselves are kept in ``store``."""

    def __init__(self, root: Path, store: Store) -> None:
        self.root = Path(os.path.realpath(root))
        self.store = store
        self.uploads = self.root / "uploads"
        self.saves = self.root / "saves"
        (self.uploads / "courses").mkdir(parents=True, exist_ok=True)
        (self.uploads / "rules").mkdir(parents=True, exist_ok=True)
        self.saves.mkdir(parents=True, exist_ok=True)
        pieces = COURSES_DIR / "pieces"
        if pieces.is_dir():
            shutil.copytree(pieces, self.uploads / "pieces", dirs_exist_ok=True)

    def _materialize(self, path: Path, kind: str, name: str) -> Path | None:
        """The file of upload ``kind``/``name``, written from the database when it is not
        on this machine's disk yet (another server process stored it)."""
        if path.is_file():
            return path
        body = self.store.upload(kind, name)
        if body is None:
            return None
        write_atomic(path, body)
        return path

    # courses -------------------------------------------------------------------------
    def store_course(self, text: str, client: str = "",
                     check: Callable[[str], Any] | None = None) -> str:
        """Keep an uploaded or pasted course; its reference is ``upload:<hash>``.
        ``check`` is given the file first (the CLI's reading): a course it refuses is not
        kept."""
        data = text.encode("utf-8")
        if len(data) > MAX_COURSE_BYTES:
            raise BadRequest(say("api_course_bytes", size=len(data), most=MAX_COURSE_BYTES),
                             413)
        name = hashlib.sha256(data).hexdigest()[:16]
        path = self.uploads / "courses" / f"{name}.yaml"
        known = self.store.upload("course", name) is not None
        if not path.is_file():
            write_atomic(path, data)
        if check is not None and not known:
            try:
                check(str(path))
            except BaseException:
                path.unlink(missing_ok=True)
                raise
        self.store.put_upload("course", name, text, client)
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
            raise BadRequest(say("api_course_bytes", size=len(data), most=MAX_COURSE_BYTES),
                             413)
        # beside the uploads, so ../pieces/... includes resolve the same way
        path = self.uploads / "courses" / f".scratch-{secrets.token_hex(8)}.yaml"
        try:
            write_atomic(path, data)  # a disk full leaves no half of it behind
            yield str(path)
        finally:
            path.unlink(missing_ok=True)

    # house-rules and variant files -----------------------------------------------------
    def store_rules_file(self, text: str, kind: str, client: str = ""
                         ) -> tuple[str, dict[str, dict[str, Any]]]:
        """Keep an uploaded house-rules file (``kind`` house) or variant file (variant),
        read as the CLI reads ``--house`` / ``--variant`` files; its reference and its
        rules as house rules (dotted key → rule), which is how the record keeps them."""
        data = text.encode("utf-8")
        if len(data) > MAX_RULES_BYTES:
            raise BadRequest(say("api_file_bytes", size=len(data), most=MAX_RULES_BYTES), 413)
        if kind not in ("house", "variant"):
            raise BadRequest(say("api_rules_kind"))
        name = hashlib.sha256(data).hexdigest()[:16]
        path = self.uploads / "rules" / f"{kind}-{name}.yaml"
        write_atomic(path, text)  # read first: a file with mistakes is not kept
        try:
            rules = self._read_rules(path, kind)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        self.store.put_upload(kind, name, text, client)
        return f"{kind}:{name}", rules

    def rules_file(self, ref: str) -> dict[str, dict[str, Any]]:
        """The house rules of an uploaded house-rules or variant file."""
        kind, _, name = ref.partition(":")
        if kind not in ("house", "variant") or not _UPLOAD_NAME.match(name):
            raise BadRequest(say("api_no_rules_file", ref=ref), 404)
        path = self._materialize(self.uploads / "rules" / f"{kind}-{name}.yaml", kind, name)
        if path is None or self.store.upload(kind, name) is None:
            raise BadRequest(say("api_no_rules_file", ref=ref), 404)
        return self._read_rules(path, kind)

    @staticmethod
    def _read_rules(path: Path, kind: str) -> dict[str, dict[str, Any]]:
        from avecaesar.engine.ruleset.house import load_house

        if kind == "house":
            return load_house(path)
        from avecaesar.engine.ruleset.catalog import load_checked

        doc = load_checked(path).data  # the schema of a ruleset file, problems located
        if doc.get("kind") != "variant":
            raise BadRequest(say("api_not_variant", file=path.name))
        if doc.get("remove"):
            raise BadRequest(say("api_variant_removes"))
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
            path = None
            if _UPLOAD_NAME.match(name):
                path = self._materialize(self.uploads / "courses" / f"{name}.yaml",
                                         "course", name)
            if path is None:
                raise BadRequest(say("api_no_upload", ref=ref), 404)
            return str(path)
        base = ref.lower().removesuffix("-ccw")
        if base not in bundled_courses():
            raise BadRequest(say("api_unknown_course", ref=ref), 404)
        return ref

    @staticmethod
    def course_ref(engine_ref: str) -> str:
        """The inverse of :meth:`course_path` (for a record's header): an upload's file,
        in this server's data folder or another's, is ``upload:<hash>``."""
        m = _UPLOADED_COURSE.search(engine_ref.replace("\\", "/"))
        return UPLOAD_PREFIX + m.group(1) if m else engine_ref

    @staticmethod
    def rule_name(name: str) -> str:
        """A ruleset or variant by its bundled id or alias only (the CLI also reads files;
        the server reads none)."""
        if "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
            raise BadRequest(say("api_rules_name", name=name))
        return name

    def checked_header(self, head: dict[str, Any]) -> str:
        """A record's header as the server may load it: bundled rule names, and a course
        that is bundled or uploaded here. Returns the course for the engine."""
        for name in [str(head.get("ruleset", "")), *map(str, head.get("variants", []))]:
            self.rule_name(name)
        return self.course_path(self.course_ref(str(head.get("course", ""))))

    # records -------------------------------------------------------------------------
    @staticmethod
    def new_race_name(stem: str) -> str:
        """A new race's record name (``20240521-201500-Anna-3fa9c1.jsonl``)."""
        safe = re.sub(r"[^A-Za-z0-9-]+", "-", stem).strip("-")[:40] or "race"
        return f"{time.strftime('%Y%m%d-%H%M%S')}-{safe}-{secrets.token_hex(3)}.jsonl"

    @staticmethod
    def check_name(name: str) -> str:
        if not _SAVE_NAME.match(name) or ".." in name:
            raise BadRequest(say("api_record_name", name=name))
        return name

    def saved_file(self, name: str) -> Path | None:
        """A record put into the saves folder by hand (None: there is none)."""
        path = self.saves / self.check_name(name)
        return path if path.is_file() else None

    def store_record(self, text: str, client: str = "") -> str:
        """Keep an uploaded record; its name (``upload-<hash>.jsonl``)."""
        data = text.encode("utf-8")
        if len(data) > MAX_RECORD_BYTES:
            raise BadRequest(say("api_record_bytes", size=len(data), most=MAX_RECORD_BYTES),
                             413)
        name = f"upload-{hashlib.sha256(data).hexdigest()[:12]}.jsonl"
        self.store.put_upload("record", name, text, client)
        return name

    def uploaded_record(self, name: str) -> str | None:
        """The text of an uploaded record (None: no such upload)."""
        if not _RECORD_UPLOAD.match(name):
            return None
        return self.store.upload("record", name)

    def list_saves(self) -> list[Path]:
        """The records put into the saves folder, newest first."""
        return sorted((p for p in self.saves.glob("*.jsonl") if _SAVE_NAME.match(p.name)),
                      key=mtime, reverse=True)

    def prune(self) -> int:
        """Delete the upload files whose upload the database no longer keeps."""
        gone = 0
        kept = {"course": set(self.store.upload_names("course")),
                "house": set(self.store.upload_names("house")),
                "variant": set(self.store.upload_names("variant"))}
        for path in (self.uploads / "courses").glob("*.yaml"):
            if _UPLOAD_NAME.match(path.stem) and path.stem not in kept["course"]:
                path.unlink(missing_ok=True)
                gone += 1
        for path in (self.uploads / "rules").glob("*.yaml"):
            kind, _, name = path.stem.partition("-")
            if kind in ("house", "variant") and name not in kept[kind]:
                path.unlink(missing_ok=True)
                gone += 1
        return gone
