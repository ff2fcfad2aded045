"""The player's own pages: My games, statistics, history, and the replay of a game."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from solitaire import clock

from .. import charts
from ..board import build_board
from ..guide import game_name
from ..rules import VARIANTS, Move
from ..selectors import history as played
from ..selectors import stats
from ..selectors.daily import daily_streak
from ..selectors.deals import grade_games, winnability
from ..selectors.games import finished, in_progress, replayed_at
from ..selectors.stats import Figures, Week, week_starts
from ..words import played_words
from .edge import game_or_404, variant_or_404

#: How many games in progress, and how many finished ones, "My games" lists.
MY_GAMES_PLAYING = 100
MY_GAMES_FINISHED = 30
#: How many games a page of the history lists.
HISTORY_PAGE = 50
#: The replay viewer's speeds: seconds a move stays in sight, the default first.
REPLAY_SPEEDS = (1.0, 2.0, 0.5, 0.25)


@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games in progress, newest first, to resume; and their recent finished ones.

    A signed-in player sees the same list on every device; a guest, their browser's games.
    """
    owner = request.owner
    return render(
        request,
        "games/my_games.html",
        {
            "games": in_progress(owner, MY_GAMES_PLAYING),
            "finished": finished(owner, MY_GAMES_FINISHED),
        },
    )


@require_GET
def statistics(request: HttpRequest, variant: str = "") -> HttpResponse:
    """The player's statistics: every game together, or one game type (``variant``)."""
    if variant:
        variant_or_404(variant)
    figures = stats.statistics(request.owner)
    shown = figures.overall
    if variant:
        shown = figures.scope(variant) or Figures(VARIANTS[variant])
        if not shown.weeks:
            shown.weeks = [Week(start) for start in week_starts(clock.localdate())]
        name = game_name(variant)
        bars_title = _("%(name)s: games and wins per week") % {"name": name}
        line_title = _("%(name)s: win rate over time") % {"name": name}
    else:
        bars_title = _("All games: games and wins per week")
        line_title = _("All games: win rate over time")
    shown.weeks = charts.weeks_with_data(shown.weeks)
    return render(
        request,
        "games/stats.html",
        {
            "statistics": figures,
            "shown": shown,
            "variant": VARIANTS.get(variant),
            "variants": VARIANTS.values(),
            "bars": charts.games_and_wins(shown.weeks, bars_title),
            "bars_title": bars_title,
            "line": charts.win_rate(shown.weeks, line_title),
            "line_title": line_title,
            "winnability": winnability(variant) if variant else None,
            "daily_streak": None if variant else daily_streak(request.owner),
        },
    )


@require_GET
def history(request: HttpRequest) -> HttpResponse:
    """The player's games, last played first, by game type and result, a page at a time."""
    variant = request.GET.get("game", "")
    result = request.GET.get("result", "")
    context = {
        "variants": VARIANTS.values(),
        "game_filter": variant,
        "result_filter": result,
        "results": [
            ("won", _("won")),
            ("won-without-help", _("won without help")),
            ("won-with-help", _("won with help")),
            ("lost", _("lost (given up or stuck)")),
            ("unfinished", _("unfinished")),
        ],
    }
    if (variant and variant not in VARIANTS) or (result and result not in played.RESULTS):
        context["problem"] = _("There is no such game or result to show: choose from the lists.")
        return render(request, "games/history.html", context, status=400)
    games = played.history(request.owner, variant=variant, result=result)
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    page.object_list = grade_games(page.object_list)
    context.update({"page": page, "query": query.urlencode()})
    return render(request, "games/history.html", context)


@require_GET
def replay(request: HttpRequest, public_id: str, ply: int | None = None) -> HttpResponse:
    """The game read-only at ``ply`` (0: the deal), to step through move by move.

    A ply past the game's last move goes to its last; for htmx, just the board and the steps.
    The position comes from the nearest checkpoint, so a long game costs no more.
    """
    game = game_or_404(request, public_id)
    if ply is None or ply > game.ply:
        return redirect("games:replay", game.public_id, 0 if ply is None else game.ply)
    return replay_page(
        request, game, ply, lambda at: reverse("games:replay", args=[game.public_id, at])
    )


def replay_page(
    request: HttpRequest, game, ply: int, url_at, page="games/replay.html", **shown
) -> HttpResponse:
    """``game`` at ``ply`` (0 to its last) on the page ``page`` (which includes the replay's
    partial), its steps linking to ``url_at(ply)``; for htmx, just the board and the steps.
    ``shown``: more for the page's template."""
    # Read from the log and drawn only when the template asks: a shared link's page served
    # from memory (games/share.html's frames) asks for none of them.
    replayed = SimpleLazyObject(lambda: replayed_at(game, ply))
    variant = VARIANTS[game.variant]
    steps = {"first": 0, "back": max(ply - 1, 0), "forward": min(ply + 1, game.ply)}
    steps["last"] = game.ply
    context = {
        "game": game,
        "variant": variant,
        "ply": ply,
        "move": SimpleLazyObject(lambda: replayed.move or ""),
        "said": SimpleLazyObject(lambda: said_at(replayed)),
        "board": SimpleLazyObject(lambda: build_board(replayed.before, playable=False)),
        "steps": {name: url_at(target) for name, target in steps.items()},
        "speeds": [(seconds, f"{seconds:g}") for seconds in REPLAY_SPEEDS],
        "slots": max(variant.columns, 11 if variant.stock_deal > 1 else 10),
        **shown,
    }
    fragment = request.htmx and not request.htmx.history_restore_request
    response = render(request, "games/replay.html#replay" if fragment else page, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def said_at(replayed) -> str:
    """What the move that led to the replayed position did, in words ("" at the deal)."""
    if replayed.move is None:
        return ""
    return played_words(replayed.before.play(Move.parse(replayed.move)))
