# Two commands for a newcomer: `make serve` and `make test`. Both build .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PORT   ?= 8866
# axe-core for the accessibility tests, at the version tools/axe/package-lock.json pins
AXE    := tools/axe/node_modules/axe-core/axe.min.js
# Lighthouse for the bench's phone part (benchmarks/phone.py), at the version its lock pins
LIGHTHOUSE := tools/lighthouse/node_modules/lighthouse/cli/index.js
# The pages' own frontend (frontend/), built into the template (docs/phones.md)
FRONTEND := templates/voila/templates/playbook/static/frontend/page.js

.PHONY: serve test test-fast lint screenshots bench clean axe lighthouse messages frontend

# The suite starts some 400 Python processes (kernels, servers, workers); where the environment
# says not to write bytecode, each compiled the playbook's modules again (60 ms a kernel).
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(STAMP) frontend
	$(VENV)/bin/playbook serve --port $(PORT) --open

# Lint and types first (settings in pyproject.toml), then every test on every core
# (pytest-xdist); tests/conftest.py says which tests share a worker.
test: lint axe frontend
	$(PY) -m pytest -n auto --dist loadgroup --durations=25

# axe-core from npm (Node.js); without npm, or offline, the accessibility tests skip (in CI they
# fail), saying how to install it.
axe: $(AXE)
$(AXE): tools/axe/package.json tools/axe/package-lock.json
	@if ! command -v npm >/dev/null; then echo "npm not found: the accessibility tests will skip (install Node.js and npm, then make axe)"; \
	elif npm ci --prefix tools/axe --no-audit --no-fund --loglevel=error; then touch $@; \
	else echo "npm ci failed: the accessibility tests will skip until make axe installs axe-core"; fi

# Lighthouse from npm, as axe; without it the bench's phone part leaves its scores out, saying so.
lighthouse: $(LIGHTHOUSE)
$(LIGHTHOUSE): tools/lighthouse/package.json tools/lighthouse/package-lock.json
	@if ! command -v npm >/dev/null; then echo "npm not found: the bench leaves Lighthouse's scores out (install Node.js and npm, then make lighthouse)"; \
	elif npm ci --prefix tools/lighthouse --no-audit --no-fund --loglevel=error; then touch $@; \
	else echo "npm ci failed: the bench leaves Lighthouse's scores out until make lighthouse installs it"; fi

# The pages' own frontend: ipywidgets' widget manager on the page's kernel, its packages at the
# versions frontend/package-lock.json pins, bundled by esbuild into the template's
# static/frontend/ (never committed). Without npm the pages use Voila's frontend, slower on a phone.
frontend: $(FRONTEND)
$(FRONTEND): frontend/package.json frontend/package-lock.json $(wildcard frontend/src/*)
	@if ! command -v npm >/dev/null; then echo "npm not found: the pages use Voila's own frontend, slower on phones (install Node.js and npm, then make frontend)"; \
	elif npm ci --prefix frontend --no-audit --no-fund --loglevel=error && npm run --prefix frontend --silent build; then touch $@; \
	else echo "the pages' frontend did not build: the pages use Voila's own frontend until make frontend builds it"; fi

# The inner loop: every test but the browsers, the notebooks (each runs in a kernel of its own)
# and those marked `heavy` (a real server, a kernel, a build, races of processes, sweeps). A module's
# tests stay on one worker (`loadfile`), so its module fixtures (games, PDFs) are made once.
test-fast: lint
	$(PY) -m pytest -n auto --dist loadfile -m "not browser and not heavy" tests

# ruff over the whole tree; mypy over the layers pyproject.toml names (the rules strictly).
lint: $(STAMP)
	$(PY) -m ruff check --quiet .
	$(PY) -m mypy

# The README's pictures (docs/screenshots/), taken by the layout tests.
screenshots: $(STAMP)
	PLAYBOOK_SCREENSHOTS=$(CURDIR)/docs/screenshots $(PY) -m pytest -p no:cacheprovider tests/test_browser_layout.py

# The catalogs after a change of marked text, of the notebooks' Markdown or of the rulings pages: the template (i18n/playbook.pot) extracted again,
# then every language's .po updated from it (new messages empty, changed ones fuzzy, for a
# translator; tests/test_i18n.py fails until each is translated and reviewed).
MESSAGE_CODE := rules lab drawing widgets printables playbook i18n notebooks
# the rulings pages the games' pages show (widgets.reference.rulings), named as files; names.md is on no page
RULINGS := $(filter-out docs/rules/names.md,$(wildcard docs/rules/*.md))
messages: $(STAMP)
	PYTHONPATH=$(CURDIR) $(VENV)/bin/pybabel -q extract -F i18n/babel.cfg -k _ -k _n:1,2 -k say -k say_n:1,2 \
		--no-location --sort-output --add-comments=TRANSLATORS: --project=playbook \
		--msgid-bugs-address="" -o i18n/playbook.pot $(MESSAGE_CODE) $(RULINGS)
	@# An empty template would empty every catalog in the update below.
	@grep -q '^msgid "[^"]' i18n/playbook.pot || { echo "make messages: no message extracted (is i18n/extract.py importable?)"; git checkout -- i18n/playbook.pot; exit 1; }
	$(VENV)/bin/pybabel -q update -D playbook -i i18n/playbook.pot -d i18n/locales --no-wrap --ignore-obsolete

bench: $(STAMP) lighthouse
	$(PY) -m benchmarks --markdown docs/benchmarks.md

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache
