# Two commands on a fresh Debian machine with Python 3.11 (as root):
#   make serve   install everything, build, serve at http://127.0.0.1:8000
#   make test    install everything (Debian's chromium included), run every test
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum requirements.txt package-lock.json 2>/dev/null | sha1sum | cut -c1-12)
export NO_MKDOCS_2_WARNING := 1

.PHONY: install browser serve build test bench eval clean

$(STAMP): requirements.txt package.json package-lock.json
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	npm ci --silent --no-audit --no-fund
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# Browser tests drive Debian's Chromium; Playwright's own browser download is not used.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq chromium; }

serve: install
	$(PY) -m mkdocs serve --strict --dev-addr 127.0.0.1:8000

build: install
	$(PY) -m mkdocs build --strict

test: install browser
	$(PY) -m pytest

bench: install browser
	$(PY) scripts/bench.py

eval: install
	$(PY) scripts/evaluate.py

clean:
	rm -rf site $(VENV) node_modules
