"""The solver's pages: a hint, "can this still be won?" and "Finish" on a game.

Asking (a POST with the ply and version of the board the player sees) queues a search in the
background worker and answers at once, so a search never holds up a move: for htmx with a
"thinking" element that asks the answer URL (``?version=``, a GET) every half second until the
answer is there; without JavaScript with a redirect to that URL as a page, which reloads itself
while the search runs. The answer for a board that has changed since says it is out of date;
one replaced by the player's newer search says so. A client (``search_client``) past its
limit of new searches (an answer already known, such as the next move of a win found, is not
counted), or a site whose queue is full, is answered at once with a 429, Retry-After and the
sentence in the answer's place (static/js/assist.js swaps it in), and nothing changes.
"Finish" plays a found win out through the services and answers like a move.

Games are looked up by owner as everywhere: another player's game id is a 404.
"""

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from solitaire import clock, limits

from ..models import Analysis, Game
from ..outcomes import GameError, Outcome, SearchBusy, StalePly, TooManySearches
from ..rules import DEAL, REDEAL, Move
from ..rules.played import split_move
from ..services import assist
from ..words import error_words, move_words
from .draw import game_url
from .edge import Garbled, Seen, game_action, game_or_404, or_404, seen, whole_number


@require_http_methods(["GET", "POST"])
@never_cache
def hint(request: HttpRequest, public_id: str) -> HttpResponse:
    """POST: ask for a hint on the board seen; GET ``?version=``: the hint asked for there."""
    return _search(request, public_id, Analysis.Kind.HINT)


@require_http_methods(["GET", "POST"])
@never_cache
def analysis(request: HttpRequest, public_id: str) -> HttpResponse:
    """POST: ask whether the board seen can still be won; GET ``?version=``: the answer."""
    return _search(request, public_id, Analysis.Kind.ANALYSIS)


@require_POST
@game_action
def finish(request: HttpRequest, public_id: str, seen: Seen) -> Outcome:
    """Finish: play out the win known from the board seen, certain (the board's own button)
    or found by a search (the answer's button, which says ``win=found``)."""
    found = request.POST.get("win") == "found"
    return assist.finish(
        request.owner, public_id, seen.ply, seen.version, found=found, pace=seen.pace
    )


def _search(request: HttpRequest, public_id: str, kind: str) -> HttpResponse:
    if request.method == "GET":
        version = whole_number(request.GET.get("version", ""))
        if version is None:
            return _incomplete(request, game_or_404(request, public_id), kind)
        game, asked = or_404(assist.answer_of, request.owner, public_id, kind, version)
        return _show(request, game, kind, search_answer(game, asked))
    try:
        board = seen(request)
    except Garbled:
        return _incomplete(request, game_or_404(request, public_id), kind)
    client = search_client(request)

    def limit() -> int:
        # Counted only when a new search is to be queued (assist.ask): a known answer is free.
        return limits.hit_or_hold("search", client, *settings.SOLVER_SEARCHES_PER_CLIENT)

    try:
        asked = or_404(
            assist.ask, request.owner, public_id, board.ply, board.version, kind, client, limit
        )
    except TooManySearches as over:
        wait = over.retry_after
        return _busy(request, over.game, kind, limits.wait_words(wait), wait)
    except StalePly as stale:
        said = _("The board had moved on before you asked: ask again on the board as it is now.")
        return _show(request, stale.game, kind, Answer("stale", said))
    except SearchBusy as busy:
        return _busy(request, busy.game, kind, busy_words(busy.retry_after), busy.retry_after)
    except GameError as error:
        return _show(request, error.game, kind, Answer("refused", error_words(error)), status=409)
    game = asked.game
    if not request.htmx:
        return redirect(f"{_url(kind, game)}?version={asked.version}")
    return _show(request, game, kind, search_answer(game, asked))


def search_client(request: HttpRequest) -> str:
    """Who asks, for the limit on searches and the queue's fair order: the account, else the
    client's address (a guest's session costs nothing to make, an address does)."""
    if request.user.is_authenticated:
        return f"account:{request.user.pk}"
    return limits.client_key(request)


