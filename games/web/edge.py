"""The edge between the web and the services: what a request says, the one place a game's
action is run and answered, and what the game page gathers before it is drawn.

An action view (``@game_action``) reads what its request says and returns what its service
returns. The edge reads the board the player saw (``ply``, ``version``) and the milliseconds
the page was hidden since the last action (``away``: the clock leaves them out), and answers:
a game the player does not have is a 404 (``or_404``), each refusal of the services has its
status in ``REFUSALS``, and a change is drawn (games/web/draw.py).

Bad input (a garbled form, an unknown move, an illegal one, a finished game) gets a clear
message and a 4xx: for htmx the board with the message (400 garbled, 409 not possible now, 422
illegal; the page's htmx configuration swaps those in; the page's script asks for them as
answers like any other, 200 with the status in X-Refused), without JavaScript the whole page. A
stale board (the game moved on in another window) is not an error: the current board comes
back with a note.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from solitaire import limits

from .. import outcomes
from ..models import Game
from ..outcomes import GameError, Outcome
from ..pace import NO_PACE, Pace, drawn_at
from ..rules import VARIANTS, Variant
from ..selectors.daily import day_of_game
from ..selectors.deals import deal_grade_words, grade_known
from ..selectors.games import game_of
from ..selectors.stats import deal_record, win_panel
from ..words import error_words, outcome_words
from .draw import Gathered, draw_changes, draw_game, game_url, go, is_fragment
from .motion import motion_of
from .player import autoplay_settings

#: The longest input worth echoing back in a message.
ECHO = 24
#: The 404's words, once each: a game the player does not have, a kind of game the site does
#: not have.
NO_SUCH_GAME = gettext_lazy("There is no such game.")
NO_SUCH_GAME_TYPE = pgettext_lazy("a kind of game", "There is no such game.")
#: The status of each refusal of the services: a stale board is no error (the board as it
#: now is, with a note), a move the rules refuse is a 422, anything else not possible now a
#: 409. A refusal not named here answers as its nearest named base class.
REFUSALS: dict[type[GameError], int] = {
    outcomes.StalePly: 200,
    outcomes.Refused: 422,
    outcomes.NotOnAFoundation: 422,
    GameError: 409,
    outcomes.GameOver: 409,
    outcomes.NothingToUndo: 409,
    outcomes.NothingToRedo: 409,
    outcomes.TooLong: 409,
    outcomes.NoWinKnown: 409,
    # The search's own views answer these with the wait in words and Retry-After.
    outcomes.SearchBusy: 429,
    outcomes.TooManySearches: 429,
}


class Garbled(Exception):
    """The request does not say what an action needs: answered with ``message`` and
    ``status`` over the game as it is."""

    def __init__(self, message: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.message = message or _("The request was incomplete: reload the page and try again.")
        self.status = status


@dataclass(frozen=True)
class Seen:
    """What every action posts (#table-state): the ply and version of the board the player
    saw, and what it says of the gap since the last action (``pace``: the milliseconds the
    page was hidden, and when the server drew that board)."""

    ply: int
    version: int
    pace: Pace = NO_PACE


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes (digits only, a sane length), or None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text)


def seen(request: HttpRequest) -> Seen:
    """The board the request was made on; ``Garbled`` when a figure is missing or garbled."""
    ply = whole_number(request.POST.get("ply", ""))
    version = whole_number(request.POST.get("version", ""))
    away = whole_number(request.POST.get("away") or "0")
    if ply is None or version is None or away is None:
        raise Garbled
    return Seen(ply, version, Pace(away, drawn_at(request.POST.get("drawn", ""))))


def echo(text: str) -> str:
    """The player's input to quote back in a message: whole, or cut with an ellipsis."""
    return text if len(text) <= ECHO else text[: ECHO - 1] + "\u2026"


def or_404[T](read: Callable[..., T], *args, **kwargs) -> T:
    """``read(*args, **kwargs)``, a service or selector that reads a game by its owner: a
    404 when the owner has no such game."""
    try:
        return read(*args, **kwargs)
    except Game.DoesNotExist:
        raise Http404(NO_SUCH_GAME) from None


def game_or_404(request: HttpRequest, public_id: str, read=game_of):
    """The player's game ``public_id`` as ``read`` reads it (a selector taking the owner and
    the id: the game whole, or its version alone), or 404."""
    return or_404(read, request.owner, public_id)


def variant_or_404(variant: str) -> Variant:
    """The game type ``variant`` names, or 404."""
    if variant not in VARIANTS:
        raise Http404(NO_SUCH_GAME_TYPE)
    return VARIANTS[variant]


def game_action(view: Callable[[HttpRequest, str, Seen], Outcome | HttpResponse]):
    """An action on the player's game: ``view(request, public_id, seen)`` reads what else its
    request says (raising ``Garbled`` if it cannot) and returns what its service returned, an
    ``Outcome``, which is answered here; or a response of its own."""

    @wraps(view)
    def act(request: HttpRequest, public_id: str) -> HttpResponse:
        # Actions on one game at a pace no person keeps up (settings.LIMITS["action-game"]):
        # a script playing a found line, not a player.
        wait = limits.hit_or_hold("action-game", public_id, *settings.LIMITS["action-game"])
        if wait:
            return limits.too_many(request, wait)
        try:
            done = view(request, public_id, seen(request))
        except Garbled as garbled:
            return refuse(request, game_or_404(request, public_id), garbled.message, garbled.status)
        except Game.DoesNotExist:
            raise Http404(NO_SUCH_GAME) from None
        except GameError as error:
            return answer_refusal(request, error)
        if isinstance(done, HttpResponse):
            return done
        return answer_outcome(request, done)

    return act


def answer_outcome(request: HttpRequest, outcome: Outcome) -> HttpResponse:
    """The answer to an action that changed the game: for htmx only the piles it touched
    (when the game stays in play) or the board, else back to the game page."""
    said = outcome_words(outcome)
    if request.htmx and outcome.changed is not None:
        return draw_changes(outcome, said)
    motion = motion_of(outcome)
    return answer_change(request, outcome.game, said, position=outcome.position, motion=motion)


def answer_refusal(request: HttpRequest, error: GameError) -> HttpResponse:
    """The answer to a refused action, with the status ``REFUSALS`` gives it."""
    said = error_words(error)
    status = next(REFUSALS[kind] for kind in type(error).__mro__ if kind in REFUSALS)
    if status == 200:
        return answer_change(request, error.game, said, level="warning")
    return refuse(request, error.game, said, status)


def answer_change(
    request: HttpRequest, game: Game, said: str, *, level="success", position=None, motion=None
) -> HttpResponse:
    """After a change: the board for htmx (with the ``motion`` of the cards that travelled),
    else back to the game page (POST/redirect/GET)."""
    if request.htmx:
        return show_game(request, game, position, message=said, level=level, motion=motion)
    messages.add_message(
        request, messages.WARNING if level == "warning" else messages.SUCCESS, said
    )
    return redirect(game_url(game))


#: The request header with which the game page's script (static/js/play.js) asks for a refusal
#: as an answer like any other: 200, with the refusal's status in ``X-Refused``. A refused move
#: is an answer the page expects, and the browser logs every 4xx as a failed load.
REFUSAL_AS_ANSWER = "X-Refusal-As-Answer"


def refuse(request: HttpRequest, game: Game, message: str, status: int = 422) -> HttpResponse:
    response = show_game(request, game, message=message, level="error", status=status)
    if is_fragment(request) and request.headers.get(REFUSAL_AS_ANSWER) == "yes":
        response["X-Refused"] = str(response.status_code)
        response.status_code = 200
    return response


def show_game(request: HttpRequest, game: Game, position=None, **drawing) -> HttpResponse:
    """The game page or the board (``draw_game``), with what it shows beside the board
    gathered here: the automatic moves' setting, the player's record on the deal (the whole
    page only), the won panel, the daily deal the game belongs to."""
    settings = autoplay_settings(request)
    whole = not is_fragment(request)
    gathered = Gathered(
        autoplay=game.autoplay_on(settings),
        deal_record=deal_record(request.owner, game) if whole else None,
        win=win_panel(request.owner, game) if game.status == Game.Status.WON else None,
        grade=deal_grade_words(grade_known(game.variant, game.deal)) if whole else "",
        daily=day_of_game(request.owner, game) if whole or game.is_finished else None,
    )
    return draw_game(request, game, gathered, position, **drawing)


#: The field a form that opens a game sends when the page's script runs (static/js/app.js):
#: the answer may then be the game page itself, whose script names its address.
PAGE_HERE = "answer"


def open_game(request: HttpRequest, game: Game, *, here: bool) -> HttpResponse:
    """A game just opened (started or resumed): its page in this answer when ``here`` (one
    request, not two: the page names its own address, ``<link rel="canonical">``, and its
    script puts it in the address bar, so that a reload or a bookmark is the game's), else
    a redirect to it. For htmx, the browser is told to go there."""
    if request.htmx:
        return go(request, game_url(game))
    if here:
        return show_game(request, game)
    return redirect(game_url(game))


def page_here(request: HttpRequest) -> bool:
    """Whether a posted form that opens a game was sent by a page whose script runs: only then
    may the game page answer the post, since its script takes the post out of the reload."""
    return request.POST.get(PAGE_HERE) == "page"
