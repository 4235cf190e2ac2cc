# Two commands on a fresh Debian machine with Python 3.11+:
#   make demo   — set up, then validate and render a course and race it under each edition
#   make test   — set up, then lint and run the whole test suite
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
OUT     ?= out
COURSE  ?= ravensburger-1989/a-white
# run a second time with AVECAESAR_PURE=1 by `make test` (the first run uses the compiled
# hot path when it is built): the engine's core tests, the golden records and the 6-card
# rule asked in parallel threads (its old race shows in pure Python only)
BOTH_FLAVOURS ?= $(addprefix tests/core/,test_card_restrictions.py test_effects.py test_native.py \
                   test_notebook_display.py test_golden.py test_scenarios.py test_vectors.py \
                   test_races.py test_six_threads.py)

# `make test`'s pytest runs use two processes (pytest-xdist; CI has 2 cores): the whole suite
# a file per worker at a time (`--dist loadfile`: a file's tests keep their order and share
# their module fixtures — the play page's four browsers, the assistant's advice — which
# `load` or `worksteal` would build again on the other worker; no file is long enough to
# leave a worker idle at the end: docs/performance.md, "Test suite time in CI"), the pure run
# test by test (its seeded races are independent); PARALLEL= runs them in one process.
# Both print their 15 slowest tests (DURATIONS), so the budget stays visible: `make test`
# within 4 minutes on 2 idle cores, no test over 20 s.
PARALLEL ?= -n 2
DURATIONS ?= --durations=15

# The engine's hot path is compiled with mypyc by `pip install` (setup.py) when a C compiler
# and Python's headers are there; else it installs pure Python (same results, slower).
# A build older than its sources is never used (src/avecaesar/native.py); `make setup`
# rebuilds it.
.PHONY: setup compiler native graphviz browser pdftools demo test lint typecheck bench docs clean

$(BIN)/avecaesar: pyproject.toml setup.py | compiler
	@$(PY) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	@$(PY) -m venv $(VENV) 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv && $(PY) -m venv $(VENV); \
	  else echo "python3 -m venv failed: install the Debian package python3-venv (sudo apt-get install python3-venv)"; exit 1; fi; }
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,dask]'
	@touch $@

graphviz:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing Graphviz (apt-get install graphviz)"; \
	    apt-get update -qq && apt-get install -y -qq graphviz >/dev/null; \
	  else echo "Graphviz's 'dot' is missing: run 'sudo apt-get install graphviz' (needed to render courses)"; exit 1; fi; }

compiler:
	@{ command -v cc >/dev/null 2>&1 && $(PY) -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; } || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing a C compiler and Python's headers (apt-get install gcc python3-dev)"; \
	    { apt-get update -qq && apt-get install -y -qq gcc python3-dev >/dev/null; } || echo "could not install gcc and python3-dev: the engine installs as pure Python"; \
	  else echo "no C compiler or Python headers (sudo apt-get install gcc python3-dev): the engine installs as pure Python"; fi; }

native: $(BIN)/avecaesar
	@$(BIN)/python -c 'import sys, avecaesar.native as n; sys.exit(n.needs_rebuild())' 2>/dev/null || { \
	  echo "rebuilding the compiled hot path (its sources changed)"; $(BIN)/pip install -q --no-deps -e .; }
	@$(BIN)/python -c 'import avecaesar.native as n; n.main()'

setup: $(BIN)/avecaesar native graphviz
	@echo "set up: run $(BIN)/avecaesar, or type plain 'avecaesar' after"
	@echo '  export PATH="$(CURDIR)/$(BIN):$$PATH"    (or: source $(BIN)/activate)'

# The browser tests (tests/editor/web) drive Debian's headless chromium with chromium-driver.
# Only `make test` needs them; `make demo` does not.
browser:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing Chromium for the browser tests (apt-get install chromium chromium-driver)"; \
	    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "warning: the browser tests need Debian's chromium and chromium-driver (sudo apt-get install chromium chromium-driver); they are skipped"; fi; }

# The print tests (tests/editor/test_print.py) render the sheets of `course print` with
# poppler's pdftoppm to check that they join up to the board. Only `make test` needs it.
pdftools:
	@command -v pdftoppm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing poppler-utils for the print tests (apt-get install poppler-utils)"; \
	    apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; \
	  else echo "warning: the print tests need poppler's pdftoppm (sudo apt-get install poppler-utils); they are skipped"; fi; }

demo: setup
	@mkdir -p $(OUT)
	$(BIN)/avecaesar course list
	$(BIN)/avecaesar course validate $(COURSE)
	$(BIN)/avecaesar course render $(COURSE) --highlight shortest -o $(OUT)/course.svg
	$(BIN)/avecaesar course render $(COURSE) --highlight shortest --format png -o $(OUT)/course.png
	@bash tools/demo-races.sh $(BIN)/avecaesar $(OUT)

lint: setup
	$(BIN)/ruff check .
	$(MAKE) typecheck

test: setup browser pdftools
	@mkdir -p build && { git status --porcelain 2>/dev/null || true; } > build/tree-before.txt
	$(BIN)/ruff check .
	$(MAKE) typecheck
	$(BIN)/pytest $(PARALLEL) --dist loadfile $(DURATIONS)
	AVECAESAR_PURE=1 $(BIN)/pytest $(PARALLEL) --dist load $(DURATIONS) $(BOTH_FLAVOURS)
	@{ git status --porcelain 2>/dev/null || true; } | diff build/tree-before.txt - >/dev/null || { \
	  echo "error: the test run changed the checkout (tests write only into temporary folders):"; \
	  { git status --porcelain; } | diff build/tree-before.txt - | sed -n 's/^> /  /p'; exit 1; }

# mypy (config in pyproject.toml): the import package avecaesar is mapped from several
# folders, which mypy cannot follow, so they are linked under build/mypy/avecaesar first
typecheck: setup
	@mkdir -p build/mypy/avecaesar
	@for f in src/avecaesar/*.py; do ln -sfn ../../../$$f build/mypy/avecaesar/$$(basename $$f); done
	@for d in engine editor rulesets courses schemas; do ln -sfn ../../../$$d build/mypy/avecaesar/$$d; done
	$(BIN)/mypy

# the generated docs: the ruleset reference and edition pages, the registry tables of
# docs/architecture.md, the house-rules schema, and the pictures in docs/boards/ and docs/img/
# (boards, simulation charts, web screenshots: tools/docs_images.py remakes the stale ones,
# recorded in docs/images.json; the screenshots need `make browser`). Tests fail while any
# of them is stale; no test writes into docs/.
docs: setup graphviz browser
	$(BIN)/python -m avecaesar.editor.render.ruleset_docs
	$(BIN)/python -m avecaesar.editor.registry_docs
	$(BIN)/python -m avecaesar.engine.ruleset.house_schema
	$(BIN)/python tools/docs_images.py

bench: setup
	$(BIN)/python bench/bench_course.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .ruff_cache .hypothesis
