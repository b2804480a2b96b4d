# Two entry points for a fresh machine: `make run` (the app) and `make test` (the whole suite).
# Both create .venv and install the pinned requirements first; a second call reuses them.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench browser-deps clean

$(STAMP): requirements.txt requirements-dev.txt requirements-bench.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -r requirements-dev.txt
	# Commit subjects of at most 72 characters (.githooks/commit-msg); no-op outside a checkout.
	-git config core.hooksPath .githooks 2>/dev/null
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m streamlit run app.py

# Browser tests need Debian's chromium; scripts/ensure-chromium.sh installs it when missing.
test: $(STAMP) browser-deps
	$(PY) -m pytest

# Everything but the tests marked slow (Ray, the installed wheel, real models) and the browser.
test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not browser"

browser-deps:
	bash scripts/ensure-chromium.sh

lint: $(STAMP)
	$(PY) -m ruff check chunkviz tests bench app.py pages
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) bench/chunking.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
