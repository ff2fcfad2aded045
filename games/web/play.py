"""The game page and its actions: pick, move, send to a foundation, undo, redo, restart, give
up, finish a certain win, the automatic moves' setting, and the catch-up poll.

Each action (``@game_action``, games/web/edge.py) reads what its request says and calls its
service with the player and the board they saw; the edge answers. The view never reads the
game first: the service reads it, by id and owner; a game of someone else's is a 404. Only a
request too garbled to reach the service reads the game, to show it.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from solitaire import limits

from ..board import build_board, picks
from ..outcomes import Outcome
from ..rules import Move, MoveSyntaxError
from ..selectors.games import version_of
from ..services import play
from ..words import fill, sentence
from .draw import game_url
from .edge import (
    Garbled,
    Seen,
    answer_change,
    echo,
    game_action,
    game_or_404,
    refuse,
    show_game,
    whole_number,
)
from .player import AUTOPLAY_KEY, autoplay_settings


@require_GET
@limits.per_address("page-address", methods=("GET",))
def game(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game page; ``?pick=t3:2`` shows those cards picked up, ready to put down."""
    game = game_or_404(request, public_id)
    position = game.position()
    pick = request.GET.get("pick", "")
    if pick and (game.is_finished or pick not in picks(position)):
        return refuse(request, game, _("Those cards cannot be picked up."), 400)
    message = ""
    if pick:
        board = build_board(position, pick)
        picked = _("Picked up %(card)s: choose where to put it.")
        message = sentence(fill(picked, {"card": board.pick_label}))
    return show_game(request, game, position, pick=pick, message=message)


@require_GET
@never_cache
@limits.per_address("poll-address", methods=("GET",))
@limits.per_game("poll-game")
def poll(request: HttpRequest, public_id: str) -> HttpResponse:
    """Whether the game moved on elsewhere (another device, another tab) since ``?version=``.

    An open game page asks every few seconds. While nothing changed the answer is 204 No
    Content; else the board as it is now, for htmx to swap in (without htmx, the game page).
    """
    current = game_or_404(request, public_id, version_of)
    version = whole_number(request.GET.get("version", ""))
    if version == current:
        return HttpResponse(status=204)
    # News, or a garbled question: the game is read whole, for the board or the message.
    game = game_or_404(request, public_id)
    if version is None:
        return refuse(request, game, Garbled().message, 400)
    if not request.htmx:
        return redirect(game_url(game))
    return show_game(request, game, message=_("Caught up with moves made elsewhere."))


@require_POST
@game_action
def move(request: HttpRequest, public_id: str, seen: Seen) -> Outcome:
    """Play the posted move (notation) on the board the player saw, then any automatic moves."""
    text = request.POST.get("move", "")
    if not text:
        raise Garbled
    try:
        parsed = Move.parse(text)
    except MoveSyntaxError:
        raise Garbled(_("“%(move)s” is not a move.") % {"move": echo(text)}) from None
    settings = autoplay_settings(request)
    return play.play_move(
        request.owner, public_id, seen.ply, seen.version, parsed, settings, pace=seen.pace
    )


@require_POST
@game_action
def to_foundation(request: HttpRequest, public_id: str, seen: Seen) -> Outcome:
    """Send the picked card (``pick``: ``w``, ``t3``) to the first foundation that takes it."""
    pick = request.POST.get("pick", "")
    if not pick:
        raise Garbled
    try:
        Move.parse(f"{pick}-f1")
    except MoveSyntaxError:
        raise Garbled(_("“%(pick)s” is not a card.") % {"pick": echo(pick)}) from None
    settings = autoplay_settings(request)
    return play.send_to_foundation(
        request.owner, public_id, seen.ply, seen.version, pick, settings, pace=seen.pace
    )


@require_POST
@game_action
def undo(request: HttpRequest, public_id: str, seen: Seen) -> Outcome:
    return play.undo(request.owner, public_id, seen.ply, seen.version, pace=seen.pace)


@require_POST
@game_action
def redo(request: HttpRequest, public_id: str, seen: Seen) -> Outcome:
    return play.redo(request.owner, public_id, seen.ply, seen.version, pace=seen.pace)


@require_POST
@game_action
def restart(request: HttpRequest, public_id: str, seen: Seen) -> Outcome | HttpResponse:
    if not _confirmed(request):
        question = _("Go back to the start of this deal?")
        return _ask(request, public_id, seen, question, _("Restart"))
    return play.restart(request.owner, public_id, seen.ply, seen.version, pace=seen.pace)


@require_POST
@game_action
def give_up(request: HttpRequest, public_id: str, seen: Seen) -> Outcome | HttpResponse:
    if not _confirmed(request):
        return _ask(request, public_id, seen, _("Give up this game?"), _("Give up"))
    return play.give_up(request.owner, public_id, seen.ply, seen.version, pace=seen.pace)


@require_POST
def autoplay(request: HttpRequest, public_id: str) -> HttpResponse:
    """Turn the automatic moves to the foundations on or off, for this game type."""
    game = game_or_404(request, public_id)
    value = request.POST.get("autoplay")
    if value not in ("on", "off"):
        return refuse(request, game, Garbled().message, 400)
    settings = dict(autoplay_settings(request))
    settings[game.variant] = value == "on"
    request.session[AUTOPLAY_KEY] = settings
    if value == "on":
        said = _("Automatic moves to the foundations are on.")
    else:
        said = _("Automatic moves to the foundations are off.")
    return answer_change(request, game, said)


def _confirmed(request: HttpRequest) -> bool:
    """Whether the player said yes to an action that cannot be undone: with htmx the browser
    asked (``hx-confirm``), without JavaScript a page asked first (``_ask``)."""
    return bool(request.htmx) or request.POST.get("confirm") == "yes"


def _ask(request: HttpRequest, public_id: str, seen: Seen, question: str, label: str):
    """The page that asks first, with the board the player saw."""
    game = game_or_404(request, public_id)
    context = {
        "question": question,
        "label": label,
        "action": request.path,
        "ply": seen.ply,
        "version": seen.version,
        "game_url": game_url(game),
    }
    return render(request, "games/confirm.html", context)
