"""The game page and its actions: pick, move, send to a foundation, undo, redo, restart, give
up, finish a certain win, the automatic moves' setting, and the catch-up poll.

Each action reads what the request says (the move, the ply and version of the board it was made
on, and with JavaScript the milliseconds the page was hidden since the last action, ``away``,
which the clock leaves out), calls its service with the player, and draws what the service
returns. The view never
reads the game first: the service reads it, by id and owner; a game of someone else's is a
404. Only a request too garbled to reach the service reads the game here, to show it.
"""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from solitaire import limits

from .. import selectors
from ..board import build_board, picks
from ..models import Game
from ..rules import Move, MoveSyntaxError
from ..services import play
from .htmx import (
    AUTOPLAY_KEY,
    answer,
    answer_error,
    answer_outcome,
    autoplay_settings,
    count,
    echo,
    game_url,
    garbled,
    owner_of,
    refuse,
    render_game,
    seen,
)


def game_or_404(request: HttpRequest, public_id: str, read=selectors.game_of):
    """The player's game ``public_id`` as ``read`` reads it (a selector taking the owner and
    the id: the game whole, or its version alone), or 404."""
    try:
        return read(owner_of(request), public_id)
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None


@require_GET
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
        message = _("Picked up %(card)s: choose where to put it.") % {"card": board.pick_label}
    return render_game(request, game, position, pick=pick, message=message)


@require_GET
@never_cache
@limits.per_address("poll-address", methods=("GET",))
@limits.per_game("poll-game")
def poll(request: HttpRequest, public_id: str) -> HttpResponse:
    """Whether the game moved on elsewhere (another device, another tab) since ``?version=``.

    An open game page asks every few seconds. While nothing changed the answer is 204 No
    Content; else the board as it is now, for htmx to swap in (without htmx, the game page).
    """
    current = game_or_404(request, public_id, selectors.version_of)
    version = count(request.GET.get("version", ""))
    if version == current:
        return HttpResponse(status=204)
    # News, or a garbled question: the game is read whole, for the board or the message.
    game = game_or_404(request, public_id)
    if version is None:
        return garbled(request, game)
    if not request.htmx:
        return redirect(game_url(game))
    return render_game(request, game, message=_("Caught up with moves made elsewhere."))


@require_POST
def move(request: HttpRequest, public_id: str) -> HttpResponse:
    """Play the posted move (notation) on the board the player saw, then any automatic moves."""
    board, text = seen(request), request.POST.get("move", "")
    if board is None or not text:
        return garbled(request, game_or_404(request, public_id))
    try:
        parsed = Move.parse(text)
    except MoveSyntaxError:
        message = _("“%(move)s” is not a move.") % {"move": echo(text)}
        return refuse(request, game_or_404(request, public_id), message, 400)
    return _act(request, public_id, play.play, *board, parsed, autoplay_settings(request))


@require_POST
def to_foundation(request: HttpRequest, public_id: str) -> HttpResponse:
    """Send the picked card (``pick``: ``w``, ``t3``) to the first foundation that takes it."""
    board, pick = seen(request), request.POST.get("pick", "")
    if board is None or not pick:
        return garbled(request, game_or_404(request, public_id))
    try:
        Move.parse(f"{pick}-f1")
    except MoveSyntaxError:
        message = _("“%(pick)s” is not a card.") % {"pick": echo(pick)}
        return refuse(request, game_or_404(request, public_id), message, 400)
    action = play.send_to_foundation
    return _act(request, public_id, action, *board, pick, autoplay_settings(request))


@require_POST
def undo(request: HttpRequest, public_id: str) -> HttpResponse:
    return _board_action(request, public_id, play.undo)


@require_POST
def redo(request: HttpRequest, public_id: str) -> HttpResponse:
    return _board_action(request, public_id, play.redo)


@require_POST
def restart(request: HttpRequest, public_id: str) -> HttpResponse:
    question = _("Go back to the start of this deal?")
    return _confirmed(request, public_id, play.restart, question, _("Restart"))


@require_POST
def give_up(request: HttpRequest, public_id: str) -> HttpResponse:
    return _confirmed(request, public_id, play.give_up, _("Give up this game?"), _("Give up"))


@require_POST
def play_out(request: HttpRequest, public_id: str) -> HttpResponse:
    """Finish: play out the win that is certain from this board (the button shows itself when
    there is one)."""
    return _board_action(request, public_id, play.finish)


@require_POST
def autoplay(request: HttpRequest, public_id: str) -> HttpResponse:
    """Turn the automatic moves to the foundations on or off, for this game type."""
    game = game_or_404(request, public_id)
    value = request.POST.get("autoplay")
    if value not in ("on", "off"):
        return garbled(request, game)
    settings = dict(autoplay_settings(request))
    settings[game.variant] = value == "on"
    request.session[AUTOPLAY_KEY] = settings
    if value == "on":
        said = _("Automatic moves to the foundations are on.")
    else:
        said = _("Automatic moves to the foundations are off.")
    return answer(request, game, said)


def _confirmed(request: HttpRequest, public_id: str, action, question: str, label: str):
    """An action that cannot be undone, once the player said yes: with htmx the browser asked
    (``hx-confirm``), without JavaScript a page asks first, with the board the player saw."""
    if request.htmx or request.POST.get("confirm") == "yes":
        return _board_action(request, public_id, action)
    board = seen(request)
    game = game_or_404(request, public_id)
    if board is None:
        return garbled(request, game)
    context = {
        "question": question,
        "label": label,
        "action": request.path,
        "ply": board[0],
        "version": board[1],
        "game_url": game_url(game),
    }
    return render(request, "games/confirm.html", context)


def _board_action(request: HttpRequest, public_id: str, action) -> HttpResponse:
    """An action that needs only the board the player saw (its ply and version)."""
    board = seen(request)
    if board is None:
        return garbled(request, game_or_404(request, public_id))
    return _act(request, public_id, action, *board)


def _act(request: HttpRequest, public_id: str, action, *args) -> HttpResponse:
    """Run a play service for the player on their game ``public_id`` and answer with what
    became of it."""
    away = count(request.POST.get("away") or "0")
    if away is None:
        return garbled(request, game_or_404(request, public_id))
    try:
        outcome = action(owner_of(request), public_id, *args, away=away)
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None
    except play.GameError as error:
        return answer_error(request, error)
    return answer_outcome(request, outcome)
