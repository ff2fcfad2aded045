# Two commands: `make run` (the site on SQLite) and `make test` (the whole suite).
# `make serve` runs it for real (bin/serve: HAProxy and gunicorn, debug off, settings from the
# environment).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

.PHONY: run serve test test-dates test-fast test-a11y js system-packages messages compilemessages bench bench-solver loadtest loadtest-day loadtest-crowds lint venv clean cluster cluster-stop faults lock

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 13) else "Python 3.13 or newer is needed: with pyenv, run make from the project root (.python-version says 3.13), or set PYTHON=python3.13")'
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

# The game page's scripts are the ES modules of static/js/game/, bundled and minified by
# esbuild into static/js/game.js, which is committed: serving the site needs no Node.js.
# `make js` rebuilds it after a module changed; the suite checks that it is what the modules
# give (tests/test_scripts.py) with the esbuild package-lock.json pins, which npm installs here,
# with axe-core for the accessibility tests (tests/e2e/axe.py).
NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_STAMP)

js: $(NODE_STAMP)
	npm run --silent build > static/js/game.js.new && mv static/js/game.js.new static/js/game.js

run: $(STAMP) compilemessages
	$(PY) manage.py migrate --noinput
	PY=$(PY) HOST=$(HOST) bin/run-dev

# The site for real on this machine: HAProxy on BALANCER_BIND (0.0.0.0:$PORT, 8000 by default)
# in front of gunicorn on loopback (bin/serve, bin/balancer); BALANCER_BIND= (empty) serves
# gunicorn alone on BIND, behind a proxy of your own.
serve: $(STAMP)
	BALANCER_BIND="$${BALANCER_BIND-0.0.0.0:$${PORT:-8000}}" PY=$(PY) bin/serve

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# What the tests need from Debian, installed when missing (root; bin/debian-packages): Chromium
# for the browser tests, GNU gettext's msgfmt for the catalogues, supervisor for the served site,
# faketime for the suite at other moments (test-dates), npm for the scripts' bundler (esbuild),
# HAProxy for the balancer's door (tests/web/test_door.py).
system-packages:
	bin/debian-packages chromium=chromium msgfmt=gettext supervisord=supervisor faketime=faketime \
		npm=npm haproxy=haproxy /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf=fonts-dejavu-core

# MARKERS chooses a part of the suite (MARKERS="not e2e": all but the browser); WORKERS spreads
# it over that many processes (on SQLite without REDIS_URL only: see test-fast).
test: system-packages lint compilemessages $(NODE_STAMP)
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest $(if $(MARKERS),-m "$(MARKERS)") $(if $(WORKERS),-n $(WORKERS))

# The tests that touch dates (marked `dates`: tests/conftest.py) on SQLite, under Debian's
# faketime from moments where a day, a week, a month, a year or a leap day turns (the clock
# runs on from there, so they cross it): in UTC, then as players whose time zone is the world's
# first (UTC+14) and last (UTC-10). Each run starts its processes at the moment given.
DATE_MOMENTS := 2026-12-06T23:59:58 2026-12-07T00:00:01 2028-02-29T12:00:00 2026-12-31T23:59:59
DATE_ZONES := Pacific/Kiritimati@2026-12-06T23:59:58 America/Adak@2026-12-07T00:00:01
DATES_PYTEST = env -u DATABASE_URL -u REDIS_URL TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 \
	faketime "$$(echo $$moment | tr T ' ')" $(PY) -m pytest -n 2 -q -p no:cacheprovider \
	-m "dates and not e2e"
