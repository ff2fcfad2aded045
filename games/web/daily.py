"""The daily deals' pages: today's ten (``/daily/``), a game's deal of today (``/daily/<game>/``,
which opens the player's game of it), a day's page with its leaderboard
(``/daily/<game>/<YYYY-MM-DD>/``) and a month's calendar (``/daily/<game>/<YYYY-MM>/``)."""

import calendar
from datetime import date, timedelta

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from solitaire import limits

from .. import days
from ..rules import VARIANTS
from ..selectors.daily import daily_streak, days_won, results_of
from ..selectors.leaderboards import game_of_day, leaderboard
from ..services import daily
from .edge import NO_SUCH_GAME, open_game, page_here, variant_or_404
from .player import autoplay_settings, with_session


def day_or_404(day: date) -> date:
    try:
        days.check_day(day)
    except days.NoSuchDay:
        raise Http404(NO_SUCH_GAME) from None
    return day


@require_GET
def today(request: HttpRequest) -> HttpResponse:
    """Today's deal of each game, its grade and the player's result."""
    deals = daily.todays_deals(list(VARIANTS))
    results = results_of(request.owner, deals)
    rows = [(deal, VARIANTS[deal.variant], results.get(deal.pk)) for deal in deals]
    return render(
        request,
        "games/daily.html",
        {"rows": rows, "day": days.today(), "streak": daily_streak(request.owner)},
    )


@require_GET
@limits.per_address("new-game-address", methods=("GET",))
def open_today(request: HttpRequest, variant: str) -> HttpResponse:
    """The player's game of today's deal of ``variant``, started if needed."""
    variant_or_404(variant)
    return open_daily(request, variant, days.today(), here=True)


@require_POST
@limits.per_address("new-game-address")
def open_day(request: HttpRequest, variant: str, day: date) -> HttpResponse:
    """The player's game of a day's deal (a past day's, from the calendar), started if needed."""
    variant_or_404(variant)
    return open_daily(request, variant, day_or_404(day), here=page_here(request))


def open_daily(request: HttpRequest, variant: str, day: date, *, here: bool) -> HttpResponse:
    """The player's game of ``variant``'s deal of ``day``: its page in this answer when
    ``here``, else a redirect to it (``open_game``; a reload of the link's address, where no
    script renamed it, opens the same game). A guest's new game of today's, whose win may
    rank, only while few guests of their address opened one
    (``settings.DAILY_GUESTS_PER_ADDRESS``): fresh guest sessions from one address cannot fill
    the leaderboard."""
    owner = with_session(request)
    if owner.user is None and day == days.today():
        deal = daily.daily_deal(variant, day)
        if game_of_day(owner, deal) is None:
            wait = limits.hit(
                "daily-guests",
                guest_address_key(request, deal.pk),
                settings.DAILY_GUESTS_PER_ADDRESS,
                24 * 60 * 60,
            )
            if wait:
                message = _(
                    "Several guests at your address have opened today's deal already: log in "
                    "or sign up to play it too."
                )
                response = render(
                    request, "429.html", {"message": message, "retry_after": wait}, status=429
                )
                response["Retry-After"] = str(wait)
                return response
    game = daily.find_or_start_daily_game(owner, variant, day, autoplay_settings(request))
    return open_game(request, game, here=here)


def guest_address_key(request: HttpRequest, deal_id: int) -> str:
    """What the guests of one address and one daily deal are counted by: a keyed hash of the
    address (the site's secret key), never the address itself; the count ends with the day
    (a window of a day, UTC)."""
    address = limits.client_key(request)
    return salted_hmac("daily-guests", f"{deal_id}|{address}", algorithm="sha256").hexdigest()


@require_GET
@limits.per_address("page-address", methods=("GET",))
def day_page(request: HttpRequest, variant: str, day: date) -> HttpResponse:
    """A day's deal of a game: its grade, the player's game, the leaderboard."""
    rules = variant_or_404(variant)
    deal = daily.daily_deal(variant, day_or_404(day))
    board = leaderboard(deal, request.owner)
    return render(
        request,
        "games/daily_day.html",
        {
            "variant": rules,
            "deal": deal,
            "board": board,
            "is_today": day == days.today(),
            "mine": game_of_day(request.owner, deal),
            "month_url": reverse("games:daily_month", args=[variant, day.year, day.month]),
        },
    )


@require_GET
def month_page(request: HttpRequest, variant: str, year: int, month: int) -> HttpResponse:
    """A month's calendar of a game's daily deals, the days the player won marked."""
    rules = variant_or_404(variant)
    if not 1 <= month <= 12 or not 2000 <= year <= 9999:
        raise Http404(NO_SUCH_GAME)
    first = date(year, month, 1)
    last = first + timedelta(days=calendar.monthrange(year, month)[1] - 1)
    now = days.today()
    if last < days.earliest() or first > now:
        raise Http404(NO_SUCH_GAME)
    won = days_won(request.owner, variant, first, last)
    weeks = [
        [
            None
            if day.month != month
            else {
                "day": day,
                "won": day in won,
                "open": days.earliest() <= day <= now,
            }
            for day in week
        ]
        for week in calendar.Calendar().monthdatescalendar(year, month)
    ]
    before = first - timedelta(days=1)
    after = last + timedelta(days=1)
    return render(
        request,
        "games/daily_month.html",
        {
            "variant": rules,
            "first": first,
            "weeks": weeks,
            "weekdays": [date(2024, 1, n) for n in range(1, 8)],  # a Monday to a Sunday
            "before": before if before >= days.earliest() else None,
            "after": after if after <= now else None,
        },
    )
