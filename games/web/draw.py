"""The game's answers, drawn: the game page, or for htmx the board, or only what a move
changed. Everything here draws what the view hands it; nothing reads the database or calls a
service (tests/test_layers.py holds that): the views gather (games/web/edge.py).
"""

from dataclasses import dataclass
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect

from solitaire import clock

from ..board import build_board, card_moves, pile_views, redeals_shown
from ..models import Game
from ..outcomes import Outcome
from ..pace import drawn_at
from ..rules import VARIANTS
from .motion import Motion, motion_of

#: The URL names of a game's actions: the board's forms and scripts post to them (and ask
#: ``poll`` whether the game moved on elsewhere).
ACTIONS = (
    "move",
    "to_foundation",
    "undo",
    "redo",
    "restart",
    "give_up",
    "finish",
    "autoplay",
    "poll",
)


@dataclass(frozen=True)
class Gathered:
    """What the game page shows beside the board, gathered by the view: whether automatic
    moves are on, the player's record on the deal and the deal's grade in words (the whole
    page only), the won panel, and the daily deal the game was opened for (its day, and why
    its win does not rank)."""

    autoplay: bool
    deal_record: object | None = None
    win: object | None = None
    grade: str = ""
    daily: object | None = None


def is_fragment(request: HttpRequest) -> bool:
    """Whether the answer is the board alone (htmx, not restoring its history)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def game_url(game: Game) -> str:
    return _url(get_script_prefix(), "games:game", game.public_id)


# A move's answer links its cards to the game and ``reverse`` costs about 10 µs a call: a
# game's URLs are kept per process, by the script prefix the site is served under (the WSGI
# handler sets it for each request), as a player makes many moves in one game.
@lru_cache(maxsize=4096)
def _url(prefix: str, name: str, public_id: str) -> str:
    return reverse(name, args=[public_id])


def action_url(name: str, game: Game) -> str:
    return _url(get_script_prefix(), f"games:{name}", game.public_id)


def go(request: HttpRequest, url: str) -> HttpResponse:
    """To ``url``: for htmx, the browser is told to go there."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def draw_game(
    request: HttpRequest,
    game: Game,
    gathered: Gathered,
    position=None,
    *,
    pick: str = "",
    message: str = "",
    level: str = "success",
    status: int = 200,
    motion: Motion | None = None,
) -> HttpResponse:
    """The game page, or for htmx (not restoring history) the board and the message."""
    position = position if position is not None else game.position()
    variant = VARIANTS[game.variant]
    context = {
        "game": game,
        "variant": variant,
        "game_url": game_url(game),
        "urls": {name: action_url(name, game) for name in ACTIONS},
        "autoplay": gathered.autoplay,
        "board": build_board(position, pick, playable=not game.is_finished),
        "message": message,
        "level": level,
        "share_url": request.build_absolute_uri(
            reverse("pages:play_deal", args=[game.variant, game.deal])
        ),
        "slots": max(variant.columns, 11 if variant.stock_deal > 1 else 10),
        "motion": motion or Motion(),
        "deal_record": gathered.deal_record,
        "win": gathered.win,
        "grade": gathered.grade,
        "daily": gathered.daily,
        # When the clock counts the next gap from at the earliest (games/pace.py): a whole
        # page, from now; a board redrawn in place, from the drawing of the page it is on.
        "drawn": None,
    }
    fragment = is_fragment(request)
    if fragment:
        context["drawn"] = drawn_at(request.POST.get("drawn") or request.GET.get("drawn") or "")
    else:
        context["drawn"] = clock.now()
    template = "games/play.html#board-response" if fragment else "games/play.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def draw_changes(outcome: Outcome, said: str) -> HttpResponse:
    """The htmx answer to moves played or taken back on a game that stays in play: only what
    they changed, all out of band (the header says to swap nothing else): the table's state
    (ply, version, the legal moves), the piles they touched, the counters, the cards' motion,
    the announcement, and the undo, redo and restart buttons or the Finish button when one of
    them became possible or impossible. A move touches two piles or three: a fraction of a
    whole board."""
    game, position, before = outcome.game, outcome.position, outcome.before
    context = {
        "game": game,
        "game_url": game_url(game),
        "changed": pile_views(position, outcome.changed),
        "moves": card_moves(position),
        "redeals": redeals_shown(position),
        "message": said,
        "motion": motion_of(outcome),
        # Named even when empty: a name the context lacks costs the template an exception.
        "urls": None,
        "finish_url": None,
    }
    if (before.player_moves == 0) != (game.player_moves == 0) or before.redo != bool(game.redo):
        # Undo, redo or restart became possible, or impossible: they come again.
        context["urls"] = {name: action_url(name, game) for name in ("undo", "redo", "restart")}
    if before.finish != bool(game.finish):
        # The win became certain (Finish shows itself), or no longer is (after an undo).
        context["finish_url"] = action_url("finish", game)
    # Drawn without the request's context processors: nothing here needs them (the buttons
    # post the table's form), and they cost as much as the rest of the answer.
    response = HttpResponse(render_to_string("games/play.html#move-answer", context))
    response["HX-Reswap"] = "none"
    patch_vary_headers(response, ["HX-Request"])
    return response
