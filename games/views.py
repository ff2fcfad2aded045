"""The games' pages: thin views that read the request, check who may see what, call a service
and render a page, or for htmx just the board.

Every game is looked up by its owner: someone else's game id is a 404. Bad input (a garbled
form, an unknown move, an illegal one, a finished game) gets a clear message and a 4xx: for
htmx the board with the message (400 garbled, 409 not possible now, 422 illegal; the page's
htmx configuration swaps those in), without JavaScript the whole page. A stale ply (the game
moved on in another window) is not an error: the current board comes back with a note.
"""

import json
import secrets
from collections import defaultdict
from functools import lru_cache, partial

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from . import charts, services, solving, stats, store
from .board import build_board, card_moves, picks, pile_views, redeals_shown
from .describe import play_and_describe, spell_cards
from .forms import RANDOM_DEALS, NewGameForm, RecordForm, parse_deal_number
from .guide import BUILD_WORDS, DETAILS, PYSOLFC, SUMMARIES, layout
from .models import Game
from .models import Move as MoveRow
from .owners import owner_of, preload_session, session_to_read
from .rules import MAX_DEAL, VARIANTS, IllegalMove, Move, MoveSyntaxError, Record, RecordError
from .rules import replay as replay_record
from .templatetags import cards

#: The session key of the per-game-type "automatic moves to foundations" settings.
AUTOPLAY_KEY = "autoplay"
#: The longest move text worth echoing back in a message.
ECHO = 24
#: How many games in progress, and how many finished ones, "My games" lists.
MY_GAMES_PLAYING = 100
MY_GAMES_FINISHED = 30
#: The URL names of a game's actions: the board's forms and scripts post to them (and ask
#: ``poll`` whether the game moved on elsewhere).
ACTIONS = ("move", "to_foundation", "undo", "redo", "restart", "give_up", "autoplay", "poll")
#: The actions the table and the poll of a move's answer name.
TABLE_ACTIONS = ("move", "poll")
#: A game id that stands for any in a reversed URL (_game_url).
GAME_ID_MARK = "GameId"
#: How many games a page of the history lists.
HISTORY_PAGE = 50
#: The replay viewer's speeds: seconds a move stays in sight, the default first.
REPLAY_SPEEDS = (1.0, 2.0, 0.5, 0.25)


# -- pages ----------------------------------------------------------------------------------


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers and monitors: the process answers (no database, no session)."""
    return HttpResponse("ok\n", content_type="text/plain")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return _home(request, NewGameForm())


@require_GET
def rules(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in VARIANTS:
        raise Http404(_("There is no such game."))
    rules_of = VARIANTS[variant]
    return render(
        request,
        "games/rules.html",
        {
            "variant": rules_of,
            "summary": SUMMARIES[variant],
            "layout": layout(rules_of),
            "build": BUILD_WORDS[rules_of.build],
            "details": DETAILS.get(variant, []),
            "pysolfc": PYSOLFC.get(variant),
        },
    )


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    """Start a game of the posted game type: the posted deal number, or a random one."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    owner = owner_of(request, create=True)
    deal = form.cleaned_data["deal"]
    if deal is None and form.cleaned_data["winnable"]:
        deal = solving.winnable_deal(owner, form.cleaned_data["variant"])
        if deal is None:
            messages.info(request, solving.NO_WINNABLE_DEAL)
    deal = deal or secrets.randbelow(RANDOM_DEALS) + 1
    game = services.start_game(owner, form.cleaned_data["variant"], deal)
    return _go(request, _game_url(game))


@require_GET
def play_deal(request: HttpRequest, variant: str, deal: str) -> HttpResponse:
    """The shareable link to a deal: start (or resume, if untouched) a game of it."""
    if variant not in VARIANTS:
        raise Http404(_("There is no such game."))
    number = parse_deal_number(deal)
    if number is None:
        return render(
            request,
            "games/problem.html",
            {
                "problem": _(
                    "“%(deal)s” is not a deal number: a deal number is a whole number "
                    "from 1 to %(max)s."
                )
                % {"deal": _echo(deal), "max": MAX_DEAL}
            },
            status=400,
        )
    game = services.find_or_start_game(owner_of(request, create=True), variant, number)
    return redirect(_game_url(game))


@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """Start a game from a pasted or uploaded record, every move checked by the engine."""
    if request.method == "GET":
        return render(request, "games/import.html", {"form": RecordForm()})
    form = RecordForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            game = services.start_from_record(
                owner_of(request, create=True), form.cleaned_data["record"]
            )
        except RecordError as e:
            form.add_error(None, _("This record cannot be played: %(reason)s.") % {"reason": e})
        else:
            messages.success(request, _("The record is loaded: play on from its last move."))
            return redirect(_game_url(game))
    return render(request, "games/import.html", {"form": form}, status=400)