def busy_words(seconds: int) -> str:
    return ngettext(
        "The solver is busy: try again in %(seconds)d second.",
        "The solver is busy: try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}


def _busy(request: HttpRequest, game: Game, kind: str, said: str, seconds: int) -> HttpResponse:
    """Not searched, for now: too many searches from this client, or the site's queue full.
    A 429 with Retry-After either way (a 503 would be logged, and mailed, as a server error
    each time), and nothing changed."""
    response = _show(request, game, kind, Answer("busy", said), status=429)
    response["Retry-After"] = str(seconds)
    return response


def _incomplete(request: HttpRequest, game: Game, kind: str) -> HttpResponse:
    said = Garbled().message
    return _show(request, game, kind, Answer("refused", said), status=400)


def _url(kind: str, game: Game) -> str:
    return reverse(f"games:{kind}", args=[game.public_id])


def _show(
    request: HttpRequest, game: Game, kind: str, answer: "Answer", status: int = 200
) -> HttpResponse:
    """The answer: for htmx the element to swap in, else a page of its own."""
    context = {
        "game": game,
        "kind": kind,
        "answer": answer,
        "poll_url": f"{_url(kind, game)}?version={answer.version}",
        "finish_url": reverse("games:finish", args=[game.public_id]),
        "game_url": game_url(game),
    }
    partial = request.htmx and not request.htmx.history_restore_request
    template = "games/assist.html#answer" if partial else "games/assist.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@dataclass
class Answer:
    """What the page shows of a search: its ``state``, in words, and the move to highlight."""

    state: str
    text: str
    move: str = ""
    #: The pick (``t3``, ``t3:2``, ``w``, ``f2``) or pile (``s``) the move starts from, and the
    #: pile it goes to: the page highlights both.
    source: str = ""
    target: str = ""
    version: int = 0
    #: Moves left to a win, when one is known ("Finish" plays them).
    win_length: int = 0
    #: Still waiting for the worker: the page asks again.
    pending: bool = False


def search_answer(game: Game, analysis: Analysis | None) -> Answer:
    """The answer to show for ``analysis`` on ``game`` as it is now."""
    if analysis is None:
        return Answer("none", _("Nothing was asked about this board."))
    if assist.replaced(analysis, game):
        return Answer("replaced", _("You asked for another search since: this one was stopped."))
    if analysis.version != game.version or analysis.status == Analysis.Status.STALE:
        return Answer(
            "stale",
            _("The board has changed since this was asked: the answer is out of date. Ask again."),
        )
    if analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING):
        if assist.abandoned(analysis, clock.now()):
            return Answer(
                "failed",
                _("No answer came: the search could not run. Try again in a while."),
            )
        return Answer("pending", _("Thinking…"), pending=True, version=analysis.version)
    if analysis.status == Analysis.Status.FAILED:
        return Answer("failed", _("The search stopped before it had an answer: ask again."))
    position = game.position()
    move = Move.parse(analysis.moves[0]) if analysis.moves else None
    said = move_words(position, move) if move is not None else ""
    shown = {"move": str(move or ""), "version": analysis.version}
    if move is not None:
        shown["source"], shown["target"] = highlight(move)
    hint = analysis.kind == Analysis.Kind.HINT
    if analysis.status == Analysis.Status.WON and move is None:
        return Answer("won", _("Every card is home already."))
    if analysis.status == Analysis.Status.WON:
        text = (
            _("This move leads to a win: %(move)s") if hint else _("Yes — next move: %(move)s")
        ) % {"move": said}
        return Answer("won", text, win_length=len(analysis.moves), **shown)
    if not hint:
        if analysis.status == Analysis.Status.LOST:
            return Answer("lost", _("No: no sequence of moves wins from here."))
        seconds = max(round(analysis.seconds), 1)
        text = ngettext(
            "Not sure: no win found in %(seconds)d second.",
            "Not sure: no win found in %(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds}
        return Answer("unknown", text)
    if move is None:
        return Answer("lost", _("No move is left: undo, or give up."))
    if analysis.status == Analysis.Status.LOST:
        text = _("No sequence of moves wins from here any more. Best guess: %(move)s")
    else:
        text = _("Best guess: %(move)s")
    return Answer("guess", text % {"move": said}, **shown)


def highlight(move: Move) -> tuple[str, str]:
    """The pick (as the board names it) or pile a move starts from, and the pile it goes to."""
    if move in (DEAL, REDEAL):
        return "s", ""
    source, count, target = split_move(move)
    return (source if count == 1 else f"{source}:{count}"), target
