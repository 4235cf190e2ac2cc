"""Every bundled YAML file names its schema on its first line for editors
(``# yaml-language-server: $schema=PATH``): a relative path that resolves from the file, in
the repository as in the installed package (the same layout; tests/packaging checks the
wheel), to the schema that validates it. ``course new`` and the house-rules file that
``play`` offers to save write the same, relative to where they are written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from avecaesar.engine.data.paths import SCHEMAS_DIR, schema_modeline
from avecaesar.engine.ruleset.house import house_file_text, is_house_file

ROOT = Path(__file__).resolve().parents[2]
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
FILES = sorted([*ROOT.glob("courses/**/*.yaml"), *ROOT.glob("rulesets/**/*.yaml"),
                *ROOT.glob("docs/examples/*.yaml")])


def _schema_for(path: Path, data: object) -> str:
    if "rulesets" in path.parts:
        return "ruleset.schema.json"
    if "briefs" in path.parts:
        return "brief.schema.json"
    if is_house_file(data):
        return "house.schema.json"
    return "course-pieces.schema.json" if "pieces" in path.parts else "course.schema.json"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_first_line_names_the_schema_that_validates_the_file(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    m = MODELINE.match(text.splitlines()[0])
    assert m, f"{path}: no modeline on the first line"
    ref = m[1]
    assert not ref.startswith(("/", "file:")), ref  # relative: it moves with the files
    data = yaml.safe_load(text)
    schema_file = (path.parent / ref).resolve()
    assert schema_file == (SCHEMAS_DIR / _schema_for(path, data)).resolve()
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    if schema_file.name in ("ruleset.schema.json", "house.schema.json", "brief.schema.json"):
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
        assert errors == []


def test_written_files_name_the_schema_relative_to_where_they_are(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "ours.yaml"
    target.parent.mkdir()
    line = schema_modeline(target, "house.schema.json")
    ref = MODELINE.match(line)
    assert ref and not ref[1].startswith(("/", "file:"))
    assert (target.parent / ref[1]).resolve() == (SCHEMAS_DIR / "house.schema.json").resolve()
    text = house_file_text({"ramming.tie": "no_effect"}, "ours", target)
    assert text.splitlines()[0] == line


def test_course_new_writes_a_relative_modeline(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from avecaesar.editor.main import app

    for args in (["course", "new", str(tmp_path / "via.yaml")],
                 ["course", "new", "--from", "dicetree-2022/arena-carthago",
                  str(tmp_path / "arena.yaml")]):
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
        written = Path(args[-1])
        m = MODELINE.match(written.read_text(encoding="utf-8").splitlines()[0])
        assert m and not m[1].startswith(("/", "file:")), m
        assert (written.parent / m[1]).resolve() == (SCHEMAS_DIR / "course.schema.json").resolve()
