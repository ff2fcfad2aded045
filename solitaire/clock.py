"""The one clock every rule of the site reads: when a game finished, which day's deal is the
daily deal, whether a win ranks before its day's end, streaks, weekly charts, housekeeping.

``now()`` is the wall clock (Django's ``timezone.now``) unless it has been stopped at a moment:
the tests stop it (``stop_at``, ``advance``, ``run``), and then every rule sees the same time.
Timings of their own (monotonic durations, logs, the rate limits' windows) need no clock here,
nor do timestamps Django and its libraries stamp themselves (sessions' expiry, task rows).
"""

from datetime import date, datetime, timedelta

from django.utils import timezone

#: The moment the clock is stopped at, or None while it runs with the wall clock.
stopped: datetime | None = None


def now() -> datetime:
    """This moment, time-zone aware (UTC)."""
    return timezone.now() if stopped is None else stopped


def localdate() -> date:
    """Today where the player is: the date of ``now()`` in the time zone in force (the one the
    player's browser or account gave, else the site's)."""
    return timezone.localdate(now())


def stop_at(moment: datetime) -> None:
    """Stop the clock at ``moment`` (aware): ``now()`` returns it until moved or run again."""
    if timezone.is_naive(moment):
        raise ValueError("the clock is stopped at an aware moment")
    global stopped
    stopped = moment


def advance(delta: timedelta) -> datetime:
    """Move the stopped clock on by ``delta``; the moment it then shows."""
    if stopped is None:
        raise RuntimeError("only a stopped clock is moved by hand")
    stop_at(stopped + delta)
    return now()


def run() -> None:
    """Let the clock run with the wall clock again."""
    global stopped
    stopped = None