@require_GET
def game(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game page; ``?pick=t3:2`` shows those cards picked up, ready to put down."""
    game = _game_or_404(request, public_id)
    position = game.position()
    pick = request.GET.get("pick", "")
    if pick and (game.is_finished or pick not in picks(position)):
        return _render(
            request, game, message=_("Those cards cannot be picked up."), level="error", status=400
        )
    message = ""
    if pick:
        board = build_board(position, pick)
        message = _("Picked up %(card)s: choose where to put it.") % {"card": board.pick_label}
    return _render(request, game, position, pick=pick, message=message)


@require_GET
def record(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game as a NOTATION.md record, to download."""
    game = _game_or_404(request, public_id)
    moves = list(game.moves.order_by("ply").values_list("notation", flat=True))
    return _download(_record_json(game, moves), f"{game.variant}-{game.deal}-{game.public_id}")


@require_GET
@never_cache
def poll(request: HttpRequest, public_id: str) -> HttpResponse:
    """Whether the game moved on elsewhere (another device, another tab) since ``?version=``.

    An open game page asks every few seconds. While nothing changed the answer is 204 No
    Content, for one query on the game's row (besides the session's); else the board as it is
    now, for htmx to swap in (without htmx, the game page).
    """
    game = _game_or_404(request, public_id)
    version = _count(request.GET.get("version", ""))
    if version is None:
        return _garbled(request, game)
    if version == game.version:
        return HttpResponse(status=204)
    if not request.htmx:
        return redirect(_game_url(game))
    return _render(request, game, message=_("Caught up with moves made elsewhere."))


@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games in progress, newest first, to resume; and their recent finished ones.

    A signed-in player sees the same list on every device; a guest, their browser's games.
    """
    games = Game.objects.owned_by(owner_of(request))
    return render(
        request,
        "games/my_games.html",
        {
            "games": games.in_progress().order_by("-updated_at")[:MY_GAMES_PLAYING],
            # Newest finished first: a finished game is played no more, so the time it ended
            # is the last time it was played (and an index holds that time, not the other).
            "finished": games.finished().order_by("-finished_at", "-pk")[:MY_GAMES_FINISHED],
        },
    )


@require_GET
def my_records(request: HttpRequest) -> HttpResponse:
    """Every game of the player as one JSON file, oldest first.

    The file is ``{"version": 1, "player": ..., "exported": ..., "games": [record, ...]}``
    where each record is exactly what the game's own download gives: a NOTATION.md record
    (version, variant, deal, moves) with the game id, status and dates after it, so any one of
    them, saved alone, replays with ``manage.py replay``. Two queries, however many games.
    """
    owner = owner_of(request)
    games = Game.objects.owned_by(owner)
    logs: dict[int, list[str]] = defaultdict(list)
    rows = MoveRow.objects.filter(game__in=games).order_by("game_id", "ply")
    for game_id, notation in rows.values_list("game_id", "notation").iterator():
        logs[game_id].append(notation)
    records = [
        _record_json(game, logs[game.pk])
        for game in games.select_related("owner").order_by("created_at", "pk")
    ]
    now = timezone.now()
    head = {
        "version": 1,
        "player": owner.user.get_username() if owner.user is not None else None,
        "exported": now.isoformat(),
    }
    # The records are JSON already: spliced in, not parsed and written again.
    text = json.dumps(head)[:-1] + ', "games": [' + ", ".join(records) + "]}"
    return _download(text, f"patience-games-{now:%Y-%m-%d}")


@require_GET
def statistics(request: HttpRequest, variant: str = "") -> HttpResponse:
    """The player's statistics: every game together, or one game type (``variant``)."""
    if variant and variant not in VARIANTS:
        raise Http404(_("There is no such game."))
    figures = stats.statistics(owner_of(request))
    shown = figures.overall
    if variant:
        shown = figures.scope(variant) or stats.Figures(VARIANTS[variant])
        if not shown.weeks:
            shown.weeks = [stats.Week(start) for start in stats.week_starts(timezone.localdate())]
        name = VARIANTS[variant].name
        bars_title = _("%(name)s: games and wins per week") % {"name": name}
        line_title = _("%(name)s: win rate over time") % {"name": name}
    else:
        bars_title = _("All games: games and wins per week")
        line_title = _("All games: win rate over time")
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
        "results": _results(),
    }
    if (variant and variant not in VARIANTS) or (result and result not in stats.RESULTS):
        context["problem"] = _("There is no such game or result to show: choose from the lists.")
        return render(request, "games/history.html", context, status=400)
    games = stats.history(owner_of(request), variant=variant, result=result)
    page = Paginator(games, HISTORY_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context.update({"page": page, "query": query.urlencode()})
    return render(request, "games/history.html", context)


@require_GET
def replay(request: HttpRequest, public_id: str, ply: int | None = None) -> HttpResponse:
    """The game read-only at ``ply`` (0: the deal), to step through move by move.

    A ply past the game's last move goes to its last; for htmx, just the board and the steps.
    """
    game = _game_or_404(request, public_id)
    if ply is None or ply > game.ply:
        return redirect("games:replay", game.public_id, 0 if ply is None else game.ply)
    moves = list(game.moves.filter(ply__lte=ply).order_by("ply").values_list("notation", flat=True))
    position = replay_record(Record(game.variant, game.deal_number, moves[:-1]))
    said = play_and_describe(position, Move.parse(moves[-1])) if moves else ""
    variant = VARIANTS[game.variant]
    steps = {"first": 0, "back": max(ply - 1, 0), "forward": min(ply + 1, game.ply)}
    steps["last"] = game.ply
    context = {
        "game": game,
        "variant": variant,
        "ply": ply,
        "move": moves[-1] if moves else "",
        "said": said,
        "board": build_board(position, playable=False),
        "steps": {
            name: reverse("games:replay", args=[game.public_id, target])
            for name, target in steps.items()
        },
        "speeds": [(seconds, f"{seconds:g}") for seconds in REPLAY_SPEEDS],
        "slots": max(variant.columns, 11 if variant.stock_deal > 1 else 10),
    }
    fragment = request.htmx and not request.htmx.history_restore_request
    template = "games/replay.html#replay" if fragment else "games/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


# -- actions --------------------------------------------------------------------------------


@require_POST
def move(request: HttpRequest, public_id: str) -> HttpResponse:
    """Play the posted move (notation) on the board the player saw (its ply)."""

    def parsed(text: str) -> Move:
        try:
            return Move.parse(text)
        except MoveSyntaxError:
            raise ValueError(_("“%(move)s” is not a move.") % {"move": _echo(text)}) from None

    return _play(request, public_id, "move", parsed, services.play)


@require_POST
def to_foundation(request: HttpRequest, public_id: str) -> HttpResponse:
    """Send the picked card (``pick``: ``w``, ``t3``) to the first foundation that takes it."""

    def parsed(pick: str) -> str:
        try:
            Move.parse(f"{pick}-f1")
        except MoveSyntaxError:
            raise ValueError(_("“%(pick)s” is not a card.") % {"pick": _echo(pick)}) from None
        return pick

    return _play(request, public_id, "pick", parsed, services.send_to_foundation)


def _play(request: HttpRequest, public_id: str, field: str, parsed, service) -> HttpResponse:
    """A move posted as ``field``, read by ``parsed`` (ValueError with a message if garbled),
    played by ``service`` on the board the player saw, then any automatic moves.

    The game is read once, by the service (``GameRef``); only a refusal reads it again.
    """
    seen = _seen(request)
    text = request.POST.get(field, "")
    if seen is None or not text:
        return _garbled(request, _game_or_404(request, public_id))
    ply, version = seen
    try:
        what = parsed(text)
    except ValueError as e:
        return _refuse(request, _game_or_404(request, public_id), str(e), 400)
    game = _fresh(request, public_id)
    autoplay = partial(_autoplay, request)
    return _act(request, game, lambda: service(game, ply, what, autoplay=autoplay, version=version))


@require_POST
def undo(request: HttpRequest, public_id: str) -> HttpResponse:
    seen = _seen(request)
    if seen is None:
        return _garbled(request, _game_or_404(request, public_id))
    ply, version = seen
    game = _fresh(request, public_id)
    return _act(request, game, lambda: services.undo(game, ply, version=version))


@require_POST
def redo(request: HttpRequest, public_id: str) -> HttpResponse:
    seen = _seen(request)
    if seen is None:
        return _garbled(request, _game_or_404(request, public_id))
    ply, version = seen
    game = _fresh(request, public_id)
    return _act(request, game, lambda: services.redo(game, ply, version=version))


@require_POST
def restart(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game_or_404(request, public_id)
    return _act(request, game, lambda: services.restart(game))


@require_POST
def give_up(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game_or_404(request, public_id)
    return _act(request, game, lambda: services.give_up(game))


@require_POST
def autoplay(request: HttpRequest, public_id: str) -> HttpResponse:
    """Turn the automatic moves to the foundations on or off, for this game type."""
    game = _game_or_404(request, public_id)
    value = request.POST.get("autoplay")
    if value not in ("on", "off"):
        return _garbled(request, game)
    settings = dict(request.session.get(AUTOPLAY_KEY, {}))
    settings[game.variant] = value == "on"
    request.session[AUTOPLAY_KEY] = settings
    if value == "on":
        said = _("Automatic moves to the foundations are on.")
    else:
        said = _("Automatic moves to the foundations are off.")
    return _answer(request, game, said)


# -- helpers --------------------------------------------------------------------------------


def _echo(text: str) -> str:
    """The player's input to quote back in a message: whole, or cut with an ellipsis."""
    return text if len(text) <= ECHO else text[: ECHO - 1] + "\u2026"


def _game_or_404(request: HttpRequest, public_id: str) -> Game:
    """The player's game ``public_id`` (read as the moves read it: games/store.py), or 404.

    While the player's session is still to be read from the database, it is read with the game,
    in one statement, and who owns the game is then checked here.
    """
    session = session_to_read(request)
    if session is not None:
        game, data = store.read_game_and_session(public_id, session.session_key, session.model)
        preload_session(session, data)
        if game is not None and owner_of(request).owns(game):
            return game
        raise Http404(_("There is no such game."))
    try:
        return store.read_game(owner_of(request), public_id)
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None


def _fresh(request: HttpRequest, public_id: str) -> services.GameRef:
    """The player's game ``public_id`` as a move, an undo or a redo takes it: read now (404 if
    the player has none), not read again by the service."""
    game = _game_or_404(request, public_id)
    return services.GameRef(owner_of(request), public_id, game)


def _read(request: HttpRequest, game: Game | services.GameRef) -> Game:
    """The game itself, read now if the action named it by a ``GameRef``."""
    return game if isinstance(game, Game) else _game_or_404(request, game.public_id)


def _results() -> list[tuple[str, str]]:
    return [
        ("won", _("won")),
        ("lost", _("lost (given up or stuck)")),
        ("unfinished", _("unfinished")),
    ]


def _record_json(game: Game, moves: list[str]) -> str:
    """The game's NOTATION.md record with its id, status, dates and player after the moves."""
    extra = {
        "game": game.public_id,
        "status": game.status,
        "created": game.created_at.isoformat(),
        "seconds_played": game.seconds_played,
    }
    if game.owner is not None:
        extra["player"] = game.owner.get_username()
    if game.finished_at is not None:
        extra["finished"] = game.finished_at.isoformat()
    return Record(game.variant, game.deal_number, moves).to_json(**extra)


def _download(text: str, name: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


def _game_url(game: Game) -> str:
    """The game's page (what a move's answer links its cards to)."""
    return _game_action_url("game", game.public_id)


def _game_urls(game: Game) -> dict[str, str]:
    """The URLs of the game's actions (``ACTIONS``), by name."""
    return {name: _game_action_url(name, game.public_id) for name in ACTIONS}


def _game_action_url(name: str, public_id: str) -> str:
    """The URL ``games:<name>`` of the game ``public_id``: its id between the two halves of the
    URL reversed once (``reverse`` cost a tenth of a move's answer, and a game page reverses
    nine)."""
    before, after = _url_around(name, get_script_prefix(), get_urlconf(), get_language())
    return f"{before}{public_id}{after}"


@lru_cache(maxsize=256)
def _url_around(
    name: str, script_prefix: str, urlconf: object, language: str | None
) -> tuple[str, str]:
    """What comes before and after a game's id in the URL ``games:<name>``, for this script
    prefix, URLconf and language (all that ``reverse`` depends on). A game id is written into
    its URLs as it is (``GameIdConverter``: URL-safe characters only)."""
    url = reverse(f"games:{name}", args=[GAME_ID_MARK])
    before, _mark, after = url.rpartition(GAME_ID_MARK)
    return before, after


def _go(request: HttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _seen(request: HttpRequest) -> tuple[int, int | None] | None:
    """The ply and version of the board the player saw, or None when either is garbled.

    The version is None when the request does not send one (older pages and scripts send only
    the ply).
    """
    ply = _count(request.POST.get("ply", ""))
    text = request.POST.get("version")
    version = None if text is None else _count(text)
    if ply is None or (text is not None and version is None):
        return None
    return ply, version


def _count(text: str) -> int | None:
    """The whole number ``text`` writes (digits only, a sane length), or None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text)


def _autoplay(request: HttpRequest, variant: str) -> bool:
    """The player's setting for this game type: on by default, except for Forty Devils."""
    setting = request.session.get(AUTOPLAY_KEY, {}).get(variant)
    if isinstance(setting, bool):
        return setting
    return not VARIANTS[variant].devils


def _act(request: HttpRequest, game: Game | services.GameRef, action) -> HttpResponse:
    """Run a service ``action`` on ``game`` and answer with what became of it.

    ``game`` may be a ``GameRef`` (a 404 when the player has no such game).
    """
    try:
        outcome = action()
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None
    except services.StalePly as stale:
        return _answer(request, stale.game, str(stale), level="warning")
    except IllegalMove as e:
        message = _("That move is not allowed: %(reason)s.") % {"reason": spell_cards(str(e))}
        return _refuse(request, _read(request, game), message)
    except services.GameError as e:
        return _refuse(request, _read(request, game), str(e), 409)
    said = " ".join(outcome.said)
    if _from_htmx(request) and outcome.changed is not None:
        return _render_changes(outcome, said)
    return _answer(request, outcome.game, said, position=outcome.position)


def _from_htmx(request: HttpRequest) -> bool:
    """``bool(request.htmx)``, from the header itself: ``request.htmx`` parses every header of
    the request into ``request.headers`` first, a cost a move's answer need not pay."""
    return request.META.get("HTTP_HX_REQUEST") == "true"


def _answer(request: HttpRequest, game: Game, said: str, *, level="success", position=None):
    """After a change: the board for htmx, else back to the game page (POST/redirect/GET)."""
    if request.htmx:
        return _render(request, game, position, message=said, level=level)
    messages.add_message(
        request, messages.WARNING if level == "warning" else messages.SUCCESS, said
    )
    return redirect(_game_url(game))


def _refuse(request: HttpRequest, game: Game, message: str, status: int = 422) -> HttpResponse:
    return _render(request, game, message=message, level="error", status=status)


def _garbled(request: HttpRequest, game: Game) -> HttpResponse:
    return _refuse(
        request, game, _("The request was incomplete: reload the page and try again."), 400
    )


def _render(
    request: HttpRequest,
    game: Game,
    position=None,
    *,
    pick: str = "",
    message: str = "",
    level: str = "success",
    status: int = 200,
) -> HttpResponse:
    """The game page, or for htmx (not restoring history) the board and the message."""
    position = position if position is not None else game.position()
    variant = VARIANTS[game.variant]
    context = {
        "game": game,
        "variant": variant,
        "board": build_board(position, pick, playable=not game.is_finished),
        "game_url": _game_url(game),
        "urls": _game_urls(game),
        "autoplay": _autoplay(request, game.variant),
        "message": message,
        "level": level,
        "share_url": request.build_absolute_uri(
            reverse("games:play_deal", args=[game.variant, game.deal])
        ),
        "slots": max(variant.columns, 11 if variant.stock_deal > 1 else 10),
    }
    fragment = request.htmx and not request.htmx.history_restore_request
    if not fragment:
        # The whole page only: a move's board partial costs no query for it.
        context["deal_record"] = stats.deal_record(owner_of(request), game)
    template = "games/play.html#board-response" if fragment else "games/play.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _render_changes(outcome: services.Outcome, said: str) -> HttpResponse:
    """The htmx answer to moves played or taken back on a game that stays in play.

    Only what they changed, all out of band (the headers say to swap nothing else): the
    table's state (ply, version, redo, the new list of legal moves), the piles they touched,
    the counters and the announcement; play.js brings the controls up to date from the
    table's state. A move touches two piles or three, so the answer is a fraction of a whole
    board; it is written by the board's own tags (games/templatetags/cards.py) without the
    template engine, whose own cost was more than the rest of the answer's.
    """
    game, position = outcome.game, outcome.position
    game_url = _game_url(game)
    html = "\n".join(
        [
            cards.table_state(game, card_moves(position), True),
            cards.piles(pile_views(position, outcome.changed), game_url, True),
            cards.game_info(game, redeals_shown(position), True),
            f'<div id="announce" hx-swap-oob="innerHTML">{cards.announcement((), said)}</div>',
        ]
    )
    response = HttpResponse(html)
    response["HX-Reswap"] = "none"
    response["Vary"] = "HX-Request"  # as patch_vary_headers would say it on a new answer
    return response


def _home(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    games = Game.objects.owned_by(owner_of(request)).in_progress().order_by("-updated_at")[:50]
    variants = [(v, SUMMARIES[v.id]) for v in VARIANTS.values()]
    return render(
        request,
        "games/home.html",
        {"variants": variants, "form": form, "games": games},
        status=status,
    )
