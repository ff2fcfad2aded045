"""Fixtures for every test: the site's one clock, set by the test that needs a moment, and the
player's time zone, which ``PLAYER_TIME_ZONE`` sets for a whole run (``make test-dates``)."""

import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.test import override_settings

from solitaire import clock as site_clock

HERE = Path(__file__).resolve().parent
#: The modules whose tests touch dates, days, weeks or months (marked ``dates``): the daily deal
#: and its leaderboards, streaks, the statistics' weekly charts, history, housekeeping, sessions'
#: expiry, searches' leases, the time a game is played, the clocks. ``make test-dates`` runs them
#: under faketime at the moments where a day, a week, a month, a year or a leap day turns.
DATES = {
    "test_clock.py",
    "test_layers.py",
    "web/test_analysis.py",
    "web/test_clock.py",
    "web/test_daily.py",
    "web/test_day_edge.py",
    "web/test_fair_daily.py",
    "web/test_grades.py",
    "web/test_history.py",
    "web/test_honest_counts.py",
    "web/test_housekeeping.py",
    "web/test_languages.py",
    "web/test_my_games.py",
    "web/test_records.py",
    "web/test_search_queue.py",
    "web/test_sessions.py",
    "web/test_stats.py",
    "web/test_translated_pages.py",
    "web/test_two_devices.py",
}


def pytest_addoption(parser):
    parser.addoption(
        "--a11y-matrix",
        action="store_true",
        help="check each page for accessibility in every language, theme and size pairing "
        "(tests/e2e/test_accessibility.py; make test-a11y), not once each",
    )


def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``DATES`` with ``dates``."""
    for item in items:
        if item.path.is_relative_to(HERE) and str(item.path.relative_to(HERE)) in DATES:
            item.add_marker(pytest.mark.dates)


class Clock:
    """The site's clock as a test sets it: ``clock.moment = <aware datetime>`` stops every rule
    of the site at that moment; ``clock.advance(seconds=1)`` moves it on."""

    @property
    def moment(self) -> datetime:
        return site_clock.now()

    @moment.setter
    def moment(self, value: datetime) -> None:
        site_clock.stop_at(value)

    def advance(self, **delta) -> datetime:
        return site_clock.advance(timedelta(**delta))


@pytest.fixture
def clock():
    """The clock, stopped where the test puts it; running again after the test."""
    yield Clock()
    site_clock.run()


@pytest.fixture(autouse=True)
def clock_runs_after_each_test():
    """No test leaves the clock stopped for the next."""
    yield
    site_clock.run()


@pytest.fixture(autouse=True)
def pages_drawn_as_in_production(settings):
    """Parts of pages kept once drawn (solitaire/frames.py), as production keeps them: the
    settings leave them off while debugging, which the tests run under."""
    settings.FRAMES = True


@pytest.fixture(autouse=True)
def actions_at_a_tests_pace(settings):
    """The tests play faster than any person, all from one address (settings.LIMITS
    "action-game" and "page-address"): they set their own limits, and the tests of those
    limits set the site's back."""
    settings.LIMITS = {
        **settings.LIMITS,
        "action-game": (100_000, 10),
        "page-address": (100_000, 60),
    }


@pytest.fixture(autouse=True)
def player_time_zone():
    """With ``PLAYER_TIME_ZONE`` set (an IANA name), every player who has not chosen a zone,
    and the test itself, are in that zone rather than the site's (UTC): the rules that read a
    date must give the same answers there."""
    zone = os.environ.get("PLAYER_TIME_ZONE")
    if not zone:
        yield
        return
    with override_settings(TIME_ZONE=zone):
        yield