test-dates: system-packages compilemessages
	@for moment in $(DATE_MOMENTS); do \
		echo "== the suite's dates at $$moment UTC"; \
		$(DATES_PYTEST) || exit 1; \
	done
	@for pair in $(DATE_ZONES); do \
		zone=$${pair%@*}; moment=$${pair#*@}; \
		echo "== the suite's dates at $$moment UTC, the player in $$zone"; \
		PLAYER_TIME_ZONE=$$zone $(DATES_PYTEST) || exit 1; \
	done

# The suite without the slow tests (fuzzing, exhaustive solver agreement, real servers) and
# without the browser, spread over every core (pytest-xdist): under a minute on two. Each
# process has a test database of its own, but with REDIS_URL set all would share one Redis
# database, which every test empties: then they run one after another.
test-fast: $(STAMP) compilemessages $(NODE_STAMP)
	$(PY) -m pytest $(if $(REDIS_URL),,-n auto) -m "not slow and not e2e"

# axe-core on every page and state of the game page in each pairing of language (English and
# another), theme (light, dark) and size (a phone, a laptop): eight runs of each, where `make
# test` checks each once (docs/accessibility.md). Its findings: python -m tests.e2e.axe.
test-a11y: system-packages compilemessages $(NODE_STAMP)
	rm -rf test-artifacts/axe
	$(PY) -m pytest tests/e2e/test_accessibility.py --a11y-matrix $(if $(WORKERS),-n $(WORKERS))
	$(PY) -m tests.e2e.axe

# The translation catalogues (locale/<language>/LC_MESSAGES/django.po): `make messages` brings
# them up to date with the strings marked in the code and templates (then translate what is new);
# the site reads them compiled (django.mo), which every command above makes first.
LANGUAGES_TRANSLATED := fr nl pl vi
messages: $(STAMP)
	$(PY) manage.py makemessages $(addprefix -l ,$(LANGUAGES_TRANSLATED)) --add-location=file \
		--ignore=.venv --ignore=tests --ignore=docs --ignore=staticfiles --ignore=test-artifacts

compilemessages: $(STAMP)
	@command -v msgfmt >/dev/null || { echo "msgfmt is needed (Debian: apt-get install gettext)"; exit 1; }
	$(PY) manage.py compilemessages --ignore=.venv

bench: $(STAMP)
	$(PY) tests/bench/engine.py
	$(PY) tests/bench/move_request.py
	$(PY) tests/bench/long_game.py
	$(PY) tests/bench/stats.py

# The solver on deals of every game it was never tuned on: SECONDS per deal, COUNT deals from
# START, beside the solver of git revision SOLVER_BASELINE (whose answers are kept in
# tests/bench/solver-baseline-<commit>.json and read back: for another revision or other
# deals, run with ONLY=baseline first to fill them).
SECONDS ?= 10
COUNT ?= 30
START ?= 9001
SOLVER_BASELINE ?= c118b78
bench-solver: $(STAMP)
	$(PY) tests/bench/solver.py --seconds $(SECONDS) --count $(COUNT) --start $(START) \
		--baseline $(SOLVER_BASELINE) $(if $(ONLY),--only $(ONLY))

# The production server on loopback against PostgreSQL, under simulated players: flat out
# (the server's capacity: moves per second against a trivial view's requests per second), then
# at a player's pace (a second between requests: the latency 50 players see).
# CLUSTER=1: through the cluster's balancer (make cluster first), on both app servers, then on
# one.
loadtest: $(STAMP)
ifeq ($(CLUSTER),1)
	$(PY) tests/bench/loadtest.py --cluster --app-servers 2 $(LOADTEST_ARGS)
	$(PY) tests/bench/loadtest.py --cluster --app-servers 1 $(LOADTEST_ARGS)
else
	$(PY) tests/bench/loadtest.py $(LOADTEST_ARGS)
	$(PY) tests/bench/loadtest.py --think 1000 --trivial-seconds 5 $(LOADTEST_ARGS)
endif

# A day's load: players at a person's pace arriving over 20 s, with open pages that poll as
# pages do, at 500, 1,000 and 2,000 players, then 1,000 all at once; one table
# (tests/bench/loadday.py; docs/performance.md).
loadtest-day: $(STAMP)
	$(PY) tests/bench/loadday.py $(LOADTEST_ARGS)

# The two crowds the daily deal and shared links bring: the midnight rush (2,000 players open
# /daily/ and a daily game within 30 s, then play) and a shared link opened 5,000 times in 60 s
# from 500 addresses (tests/bench/crowds.py; docs/performance.md).
loadtest-crowds: $(STAMP)
	$(PY) tests/bench/crowds.py $(LOADTEST_ARGS)

# The site as five hosts on this machine (network namespaces, root): HAProxy, two app servers,
# a worker host, PostgreSQL and Redis of its own (bin/cluster; docs/operations.md).
cluster: $(STAMP)
	PY=$(abspath $(PY)) bin/cluster start

cluster-stop:
	bin/cluster stop

# Faults through the cluster while 50 players play: an app server killed and back, a task
# worker killed mid-search, Redis stopped, PostgreSQL restarted.
faults: $(STAMP)
	$(PY) tests/bench/faults.py $(FAULTS_ARGS)

# requirements.lock: the production dependencies pinned with their hashes.
lock: $(STAMP)
	PY=$(PY) bin/lock

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .ruff_cache
