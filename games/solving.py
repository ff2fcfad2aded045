"""The site side of the solver: hints, "can this still be won?", finishing a game the solver
has won, and the deals known to be winnable.

Every function here that changes a game locks its row first (``services._lock``; on SQLite
the transaction locks the database), and a request made on an older board (ply or version) is
refused with ``StalePly``. The searches themselves run in
the background worker (``games.tasks``): asking queues an ``Analysis`` row and a task in the
same transaction, the task searches the board without holding any lock, and the page asks for
the answer until it is there. A search is of one board (the game's version): once the game has
moved on, its answer is out of date and is never shown as a move.

Counting: every hint or analysis the player asks for (and is not refused) adds one to the
game's ``hint_count``, and so does "Finish"; the statistics' "wins without undo or hints"
leave such games out.
"""

import random
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from . import services
from .describe import card_label, moving_card, pile_label, split_move
from .models import Analysis, Game, WinnableDeal
from .owners import Owner
from .rules import DEAL, REDEAL, Move, Position, Record, RecordError, position_from_text, replay
from .rules.solver import heuristic_move, solutions, solve

#: A search still waiting or running after this long is taken as lost (a worker stopped): it
#: no longer counts against the player's limit, and asking again queues a new one.
ABANDONED = timedelta(minutes=2)
#: Fewer unplayed winnable deals than this for a player: search for more in the background.
LOW_WATER = 5
#: Deals tried by one background search for winnable deals.
DEAL_BATCH = 10
#: Said when "Only deals that can be won" finds none known: a random deal is dealt instead.
NO_WINNABLE_DEAL = gettext_lazy(
    "No deal of this game is known to be winnable yet (a search for some has started): "
    "this is a random deal."
)


class SearchBusy(services.GameError):
    def __init__(self) -> None:
        super().__init__(
            _("A search you asked for is still under way: wait for its answer, then ask again.")
        )


class NoWinKnown(services.GameError):
    def __init__(self) -> None:
        super().__init__(_("No win is known from this board: ask “Can this still be won?” first."))


# -- asking ---------------------------------------------------------------------------------


@transaction.atomic
def ask(game: Game, ply: int, version: int | None, kind: str) -> Analysis:
    """The search of ``kind`` for the board the player saw, queued unless one is there already.

    Counts one hint on the game. StalePly when the board is not the game's now, GameOver for a
    finished game, SearchBusy when the player already waits for other searches.
    """
    game = services._lock(game, ply, version)
    now = timezone.now()
    # Searches of this game's older boards are of no use any more: the worker skips them.
    game.analyses.pending().exclude(version=game.version).update(
        status=Analysis.Status.STALE, finished_at=now
    )
    analysis = game.analyses.filter(kind=kind, version=game.version).first()
    if analysis is not None and _abandoned(analysis, now):
        analysis.delete()
        analysis = None
    if analysis is None:
        waiting = _pending_of_player(game, now).count()
        if waiting >= settings.SOLVER_PENDING_PER_PLAYER:
            raise SearchBusy
        analysis = _known_win(game, kind) or _queue(game, kind)
    Game.objects.filter(pk=game.pk).update(hint_count=F("hint_count") + 1)
    return analysis


def answer_of(game: Game, kind: str, version: int) -> Analysis | None:
    """The search of ``kind`` asked for at ``version`` of ``game``, if any."""
    return game.analyses.filter(kind=kind, version=version).first()


def _pending_of_player(game: Game, now) -> QuerySet:
    return Analysis.objects.pending().filter(
        game__owner=game.owner,
        game__session_key=game.session_key,
        created_at__gt=now - ABANDONED,
    )


def _abandoned(analysis: Analysis, now) -> bool:
    pending = analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
    return (pending and analysis.created_at <= now - ABANDONED) or (
        analysis.status == Analysis.Status.FAILED
    )


def _known_win(game: Game, kind: str) -> Analysis | None:
    """A hint needs no search when a win from this board is known already: answered at once."""
    if kind != Analysis.Kind.HINT:
        return None
    win = game.analyses.filter(version=game.version, status=Analysis.Status.WON).first()
    if win is None:
        return None
    return Analysis.objects.create(
        game=game,
        kind=kind,
        ply=game.ply,
        version=game.version,
        status=Analysis.Status.WON,
        moves=win.moves,
        finished_at=timezone.now(),
    )


def _queue(game: Game, kind: str) -> Analysis:
    from .tasks import search  # the tasks module imports this one

    analysis = Analysis.objects.create(game=game, kind=kind, ply=game.ply, version=game.version)
    # In the same transaction as the row: both are stored, or neither.
    priority = 10 if kind == Analysis.Kind.HINT else 0
    search.using(priority=priority).enqueue(analysis.pk)
    return analysis


# -- searching (in the worker) --------------------------------------------------------------


