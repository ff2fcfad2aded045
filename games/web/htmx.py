"""What the game views share: who the player is, what a request says of the board it was made
on, and the answers (the game page, for htmx the board, or only what a move changed).

Bad input (a garbled form, an unknown move, an illegal one, a finished game) gets a clear
message and a 4xx: for htmx the board with the message (400 garbled, 409 not possible now, 422
illegal; the page's htmx configuration swaps those in), without JavaScript the whole page. A
stale board (the game moved on in another window) is not an error: the current board comes
back with a note.
"""

from functools import lru_cache

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from .. import selectors
from ..board import build_board, card_moves, pile_views, redeals_shown
from ..models import Game
from ..owners import Owner
from ..rules import VARIANTS
from ..services import play
from ..words import error_words, outcome_words
from .motion import Motion, motion_of

#: The session key of the per-game-type "automatic moves to foundations" settings.
AUTOPLAY_KEY = "autoplay"
#: The session key of the day the session was last renewed (``owner_of``).
RENEWED_KEY = "renewed"
#: The longest input worth echoing back in a message.
ECHO = 24
#: The URL names of a game's actions: the board's forms and scripts post to them (and ask
#: ``poll`` whether the game moved on elsewhere).
ACTIONS = (
    "move",
    "to_foundation",
    "undo",
    "redo",
    "restart",
    "give_up",
    "play_out",
    "autoplay",
    "poll",
)


def owner_of(request: HttpRequest, *, create: bool = False) -> Owner:
    """The player making ``request``.

    A guest's games hang on their session key; ``create`` makes sure one exists (a guest about
    to start a game), otherwise a guest without a session owns nothing. A session in use is
    renewed once a day (``SESSION_COOKIE_AGE`` from then), so a guest who keeps playing never
    loses their games to a session that expires a year after it was first written.
    """
    session = request.session
    # Read first: reading loads the session, and a key with no live session (expired, or
    # never given) is forgotten then, so that it is never taken for a guest's.
    renewed = session.get(RENEWED_KEY)
    today = timezone.localdate().isoformat()
    if session.session_key is None and create:
        session[RENEWED_KEY] = today
        session.save()
    elif session.session_key is not None and renewed != today:
        session[RENEWED_KEY] = today  # modified: saved, and its cookie sent, this once
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    return Owner(session_key=session.session_key or "")


def autoplay_settings(request: HttpRequest) -> dict[str, bool]:
    """The player's "automatic moves to foundations" settings, by game type."""
    settings = request.session.get(AUTOPLAY_KEY, {})
    return settings if isinstance(settings, dict) else {}


def count(text: str) -> int | None:
    """The whole number ``text`` writes (digits only, a sane length), or None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text)


def seen(request: HttpRequest) -> tuple[int, int] | None:
    """The ply and version of the board the player saw (#table-state: every action sends
    them), or None when either is missing or garbled."""
    ply = count(request.POST.get("ply", ""))
    version = count(request.POST.get("version", ""))
    if ply is None or version is None:
        return None
    return ply, version


def echo(text: str) -> str:
    """The player's input to quote back in a message: whole, or cut with an ellipsis."""
    return text if len(text) <= ECHO else text[: ECHO - 1] + "\u2026"


def game_url(game: Game) -> str:
    return _url(get_script_prefix(), "games:game", game.public_id)


# A move's answer links its cards to the game, and ``reverse`` cost about 10 µs a call: a
# game's URLs are kept per process, by the script prefix the site is served under (the WSGI
# handler sets it for each request), as a player makes many moves in one game.
@lru_cache(maxsize=4096)
def _url(prefix: str, name: str, public_id: str) -> str:
    return reverse(name, args=[public_id])


