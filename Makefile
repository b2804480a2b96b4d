# Two entry points for a fresh machine: `make run` (the app) and `make test` (the whole suite).
# Both create .venv and install requirements.lock first (every package pinned, with its hashes);
# a second call reuses them. The lock is compiled from pyproject.toml's extras: `make lock`.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint bench browser-deps lock clean

$(STAMP): requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --require-hashes -r requirements.lock
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

# The same three checks run in the suite (tests/test_lint.py), so CI holds them too.
lint: $(STAMP)
	$(PY) -m ruff check chunkviz tests bench app.py pages
	$(PY) -m ruff format --check chunkviz tests bench app.py pages
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) bench/chunking.py

# Recompile requirements.lock after editing pyproject.toml's dependencies: uv keeps every pin the
# lock already has unless the new requirements need another. uv lives in its own venv under
# .cache/ (ignored), so the project's .venv holds only what the lock lists.
UV := .cache/uv/bin/uv
$(UV):
	$(PYTHON) -m venv .cache/uv
	.cache/uv/bin/python -m pip install -q "uv==0.13.9"

lock: $(UV)
	$(UV) pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11.7 \
		--find-links /opt/wheels --emit-find-links --custom-compile-command "make lock" \
		-o requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
