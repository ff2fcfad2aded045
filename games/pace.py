"""What the server can vouch for of the time between a player's actions.

Each board the server draws carries when it was drawn (``drawn_token``, signed, in
#table-state), and each action sends it back with ``away``, the milliseconds the page says it
was hidden. The clock (``Pace.gap``) counts a gap from the later of the last action and the
drawing of the board the action was made on, so the time before a fresh page load (a tab
closed, the game opened on another day) does not count; and ``away`` shortens a gap only down
to ``settings.HUMAN_ACTION_MS``, what a person needs to see a board and act on it, so a page
cannot make its own time nothing. A ranked daily win takes at least that per move of the
player's own (games/selectors/leaderboards.py).
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core import signing

from solitaire import clock

SALT = "games.pace.drawn"
#: The clock counts a pause between two actions longer than this as this long: the player was
#: away (static/js/clock.js shows the same).
IDLE = timedelta(minutes=2)


@dataclass(frozen=True)
class Gap:
    """The gap an action closes: when the action happens (``now``) and the milliseconds the
    game's clock counts of it."""

    now: datetime
    milliseconds: int


@dataclass(frozen=True)
class Pace:
    """What an action says of its gap: ``away`` (milliseconds the page was hidden) and
    ``drawn``, when the board it was made on was drawn, when the server vouches for it."""

    away: int = 0
    drawn: datetime | None = None

    def gap(self, last_action: datetime) -> Gap:
        """The gap from ``last_action`` to now as the clock counts it (``counted_gap``), to
        the millisecond and at most ``IDLE``."""
        now = clock.now()
        since_drawn = None if self.drawn is None else now - self.drawn
        counted = min(counted_gap(now - last_action, since_drawn, self.away), IDLE)
        return Gap(now, counted // timedelta(milliseconds=1))


#: An action that says nothing of its gap (a test, a command): counted from the last action.
NO_PACE = Pace()


def drawn_token(moment: datetime) -> str:
    """``moment`` (when a board is drawn) as the page sends it back: signed milliseconds."""
    return signing.Signer(salt=SALT).sign(str(int(moment.timestamp() * 1000)))


def drawn_at(token: str) -> datetime | None:
    """The moment a ``drawn_token`` names; None for a token missing, forged or garbled (the gap
    then counts from the last action, as it would without it)."""
    try:
        milliseconds = int(signing.Signer(salt=SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return datetime.fromtimestamp(milliseconds / 1000, UTC)


def counted_gap(since_action: timedelta, since_drawn: timedelta | None, away: int) -> timedelta:
    """The part of the time since the last action that the clock counts, before its cap: from
    the later of the last action and the board's drawing, less ``away`` but never below a
    person's action (nor above the gap itself)."""
    gap = since_action if since_drawn is None else min(since_action, since_drawn)
    gap = max(gap, timedelta(0))
    floor = min(gap, timedelta(milliseconds=settings.HUMAN_ACTION_MS))
    return max(gap - timedelta(milliseconds=away), floor)
