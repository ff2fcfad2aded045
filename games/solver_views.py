"""The solver's pages: a hint, "can this still be won?" and "Finish" on a game.

Asking (a POST with the ply and version of the board the player sees) queues a search in the
background worker and answers at once, so a search never holds up a move: for htmx with a
"thinking" element that asks the answer URL (``?version=``, a GET) every half second until the
answer is there; without JavaScript with a redirect to that URL as a page, which reloads itself
while the search runs. The answer for a board that has changed since says it is out of date.
"Finish" plays a found win out through the services and answers like a move.

Games are looked up by owner as everywhere: another player's game id is a 404.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from . import services, solving
from .models import Analysis, Game
from .views import _act, _count, _game_or_404, _game_url, _garbled, _seen


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
def finish(request: HttpRequest, public_id: str) -> HttpResponse:
    """Play out the win found from the board seen; refused (the board as it is) when stale."""
    game = _game_or_404(request, public_id)
    seen = _seen(request)
    if seen is None:
        return _garbled(request, game)
    ply, version = seen
    return _act(request, game, lambda: solving.finish(game, ply, version))


def _search(request: HttpRequest, public_id: str, kind: str) -> HttpResponse:
    game = _game_or_404(request, public_id)
    if request.method == "GET":
        version = _count(request.GET.get("version", ""))
        if version is None:
            return _incomplete(request, game, kind)
        asked = solving.answer_of(game, kind, version)
        return _show(request, game, kind, solving.answer(game, asked))
    seen = _seen(request)
    if seen is None:
        return _incomplete(request, game, kind)
    ply, version = seen
    try:
        asked = solving.ask(game, ply, version, kind)
    except services.StalePly as stale:
        said = _("The board had moved on before you asked: ask again on the board as it is now.")
        return _show(request, stale.game, kind, solving.Answer("stale", said))
    except services.GameError as e:
        return _show(request, game, kind, solving.Answer("refused", str(e)), status=409)
    if not request.htmx:
        return redirect(f"{_url(kind, game)}?version={asked.version}")
    game.refresh_from_db()
    return _show(request, game, kind, solving.answer(game, asked))


def _incomplete(request: HttpRequest, game: Game, kind: str) -> HttpResponse:
    said = _("The request was incomplete: reload the page and try again.")
    return _show(request, game, kind, solving.Answer("refused", said), status=400)


def _url(kind: str, game: Game) -> str:
    return reverse(f"games:{kind}", args=[game.public_id])


def _show(
    request: HttpRequest, game: Game, kind: str, answer: solving.Answer, status: int = 200
) -> HttpResponse:
    """The answer: for htmx the element to swap in, else a page of its own."""
    context = {
        "game": game,
        "kind": kind,
        "answer": answer,
        "poll_url": f"{_url(kind, game)}?version={answer.version}",
        "finish_url": reverse("games:finish", args=[game.public_id]),
        "game_url": _game_url(game),
    }
    partial = request.htmx and not request.htmx.history_restore_request
    template = "games/assist.html#answer" if partial else "games/assist.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response
