"""The days of the daily deals: counted in UTC, so that a day's deal is the same for everyone
and changes at midnight UTC; which grade each day of the week deals; how far back a day may be
played."""

from datetime import UTC, date, datetime, timedelta

from solitaire import clock

#: The daily deal's grade by the day of the week (Monday first): easier early in the week,
#: expert on Sunday.
WEEK = ("easy", "easy", "medium", "medium", "hard", "hard", "expert")
#: How far back a day's deal may be played (the calendar's reach).
PAST_DAYS = 366


class NoSuchDay(Exception):
    """A day that has no daily deal: in the future, or too long ago."""


def today() -> date:
    """Today in UTC, by the site's one clock."""
    return clock.now().astimezone(UTC).date()


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """The first moment of ``day`` (UTC) and of the day after."""
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return start, start + timedelta(days=1)


def earliest() -> date:
    """The first day whose deal may still be played."""
    return today() - timedelta(days=PAST_DAYS)


def check_day(day: date) -> None:
    """``NoSuchDay`` unless ``day`` is today or within ``PAST_DAYS`` before."""
    if not earliest() <= day <= today():
        raise NoSuchDay(day)
