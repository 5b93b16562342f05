# Two commands on a fresh Debian machine with Python 3.11 (as root):
#   make serve   install the Python packages, build, serve at http://127.0.0.1:8000 (Python alone)
#   make test    also install the test-only tools (axe-core from npm, Debian's chromium), run every test
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml setup.py 2>/dev/null | sha1sum | cut -c1-12)
NODE_STAMP := node_modules/.installed-$(shell sha1sum package-lock.json 2>/dev/null | cut -c1-12)
export NO_MKDOCS_2_WARNING := 1

.PHONY: install test-tools browser serve build test bench eval clean

# perfref itself is installed editable: hooks, tests and tools import it, and it reads docs/ as they change
$(STAMP): requirements.txt pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# Test-only: axe-core for the accessibility scan. Node and npm come from Debian when missing.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq nodejs npm; }
	npm ci --silent --no-audit --no-fund
	touch $(NODE_STAMP)

# Browser tests drive Debian's Chromium; Playwright's own browser download is not used.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq chromium; }

test-tools: $(NODE_STAMP) browser

serve: install
	$(PY) -m mkdocs serve --strict --dev-addr 127.0.0.1:8000

build: install
	$(PY) -m mkdocs build --strict

test: install test-tools
	$(PY) -m pytest

bench: install browser
	$(PY) scripts/bench.py

eval: install
	$(PY) scripts/evaluate.py

clean:
	rm -rf site build $(VENV) node_modules