def go(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def answer_outcome(request: HttpRequest, outcome: play.Outcome) -> HttpResponse:
    """The answer to an action that changed the game: for htmx only the piles it touched
    (when the game stays in play) or the board, else back to the game page."""
    said = outcome_words(outcome)
    if request.htmx and outcome.changed is not None:
        return render_changes(request, outcome, said)
    motion = motion_of(outcome)
    return answer(request, outcome.game, said, position=outcome.position, motion=motion)


def answer_error(request: HttpRequest, error: play.GameError) -> HttpResponse:
    """The answer to a refused action: a stale board is the current board with a note, a
    refused move a 422, anything else not possible now a 409."""
    said = error_words(error)
    if isinstance(error, play.StalePly):
        return answer(request, error.game, said, level="warning")
    status = 422 if isinstance(error, play.Refused | play.NotOnAFoundation) else 409
    return refuse(request, error.game, said, status)


def answer(
    request: HttpRequest, game: Game, said: str, *, level="success", position=None, motion=None
):
    """After a change: the board for htmx (with the ``motion`` of the cards that travelled),
    else back to the game page (POST/redirect/GET)."""
    if request.htmx:
        return render_game(request, game, position, message=said, level=level, motion=motion)
    messages.add_message(
        request, messages.WARNING if level == "warning" else messages.SUCCESS, said
    )
    return redirect(game_url(game))


def refuse(request: HttpRequest, game: Game, message: str, status: int = 422) -> HttpResponse:
    return render_game(request, game, message=message, level="error", status=status)


def garbled(request: HttpRequest, game: Game) -> HttpResponse:
    return refuse(
        request, game, _("The request was incomplete: reload the page and try again."), 400
    )


def render_game(
    request: HttpRequest,
    game: Game,
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
        **_table(request, game),
        "board": build_board(position, pick, playable=not game.is_finished),
        "message": message,
        "level": level,
        "share_url": request.build_absolute_uri(
            reverse("pages:play_deal", args=[game.variant, game.deal])
        ),
        "slots": max(variant.columns, 11 if variant.stock_deal > 1 else 10),
        "motion": motion or Motion(),
    }
    fragment = request.htmx and not request.htmx.history_restore_request
    if not fragment:
        context["deal_record"] = selectors.deal_record(owner_of(request), game)
    if game.status == Game.Status.WON:
        context["win"] = selectors.win_panel(owner_of(request), game)
    template = "games/play.html#board-response" if fragment else "games/play.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def render_changes(request: HttpRequest, outcome: play.Outcome, said: str) -> HttpResponse:
    """The htmx answer to moves played or taken back on a game that stays in play: only what
    they changed, all out of band (the header says to swap nothing else): the table's state
    (ply, version, the legal moves), the piles they touched, the counters, the cards' motion,
    the announcement, and the undo, redo and restart buttons or the Finish button when one of
    them became possible or impossible. A move touches two piles or three: a fraction of a
    whole board."""
    game, position = outcome.game, outcome.position
    own, redo, finish = outcome.before
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
        "play_out_url": None,
    }
    if (own == 0) != (game.player_moves == 0) or redo != bool(game.redo):
        # Undo, redo or restart became possible, or impossible: they come again.
        context["urls"] = {name: _action_url(name, game) for name in ("undo", "redo", "restart")}
    if finish != bool(game.finish):
        # The win became certain (Finish shows itself), or no longer is (after an undo).
        context["play_out_url"] = _action_url("play_out", game)
    # Drawn without the request's context processors: nothing here needs them (the buttons
    # post the table's form), and they cost as much as the rest of the answer.
    response = HttpResponse(render_to_string("games/play.html#move-answer", context))
    response["HX-Reswap"] = "none"
    patch_vary_headers(response, ["HX-Request"])
    return response


def _action_url(name: str, game: Game) -> str:
    return _url(get_script_prefix(), f"games:{name}", game.public_id)


def _table(request: HttpRequest, game: Game) -> dict:
    """What the board and a move's answer both draw: the game, its URLs, the settings."""
    return {
        "game": game,
        "variant": VARIANTS[game.variant],
        "game_url": game_url(game),
        "urls": {name: _action_url(name, game) for name in ACTIONS},
        "autoplay": play.autoplay_on(autoplay_settings(request), game),
    }