def run_search(analysis_id: int) -> str:
    """Search the board of a queued analysis and store the answer; its status after."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update().select_related("game").filter(pk=analysis_id)
        ).first()
        if analysis is None or analysis.status != Analysis.Status.QUEUED:
            return analysis.status if analysis else "gone"
        game = analysis.game
        if game.version != analysis.version or game.is_finished:
            analysis.status = Analysis.Status.STALE
            analysis.finished_at = timezone.now()
            analysis.save(update_fields=["status", "finished_at"])
            return analysis.status
        analysis.status = Analysis.Status.RUNNING
        analysis.save(update_fields=["status"])
        snapshot = game.snapshot
    # The search holds no lock: the player may play on meanwhile (the answer is then stale).
    position = position_from_text(snapshot)
    hint = analysis.kind == Analysis.Kind.HINT
    seconds = settings.SOLVER_HINT_SECONDS if hint else settings.SOLVER_ANALYSIS_SECONDS
    result = solve(position, seconds=seconds)
    moves = [str(m) for m in result.moves]
    if hint and result.status != Analysis.Status.WON:
        guess = heuristic_move(position)
        moves = [str(guess)] if guess is not None else []
    Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING).update(
        status=result.status,
        moves=moves,
        nodes=result.nodes,
        seconds=result.seconds,
        finished_at=timezone.now(),
    )
    return result.status


# -- answers in words -----------------------------------------------------------------------


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


def answer(game: Game, analysis: Analysis | None) -> Answer:
    """The answer to show for ``analysis`` on ``game`` as it is now."""
    if analysis is None:
        return Answer("none", _("Nothing was asked about this board."))
    if analysis.version != game.version or analysis.status == Analysis.Status.STALE:
        return Answer(
            "stale",
            _("The board has changed since this was asked: the answer is out of date. Ask again."),
        )
    if analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING):
        if _abandoned(analysis, timezone.now()):
            return Answer(
                "failed",
                _("No answer came: the search could not run. Try again in a while."),
            )
        return Answer("pending", _("Thinking…"), pending=True, version=analysis.version)
    if analysis.status == Analysis.Status.FAILED:
        return Answer("failed", _("The search failed. Try again."))
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


def move_words(position: Position, move: Move) -> str:
    """``move`` in words, without playing it (so without telling what a face-down card is)."""
    if move == DEAL:
        return _("deal from the stock.")
    if move == REDEAL:
        return _("turn the waste over into the stock (redeal).")
    source, count, target = split_move(move)
    card = moving_card(position, source, count)
    words = {"card": card_label(card), "from": pile_label(source), "to": pile_label(target)}
    if count > 1:
        words["others"] = count - 1
        return (
            ngettext(
                "%(card)s and the card on it from %(from)s to %(to)s.",
                "%(card)s and the %(others)d cards on it from %(from)s to %(to)s.",
                count - 1,
            )
            % words
        )
    return _("%(card)s from %(from)s to %(to)s.") % words


def highlight(move: Move) -> tuple[str, str]:
    """The pick (as the board names it) or pile a move starts from, and the pile it goes to."""
    if move in (DEAL, REDEAL):
        return "s", ""
    source, count, target = split_move(move)
    return (source if count == 1 else f"{source}:{count}"), target


# -- finishing ------------------------------------------------------------------------------


@transaction.atomic
def finish(game: Game, ply: int, version: int | None) -> services.Outcome:
    """Play out the win a search found from the board the player saw, every move logged.

    Each move goes through ``services.play`` (checked by the engine, a row in the log), all in
    this one transaction: the game ends won, or nothing changes. Counts as one hint.
    """
    game = services._lock(game, ply, version)
    win = game.analyses.filter(version=game.version, status=Analysis.Status.WON).first()
    if win is None or not win.moves:
        raise NoWinKnown
    game.hint_count += 1
    game.save(update_fields=["hint_count"])
    position = game.position()
    for text in win.moves:
        outcome = services.play(game, game.ply, Move.parse(text), autoplay=False)
        game = outcome.game
        position = outcome.position
    said = ngettext(
        "Finished: played the %(count)d move of the win.",
        "Finished: played the %(count)d moves of the win.",
        len(win.moves),
    ) % {"count": len(win.moves)}
    return services.Outcome(game, position, [said])


# -- winnable deals -------------------------------------------------------------------------


def winnable_deals(variant: str) -> set[int]:
    """The deals of a game known to be winnable: the committed list and those found since."""
    known = {int(entry["deal"]) for entry in solutions(variant)}
    stored = WinnableDeal.objects.filter(variant=variant).values_list("deal", flat=True)
    return known | {int(deal) for deal in stored}


def winnable_deal(owner: Owner, variant: str) -> int | None:
    """A random winnable deal of ``variant``, one the player has not played if there is one;
    None when none is known. Asks for more in the background when few are left unplayed."""
    pool = winnable_deals(variant)
    played = {
        int(deal)
        for deal in Game.objects.owned_by(owner)
        .filter(variant=variant)
        .values_list("deal", flat=True)
        .distinct()
    }
    unplayed = pool - played
    if len(unplayed) < LOW_WATER:
        top_up(variant)
    choices = sorted(unplayed or pool)
    return random.choice(choices) if choices else None


def top_up(variant: str) -> bool:
    """Queue a search for more winnable deals of ``variant``, unless one is queued already."""
    from django_tasks_db.models import DBTaskResult

    from .tasks import find_winnable_deals

    waiting = DBTaskResult.objects.filter(
        task_path=find_winnable_deals.module_path, status__in=["READY", "RUNNING"]
    ).values_list("args_kwargs", flat=True)
    if any(args["args"][:1] == [variant] for args in waiting):
        return False
    start = random.randint(1, 10**9 - DEAL_BATCH)
    find_winnable_deals.using(priority=-10).enqueue(
        variant, start, DEAL_BATCH, settings.SOLVER_DEAL_SECONDS
    )
    return True


def store_winnable(variant: str, found: list[dict]) -> list[int]:
    """Store the deals of ``found`` ({"deal", "moves"}) whose moves replay to a win; the deals
    stored. A solution the engine does not accept as a win is dropped."""
    stored = []
    for entry in found:
        deal, moves = int(entry["deal"]), list(entry["moves"])
        try:
            won = replay(Record(variant, deal, moves)).is_won()
        except RecordError:
            won = False
        if not won:
            continue
        _row, created = WinnableDeal.objects.get_or_create(
            variant=variant, deal=str(deal), defaults={"moves": moves}
        )
        if created:
            stored.append(deal)
    return stored
