# Two commands: `make run` (the site on SQLite) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

.PHONY: run test bench lint venv clean

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 13) else "Python 3.13 or newer is needed: with pyenv, run make from the project root (.python-version says 3.13), or set PYTHON=python3.13")'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runserver $(HOST)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) tests/bench/engine.py
	$(PY) tests/bench/move_request.py
	$(PY) tests/bench/stats.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
