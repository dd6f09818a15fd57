# Two commands do everything on a fresh machine with Python 3.10+:
#   make serve   build the site and serve it at http://127.0.0.1:8000 (LOCALE=fr: English and French only)
#   make test    run every test (unit, grader CLI, real site builds, a real browser)
# For the quick loop: make test-fast (unit and CLI tests: no site build, no browser).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the site's build only (pip's .[site]): what make serve and make build need before their first page
SITE_STAMP := $(VENV)/.site-installed
# the browser runtime of the in-page checker (npm's pyodide, pinned in package-lock.json); without
# npm the site still builds, with the command-line route only
NPM_STAMP := node_modules/.installed
export NO_MKDOCS_2_WARNING := 1
# the tests keep Python's bytecode and pytest's rewritten test modules (in the git-ignored __pycache__ folders)
# whatever the shell's PYTHONDONTWRITEBYTECODE says: a grader command the tests run then starts in 0.39 s, not
# 0.63 s (its modules not compiled again each time), and the test modules are not rewritten at each run
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE=
# where make serve listens (bench/preview_loop.py gives each run a free port)
DEV_ADDR ?= 127.0.0.1:8000

.PHONY: serve build publish test test-fast lint mutate bench bench-grade bench-checker translations clean

$(SITE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[site]'
	touch $(SITE_STAMP)

$(STAMP): $(SITE_STAMP) pyproject.toml
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

$(NPM_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --no-audit --no-fund --loglevel=error && touch $(NPM_STAMP); \
	else \
	  echo "npm not found: the site builds without in-page answer checking (install Node.js 18+ and npm, then run make again)"; \
	fi

# the translator's preview: it keeps serving while a page has problems, and shows them on the page and in
# the terminal (hooks/course.py), and --no-strict keeps mkdocs.yml's strict: true from stopping it on them;
# LOCALE=fr builds English and French only (hooks/site/serve.py); make build is strict, builds every locale
# and fails on them
serve: $(SITE_STAMP) $(NPM_STAMP)
	COURSE_SERVE_LOCALE=$(LOCALE) $(BIN)/mkdocs serve --no-strict --dev-addr $(DEV_ADDR)

build: $(SITE_STAMP) $(NPM_STAMP)
	$(BIN)/mkdocs build --strict

# the site for a static host: SITE_URL=https://example.org/course/ make publish builds it (strict) into site/ for
# that address, checks it against the course's settings (COURSE_SOLUTIONS=off: no worked solution in it) and
# writes site/_headers (Netlify, Cloudflare Pages); .github/workflows/publish.yml runs it for GitHub Pages
publish: $(STAMP) $(NPM_STAMP)
	$(BIN)/python -m hooks.site.publish site

# every core (pytest-xdist), a test file per worker so that a file's fixtures are made once (the longest
# files in parts); the sites the files share are built once per run (tests/conftest.py: shared_builds); the
# files are handed out longest first (tests/conftest.py: LONGEST_FIRST, SPLIT), not in xdist's own order
test: lint $(NPM_STAMP)
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# ruff, the grader's layer contract (import-linter: pyproject.toml's [tool.importlinter]), and vermin:
# nothing in the grader or the hooks needs a newer Python than requires-python (3.10)
lint: $(STAMP)
	$(BIN)/ruff check grader hooks tests bench
	$(BIN)/lint-imports
	$(BIN)/vermin --quiet --violations --eval-annotations --no-tips -t=3.10- grader hooks

# unit and CLI tests on every core (pytest-xdist); tests/site/ is all slow, so it is not even collected; the
# page's JavaScript (tests/js/, node --test) runs inside it, from tests/hooks/test_work_js.py (skipped without Node.js)
test-fast: lint
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -m "not slow" --ignore=tests/site -n auto -q

# how many planted bugs the fast tests catch (mutmut, then deleted statements, at the lowest priority;
# a benchmark, not in CI); MINUTES=20 stops each pass after 20 minutes (run it again to go on)
mutate: $(BIN)/mutmut
	$(BIN)/python bench/mutate.py $(if $(MINUTES),--minutes $(MINUTES))

$(BIN)/mutmut: $(STAMP)
	$(BIN)/pip install --quiet -e '.[mutation]'

translations: $(SITE_STAMP)
	$(BIN)/python -m hooks.translations $(LOCALE)

bench: $(STAMP) $(NPM_STAMP)
	$(BIN)/python bench/build_time.py
	$(BIN)/python bench/grade_class.py
	$(BIN)/python bench/report_class.py
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/checker.py

bench-checker: $(STAMP) $(NPM_STAMP)
	$(BIN)/python bench/checker.py

bench-grade: $(STAMP)
	$(BIN)/python bench/grade_class.py

clean:
	rm -rf $(VENV) node_modules site .cache test-artifacts mutants
