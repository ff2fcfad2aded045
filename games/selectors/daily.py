"""The reader's daily deals: the day a game was opened for, their games and wins of the days,
and their streak of days won."""

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import F

from ..days import day_bounds, today
from ..kept import DAYS
from ..models import DailyDeal, Game
from ..owners import Owner
from .leaderboards import rank_of, unranked_reason


@dataclass(frozen=True)
class DayOfGame:
    """The daily deal a game was opened for, as its page names it: the day (UTC) it belongs
    to, whatever the day is when it is played, whether that day is today (a win may still
    rank), why its win does not rank ("" when it does, or is not won) and, when it ranks, its
    place on the day's leaderboard."""

    variant: str
    day: date
    unranked: str
    today: bool = False
    rank: int | None = None


def day_of_game(owner: Owner, game: Game) -> DayOfGame | None:
    """The daily deal ``game`` (the reader's) was opened for from the daily page, if any."""
    deal = daily_deal_of(game)
    if deal is None:
        return None
    unranked = unranked_reason(game, deal, owner)
    ranks = game.status == Game.Status.WON and not unranked
    return DayOfGame(
        deal.variant,
        deal.day,
        unranked,
        today=deal.day == today(),
        rank=rank_of(game, deal) if ranks else None,
    )


def day_not_over(game: Game) -> date | None:
    """The day of the daily deal ``game`` was opened for, while that day is not over (UTC):
    until then its moves are not shown to others (a shared link shows the deal, not the line
    that won it, which anyone could copy and rank with). None otherwise."""
    deal = daily_deal_of(game)
    return deal.day if deal is not None and deal.day >= today() else None


def daily_deal_of(game: Game) -> DailyDeal | None:
    """The daily deal ``game`` was opened for, or None (kept once read: games/kept.py)."""
    return DAYS.get(
        (game.pk, game.public_id), lambda: DailyDeal.objects.filter(games__game=game).first()
    )


def results_of(owner: Owner, deals: list[DailyDeal]) -> dict[int, Game]:
    """The reader's game of each of ``deals`` that they started, by the deal's id (one query)."""
    games = (
        Game.objects.owned_by(owner)
        .filter(daily__daily__in=deals)
        .annotate(daily_id=F("daily__daily_id"))
        .order_by("-created_at")
    )
    return {game.daily_id: game for game in games}


def days_won(owner: Owner, variant: str, first: date, last: date) -> set[date]:
    """The days from ``first`` to ``last`` whose daily deal of ``variant`` the reader won."""
    return set(
        Game.objects.owned_by(owner)
        .filter(
            variant=variant,
            status=Game.Status.WON,
            daily__daily__day__gte=first,
            daily__daily__day__lte=last,
        )
        .values_list("daily__daily__day", flat=True)
    )


def daily_streak(owner: Owner) -> int:
    """Days in a row, up to today or yesterday (UTC), on which the reader won a daily deal of
    some game (one query)."""
    won = (
        Game.objects.owned_by(owner)
        .filter(status=Game.Status.WON, daily__isnull=False)
        .values_list("daily__daily__day", "finished_at")
    )
    # A day counts when its deal was won that day: past days played later make no streak.
    days = {day for day, finished in won if day_bounds(day)[0] <= finished < day_bounds(day)[1]}
    day = today()
    if day not in days:
        day -= timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak
