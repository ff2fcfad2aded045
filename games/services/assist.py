"""The site side of the solver: hints, "can this still be won?", finishing a game the solver
has won, and the deals known to be winnable.

Every function here reads its game by owner and id as the play services do, refuses a request
made on an older board (ply or version) with ``StalePly``, and writes the game only if it is
still at the version it read. The searches themselves run in
the background worker (``games.tasks``): asking queues an ``Analysis`` row and a task in the
same transaction, the task searches the board without holding any lock, and the page asks for
the answer until it is there. A search is of one board (the game's version): once the game has
moved on, its answer is out of date and is never shown as a move.

Counting: every hint or analysis the player asks for (and is not refused) adds one to the
game's ``hint_count``, and so does "Finish"; the statistics' "wins without undo or hints"
leave such games out.
"""

import random
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from .. import tasks
from ..models import Analysis, Game, WinnableDeal
from ..owners import Owner
from ..rules import Move
from ..rules.solver import solutions
from .play import GameError, Outcome, StalePly, play_out, read_for_play

#: A search still waiting or running after this long is taken as lost (a worker stopped): it
#: no longer counts against the player's limit, and asking again queues a new one.
ABANDONED = timedelta(minutes=2)
#: Fewer unplayed winnable deals than this for a player: search for more in the background.
LOW_WATER = 5
#: Deals tried by one background search for winnable deals.
DEAL_BATCH = 10


class SearchBusy(GameError):
    """The player already waits for as many searches as they may."""


class NoWinKnown(GameError):
    """No search found a win from this board: there is nothing to finish."""


# -- asking ---------------------------------------------------------------------------------


@transaction.atomic
def ask(owner: Owner, public_id: str, ply: int, version: int | None, kind: str) -> Analysis:
    """The search of ``kind`` for the board the player saw, queued unless one is there already.

    Counts one hint on the game. StalePly when the board is not the game's now, GameOver for a
    finished game, SearchBusy when the player already waits for other searches.
    """
    game = read_for_play(owner, public_id, ply, version)
    # Counted only on the board read (the version check); the update holds the game's row
    # until this transaction ends, so two asks on one game are answered one after the other.
    counted = Game.objects.owned_by(owner).filter(pk=game.pk, version=game.version)
    if not counted.update(hint_count=F("hint_count") + 1):
        raise StalePly(Game.objects.owned_by(owner).get(pk=game.pk))
    now = timezone.now()
    # Searches of this game's older boards are of no use any more: the worker skips them.
    game.analyses.pending().exclude(version=game.version).update(
        status=Analysis.Status.STALE, finished_at=now
    )
    analysis = game.analyses.filter(kind=kind, version=game.version).first()
    if analysis is not None and abandoned(analysis, now):
        analysis.delete()
        analysis = None
    if analysis is None:
        waiting = _pending_of_player(game, now).count()
        if waiting >= settings.SOLVER_PENDING_PER_PLAYER:
            raise SearchBusy(game)
        analysis = _known_win(game, kind) or _queue(game, kind)
    return analysis


def answer_of(game: Game, kind: str, version: int) -> Analysis | None:
    """The search of ``kind`` asked for at ``version`` of ``game`` (the player's, read by
    owner), if any."""
    return game.analyses.filter(kind=kind, version=version).first()


def _pending_of_player(game: Game, now) -> QuerySet:
    return Analysis.objects.pending().filter(
        game__owner=game.owner,
        game__session_key=game.session_key,
        created_at__gt=now - ABANDONED,
    )


def abandoned(analysis: Analysis, now) -> bool:
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
    analysis = Analysis.objects.create(game=game, kind=kind, ply=game.ply, version=game.version)
    # In the same transaction as the row: both are stored, or neither.
    priority = 10 if kind == Analysis.Kind.HINT else 0
    tasks.search.using(priority=priority).enqueue(analysis.pk)
    return analysis


# -- finishing ------------------------------------------------------------------------------


@transaction.atomic
def finish(owner: Owner, public_id: str, ply: int, version: int | None) -> Outcome:
    """Play out the win a search found from the board the player saw, every move checked by
    the engine and logged, in one write conditional on the version read: the game ends won,
    or nothing changes. Counts as one hint."""
    game = read_for_play(owner, public_id, ply, version)
    win = game.analyses.filter(version=game.version, status=Analysis.Status.WON).first()
    if win is None or not win.moves:
        raise NoWinKnown(game)
    outcome = play_out(owner, game, [Move.parse(text) for text in win.moves])
    Game.objects.owned_by(owner).filter(pk=game.pk).update(hint_count=F("hint_count") + 1)
    outcome.game.hint_count += 1
    return outcome


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

    find_winnable_deals = tasks.find_winnable_deals
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
