"""Game records (NOTATION.md): a game's to download, all of a player's, and a game started
from a pasted or uploaded one."""

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from solitaire import clock, limits

from ..forms import RecordForm
from ..models import Game
from ..rules import Kept, Record, RecordError
from ..selectors.games import game_of_record, log_of, logs_of
from ..services import play
from ..words import record_error_words
from .draw import game_url
from .edge import game_or_404
from .player import with_session

#: A refused record longer than this is not shown back in the form.
ECHO_RECORD = 2000


@require_GET
def record(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game as a NOTATION.md record, to download."""
    game = game_or_404(request, public_id)
    text = _record_json(game, log_of(game))
    return _download(text, f"{game.variant}-{game.deal}-{game.public_id}")


@require_GET
def my_records(request: HttpRequest) -> HttpResponse:
    """Every game of the player as one JSON file, oldest first.

    The file is ``{"version": 1, "player": ..., "exported": ..., "games": [record, ...]}``
    where each record is exactly what the game's own download gives: a NOTATION.md record
    (version, variant, deal, moves, and what it keeps of the game) with the game id, status and
    dates after it, so any one of them, saved alone, replays with ``manage.py replay`` and
    imports as it was. Two queries, however many games.
    """
    owner = request.owner
    games, logs = logs_of(owner)
    records = [_record_json(game, logs.get(game.pk, [])) for game in games]
    now = clock.now()
    head = {
        "version": 1,
        "player": owner.user.get_username() if owner.user is not None else None,
        "exported": now.isoformat(),
    }
    # The records are JSON already: spliced in, not parsed and written again.
    text = json.dumps(head)[:-1] + ', "games": [' + ", ".join(records) + "]}"
    return _download(text, f"patience-games-{now:%Y-%m-%d}")


@require_http_methods(["GET", "POST"])
@limits.per_address("import-address")
def import_record(request: HttpRequest) -> HttpResponse:
    """Start a game from a pasted or uploaded record, every move checked by the engine; the
    record of a game the player has already opens that game."""
    if request.method == "GET":
        return render(request, "games/import.html", {"form": RecordForm()})
    form = RecordForm(request.POST, request.FILES)
    if form.is_valid():
        owner, record = with_session(request), form.cleaned_data["record"]
        known = game_of_record(owner, record)
        if known is not None:
            messages.info(
                request, _("You have this game already: here it is, as you left it, not a copy.")
            )
            return redirect(game_url(known))
        try:
            game = play.start_from_record(owner, record)
        except RecordError as e:
            reason = record_error_words(e)
            form.add_error(
                None, _("This record cannot be played: %(reason)s.") % {"reason": reason}
            )
        else:
            messages.success(request, _("The record is loaded: play on from its last move."))
            return redirect(game_url(game))
    if len(form.data.get("text", "")) > ECHO_RECORD:
        # What was refused is the player's own: a long one is not sent back whole.
        form.data = form.data.copy()
        form.data["text"] = ""
    return render(request, "games/import.html", {"form": form}, status=400)


def _record_json(game: Game, log: list[tuple[str, bool]]) -> str:
    """The game's NOTATION.md record, with what it keeps of the game (which moves were
    automatic, how many Finish played, the time, hints and undos: ``Kept``) and its id, status,
    dates and player after the moves."""
    kept = Kept(
        automatic=tuple(n for n, (_move, automatic) in enumerate(log, 1) if automatic),
        finish=game.finish_ply,
        milliseconds=game.milliseconds_played,
        hints=game.hint_count,
        undos=game.undo_count,
    )
    extra = {
        "game": game.public_id,
        "status": game.status,
        "created": game.created_at.isoformat(),
    }
    if game.owner is not None:
        extra["player"] = game.owner.get_username()
    if game.finished_at is not None:
        extra["finished"] = game.finished_at.isoformat()
    moves = [move for move, _automatic in log]
    return Record(game.variant, game.deal_number, moves, kept).to_json(**extra)


def _download(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response
