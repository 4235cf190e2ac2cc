"""Issue 25: one registry per extension point, and every entry of every registry documented,
reachable from the CLI or the server, and covered by a test.

- bots (engine/bots/registry.py): the contract test plays each under every edition;
- course checks (engine/course/checks.py): each trips on an example in tests/course/invalid/
  and finds no error on any bundled course;
- commands (editor/commands.py): each answers ``--help`` with its summary and an example, and
  its example runs as written (or a test declares it covers the command);
- web pages (editor/web/pages.py): each is served, has a viewport tag, and has a test.
The tables in docs/architecture.md are generated from the registries and must be current.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
from importlib import import_module
from pathlib import Path

import pytest
from typer.testing import CliRunner

from avecaesar.editor.app import app
from avecaesar.editor.commands import COMMANDS, Command
from avecaesar.editor.web.pages import PAGES
from avecaesar.engine.bots.registry import BOTS, POLICIES, Bot, find_bot
from avecaesar.engine.course.checks import CHECKS, Compiled, CourseCheck
from avecaesar.engine.data.errors import UnknownNameError

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("coverage_map", ROOT / "tests" / "coverage_map.py")
assert _spec is not None and _spec.loader is not None
coverage_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coverage_map)
COVERED = coverage_map.covered()
_spec = importlib.util.spec_from_file_location("short_run", ROOT / "tests" / "short_run.py")
assert _spec is not None and _spec.loader is not None
_short = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_short)
short_run = _short.short_run
runner = CliRunner()


def test_the_generated_registry_tables_are_current() -> None:
    from avecaesar.editor.registry_docs import main

    assert main(["--check"]) == 0, "run python -m avecaesar.editor.registry_docs"


def test_names_are_unique_in_every_registry() -> None:
    for names in ([b.name for b in BOTS], [c.name for c in CHECKS], [c.name for c in COMMANDS],
                  [p.name for p in PAGES]):
        assert len(names) == len(set(names)), names


# --- bots -------------------------------------------------------------------------------

RULESETS = ["ravensburger-1989", "pro-ludo-2006", "dicetree-2022",
            "dicetree-2022+team-gladiator"]
# a bot that takes a budget (``--bot-budget``) plays the contract at a test budget: legal
# moves and a replaying seed do not depend on how many rollouts it spends a decision (the
# expert's default, 192, is what bench/bench_expert.py measures)
TEST_BUDGET = 16


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_a_bot_plays_only_legal_moves_and_its_seed_replays(bot: Bot, ruleset: str,
                                                           rules_of, oval) -> None:
    from avecaesar.engine.bots.registry import OWNERLESS
    from avecaesar.engine.core.race import run_race

    rules = rules_of(ruleset)
    chosen: list[tuple[str, object]] = []

    def watched(seed: int):
        policy = bot.make(seed, budget=TEST_BUDGET)

        def play(state, legal):
            move = policy(state, legal)
            assert move in legal, f"{bot.name} chose {move}, not a legal move"
            chosen.append((state.notation(), move))
            return move
        return play

    runs = []
    for _ in range(2):
        chosen.clear()
        policies = [watched(11), find_bot("greedy").make(0), find_bot("greedy").make(0)]
        run = run_race(rules, oval, ["P1", "P2", "P3"], policies, 5, ownerless=OWNERLESS)
        runs.append((list(chosen), run.state.notation(), run.outcome))
    assert runs[0][0], f"{bot.name} was never asked to move"
    assert runs[0] == runs[1], "the same seed must play the same race"


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_a_bot_is_documented_and_offered(bot: Bot) -> None:
    from avecaesar.editor.cli.common import bot_kinds

    assert bot.doc and bot.name in POLICIES
    assert bot_kinds(bot.name) == [bot.name]
    help_text = " ".join(runner.invoke(app, ["race", "--help"]).output.split())
    assert bot.name in help_text
    engine_md = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    assert f"`{bot.name}`" in engine_md, f"docs/engine.md does not describe the {bot.name} bot"


def test_an_unknown_bot_is_a_clear_error() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'greedy'"):
        find_bot("gredy")


# --- course checks ----------------------------------------------------------------------

INVALID = sorted((ROOT / "tests" / "course" / "invalid").glob("*.yaml"))


def _compiled(path: Path) -> list[Compiled]:
    from avecaesar.engine.course.load import load_courses
    from avecaesar.engine.data.errors import AveCaesarError

    try:
        courses = load_courses(path)
    except AveCaesarError:
        return []
    return [Compiled(c.model, c.graph, "") for c in courses if c.graph.number_of_nodes()]


@pytest.fixture(scope="module")
def invalid_examples() -> list[tuple[str, Compiled]]:
    return [(p.name, c) for p in INVALID for c in _compiled(p)]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_a_check_trips_on_an_example_and_never_on_a_bundled_course(
        check: CourseCheck, invalid_examples: list[tuple[str, Compiled]]) -> None:
    from avecaesar.engine.course.load import bundled_courses, load_courses

    assert check.doc
    tripped = [name for name, c in invalid_examples if check.run(c)]
    assert tripped or COVERED.get(f"check:{check.name}"), (
        f"no example in tests/course/invalid/ trips the check {check.name!r}: add one "
        "(with its '# expect:' line) or a test marked covers('check:…')")
    for cid, path in bundled_courses().items():
        for course in load_courses(path, cid):
            errors = [p for p in check.run(Compiled(course.model, course.graph, ""))
                      if p.severity == "error"]
            assert errors == [], (cid, errors)


# --- commands ---------------------------------------------------------------------------

def example_of(command: Command) -> list[str]:
    """The words of the command's ``Example:`` line (its docstring's last paragraph)."""
    module, _, attr = command.target.partition(":")
    doc = getattr(import_module(module), attr).__doc__ or ""
    found = re.search(r"Example: (avecaesar .+?)(?:\n\s*\n|\Z)", doc, re.S)
    assert found, f"avecaesar {command.name}: its docstring has no 'Example: avecaesar …'"
    return shlex.split(" ".join(found.group(1).split()))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_a_command_answers_help_with_an_example_and_is_listed(command: Command) -> None:
    res = runner.invoke(app, [*command.words, "--help"])
    assert res.exit_code == 0, res.output
    words = example_of(command)
    assert words[1:1 + len(command.words)] == list(command.words), words
    assert "Example: avecaesar" in res.output
    assert len(command.summary) <= 60, "a summary longer than 60 characters is cut in lists"
    parent = runner.invoke(app, [*command.words[:-1], "--help"]).output
    assert command.summary in " ".join(parent.split()), parent
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^\| `" + re.escape(command.name) + r"\b", readme, re.M), (
        f"README's commands table has no row for {command.name}")


# interactive or serving: covered by their own tests (marked covers("command:…"))
NOT_RUN = {"play", "serve"}
# files a user would have made before running an example
PREPARED = {"my-variant.yaml": ROOT / "rulesets" / "variants" / "four-hand-cards.yaml",
            "my-brief.yaml": ROOT / "courses" / "briefs" / "short-and-tight.yaml"}
# examples that work on what another example wrote (``replay`` replays ``race``'s record)
AFTER = {"replay": "race"}
RUN = [c for c in COMMANDS if c.name not in NOT_RUN]


@pytest.mark.covers(*(f"command:{c.name}" for c in RUN))
@pytest.mark.parametrize("command", RUN, ids=lambda c: c.name)
def test_every_example_runs_as_written(command: Command, tmp_path: Path, monkeypatch) -> None:
    """Each command's example in a fresh folder, as a user types it (after the example it
    builds on, ``AFTER``): exit 0 and some output. Simulations run CI-sized
    (tests/short_run.py: at most 20 races, 10 screened, one process)."""
    for name, source in PREPARED.items():
        shutil.copy(source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    by_name = {c.name: c for c in COMMANDS}
    for step in [*([by_name[AFTER[command.name]]] if command.name in AFTER else []), command]:
        before = set(tmp_path.iterdir())
        res = runner.invoke(app, short_run(example_of(step)[1:]))
        assert res.exit_code == 0, (step.name, res.output[-2000:])
        assert res.output.strip() or set(tmp_path.iterdir()) - before, step.name


def test_the_commands_not_run_by_their_example_have_tests() -> None:
    for name in NOT_RUN:
        assert COVERED.get(f"command:{name}"), f"no test covers avecaesar {name}"


# --- web pages --------------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_page_is_served_documented_and_covered(page, tmp_path: Path) -> None:
    import anyio
    import httpx

    from avecaesar.editor.web.app import create_app

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(tmp_path))
        # the guard (editor/web/guard.py) admits IP addresses, localhost and this machine
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.get(f"/{page.name}")

    res = anyio.run(fetch)
    assert res.status_code == 200 and 'name="viewport"' in res.text
    web_md = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    assert f"/{page.name}" in web_md, f"docs/web.md does not describe /{page.name}"
    assert COVERED.get(f"page:{page.name}"), f"no test covers the page /{page.name}"


# --- balance report sections -------------------------------------------------------------

@pytest.fixture(scope="module")
def report_pages() -> str:
    """A paired comparison of mixed bots (every section has something to show), as a page."""
    from avecaesar.editor.render.balance_page import balance_page
    from avecaesar.engine.lab.paired import compare_summaries
    from avecaesar.engine.lab.simulate import SimSpec, report, run_many

    a = SimSpec("dicetree-2022", "dicetree-2022/hippodrom-constantinople", 4, 8, seed=3,
                bots=("greedy", "random"))
    b = SimSpec("ravensburger-1989", a.course, 4, 8, seed=3, bots=a.bots)
    (ra, rb), _ = run_many([a, b], heat=True)
    return balance_page(report(a, ra, True), report(b, rb, True), compare_summaries(ra, rb))


@pytest.mark.parametrize("name", [s.name for s in __import__(
    "avecaesar.editor.render.report_sections", fromlist=["SECTIONS"]).SECTIONS])
def test_a_report_section_is_documented_and_rendered(name: str, report_pages: str) -> None:
    from avecaesar.editor.render.balance_page import PAIRED
    from avecaesar.editor.render.report_sections import SECTIONS

    section = next(s for s in SECTIONS if s.name == name)
    assert section.doc and section.title
    assert f"`{name}`" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    # a comparison's own sections (its table, the difference maps) once at the head; the
    # others on each side
    assert f'<section id="{"" if name in PAIRED else "a-"}{name}">' in report_pages
    assert name in PAIRED or f'<section id="b-{name}">' in report_pages
