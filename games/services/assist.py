"""The site side of the solver: hints, "can this still be won?", finishing a game the solver
has won, and the deals known to be winnable.

Every function here reads its game by owner and id as the play services do, refuses a request
made on an older board (ply or version) with ``StalePly``, and writes the game only if it is
still at the version it read. The searches themselves run in the background worker
(games/services/searches.py): asking queues an ``Analysis`` row and a task in the same
transaction, the task searches the board without holding any lock, and the page asks for the
answer until it is there. A search is of one board (the game's version): once the game has
moved on, its answer is out of date and is never shown as a move. A player has one search
at a time: a newer one replaces the older. The queue is bounded (``SearchBusy``) and fair
between clients (docs/architecture.md, "Searches").

Counting: every hint or analysis the player asks for (and is not refused) adds one to the
game's ``hint_count``, and so does "Finish", whose moves count on ``finish_ply`` besides: a win
with any of them is one won with help (``Game.helped``), never a best nor ranked. Only a new
search counts against the client's limit on searches (``ask``).
"""

import math
import random
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet

from solitaire import clock

from .. import store
from ..models import Analysis, Game, WinnableDeal
from ..outcomes import NoWinKnown, Outcome, SearchBusy, StalePly, TooManySearches
from ..owners import Owner
from ..pace import NO_PACE, Pace
from ..rules import IllegalMove, Move, MoveSyntaxError
from ..rules.solver import solutions
from . import searches
from .graded import pick_unplayed
from .play import finish_with, read_for_play

#: A search still waiting or running after this long is taken as lost (no worker took it, or
#: one overran it): the page says no answer came, and asking again queues a new one. A worker
#: lost mid-search is found much sooner, by its missing beat (games/services/searches.py).
ABANDONED = timedelta(minutes=2)
#: Deals tried by one background search for winnable deals.
DEAL_BATCH = 10
#: The queue's priorities: a hint before an analysis of the same standing; the search for
#: winnable deals only when no player waits.
HINT_PRIORITY, ANALYSIS_PRIORITY, TOP_UP_PRIORITY = 0, -1, searches.LOWEST_PRIORITY
#: How far a newcomer's search stands behind a player's (``is_newcomer``).
NEWCOMER_PENALTY = 20


# -- asking ---------------------------------------------------------------------------------


def ask(
    owner: Owner,
    public_id: str,
    ply: int,
    version: int | None,
    kind: str,
    client: str = "",
    limit: Callable[[], int] | None = None,
) -> Analysis:
    """The search of ``kind`` for the board the player saw, queued unless one is there already.

    A newer search of a player replaces their older ones still waiting or running (on any
    game): those are stopped, and their pages say so. ``client`` says who asks, for the
    queue's fair order (an account, else the client's address): its searches already waiting
    put this one behind other clients' first.

    ``limit``, the client's limit on searches, is asked only when a new search would be
    queued: it answers the seconds to wait (then TooManySearches, and nothing changed), else 0.
    An answer already known costs no search and is not counted: the answer kept for this board,
    or for a hint the next move of a win found (``_known_win``). A player who follows the
    hints move after move meets no limit; one who asks for new searches, one board after
    another, does.

    Counts one hint on the game. StalePly when the board is not the game's now, GameOver for a
    finished game, SearchBusy (and nothing changed) when the site's queue is full.
    """
    searches.recover_lost()
    if limit is not None:
        game = read_for_play(owner, public_id, ply, version)
        if not is_known(game, kind):
            wait = limit()
            if wait:
                raise TooManySearches(game, wait)
    with transaction.atomic():
        return ask_in_transaction(owner, public_id, ply, version, kind, client)


def is_known(game: Game, kind: str) -> bool:
    """Whether asking for a search of ``kind`` on ``game``'s board now needs no new search:
    one is there for this board, asked before (waiting, running or answered, and neither lost
    nor stopped), or for a hint a win from this board is known."""
    now = clock.now()
    asked = game.analyses.filter(kind=kind, version=game.version).first()
    if asked is not None and of_use(asked, game, now):
        return True
    return kind == Analysis.Kind.HINT and bool(_known_win_moves(game))


def ask_in_transaction(
    owner: Owner, public_id: str, ply: int, version: int | None, kind: str, client: str
) -> Analysis:
    game = read_for_play(owner, public_id, ply, version)
    # Counted only on the board read (the version check); the update holds the game's row
    # until this transaction ends, so two asks on one game are answered one after the other.
    counted = Game.objects.owned_by(owner).filter(pk=game.pk, version=game.version)
    if not counted.update(hint_count=F("hint_count") + 1):
        raise StalePly(Game.objects.owned_by(owner).get(pk=game.pk))
    now = clock.now()
    # Searches of this game's older boards are of no use any more: the worker skips them, and
    # those still waiting leave the queue, where they would count as work to do.
    older_boards = game.analyses.pending().exclude(version=game.version)
    out_of_date = list(older_boards.values_list("pk", flat=True))
    older_boards.update(status=Analysis.Status.STALE, finished_at=now)
    searches.drop_waiting(out_of_date)
    analysis = game.analyses.filter(kind=kind, version=game.version).first()
    if analysis is not None and not of_use(analysis, game, now):
        analysis.delete()
        analysis = None
    older = pending_of(owner)
    if analysis is not None:
        older = older.exclude(pk=analysis.pk)
    stopped = list(older.values_list("pk", flat=True))
    Analysis.objects.filter(pk__in=stopped).update(status=Analysis.Status.STALE, finished_at=now)
    searches.drop_waiting(stopped)
    if analysis is None:
        analysis = _known_win(game, kind) or _queue(game, kind, client, now)
    return analysis


def answer_of(
    owner: Owner, public_id: str, kind: str, version: int
) -> tuple[Game, Analysis | None]:
    """The owner's game ``public_id`` as it is now, and the search of ``kind`` asked for at
    its ``version``, if any: one whose worker was lost is first queued again or answered as
    failed. ``Game.DoesNotExist`` when the owner has no such game."""
    game = store.read_game(owner, public_id)
    analysis = game.analyses.filter(kind=kind, version=version).first()
    return game, (searches.check_pending(analysis) if analysis is not None else None)


def pending_of(owner: Owner) -> QuerySet:
    """The player's searches waiting or running, on any of their games."""
    return Analysis.objects.pending().filter(game__in=Game.objects.owned_by(owner).values("pk"))


def of_use(analysis: Analysis, game: Game, now) -> bool:
    """Whether ``analysis``, asked for ``game``'s board, still answers it: neither abandoned
    nor replaced by a newer search."""
    return not (abandoned(analysis, now) or replaced(analysis, game))


def abandoned(analysis: Analysis, now) -> bool:
    """Whether ``analysis`` will never be answered: pending for too long, or failed."""
    pending = analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
    return (pending and analysis.created_at <= now - ABANDONED) or (
        analysis.status == Analysis.Status.FAILED
    )


def replaced(analysis: Analysis, game: Game) -> bool:
    """Whether ``analysis`` was stopped by a newer search of its player, ``game`` unchanged."""
    return analysis.status == Analysis.Status.STALE and analysis.version == game.version


def busy_for(now) -> int:
    """Seconds until the full queue has room again: the time the workers, at the pace of the
    last minute, take to answer half of it, or, with no pace to go by, to search half of it
    (at least 2, at most 60)."""
    pace = searches.drained_per_second(now)
    to_drain = searches.waiting_searches().count() / pace if pace else searches.waiting_work()
    seconds = to_drain / 2
    return min(60, max(2, math.ceil(seconds)))


def _known_win(game: Game, kind: str) -> Analysis | None:
    """A hint needs no search when a win from this board is known already: answered at once,
    with the rest of the win a search found for an earlier board when the player has played
    along it (so that following the hints always goes on along one win, never back and forth
    between two)."""
    if kind != Analysis.Kind.HINT:
        return None
    moves = _known_win_moves(game)
    if not moves:
        return None
    return Analysis.objects.create(
        game=game,
        kind=kind,
        ply=game.ply,
        version=game.version,
        status=Analysis.Status.WON,
        moves=moves,
        finished_at=clock.now(),
    )


def _known_win_moves(game: Game) -> list[str]:
    """The moves of a win known from ``game``'s board: found by a search of this board, or
    the rest of one found for an earlier board that the log has followed since; else none."""
    win = game.analyses.filter(version=game.version, status=Analysis.Status.WON).first()
    return win.moves if win is not None else _win_played_along(game)


def _win_played_along(game: Game) -> list[str]:
    """The rest of the latest win found for an earlier board of ``game`` whose moves the log
    has followed since (the automatic moves may come in another order): the win's moves less
    those played, if they win from the board as it is now (the engine checks every one);
    else none."""
    earlier = (
        game.analyses.filter(status=Analysis.Status.WON, ply__lt=game.ply)
        .order_by("-ply", "-pk")
        .first()
    )
    if earlier is None or not earlier.moves:
        return []
    rest = list(earlier.moves)
    for row in store.read_log_tail(game.pk, earlier.ply):
        if row.notation not in rest:
            return []
        rest.remove(row.notation)
    position = game.position()
    try:
        for text in rest:
            position.play(Move.parse(text))
    except (IllegalMove, MoveSyntaxError):
        return []
    return rest if position.is_won() else []


def is_newcomer(game: Game) -> bool:
    """Whether a search of ``game`` is a newcomer's: a guest's, on a game with fewer than
    settings.SOLVER_NEWCOMER_MOVES of their own moves. A fresh client costs an attacker
    nothing; a game played for a while, or an account, does. A newcomer's search waits behind
    every player's and may fill only half the queue."""
    return game.owner_id is None and game.player_moves < settings.SOLVER_NEWCOMER_MOVES


def _queue(game: Game, kind: str, client: str, now) -> Analysis:
    newcomer = is_newcomer(game)
    room = settings.SOLVER_QUEUE_SECONDS / 2 if newcomer else settings.SOLVER_QUEUE_SECONDS
    if searches.waiting_work() >= room:
        raise SearchBusy(game, busy_for(now))
    analysis = Analysis.objects.create(game=game, kind=kind, ply=game.ply, version=game.version)
    # In the same transaction as the row: both are stored, or neither.
    base = HINT_PRIORITY if kind == Analysis.Kind.HINT else ANALYSIS_PRIORITY
    searches.queue_search(
        analysis, searches.client_digest(client), base - newcomer * NEWCOMER_PENALTY
    )
    return analysis


# -- finishing ------------------------------------------------------------------------------


def finish(
    owner: Owner,
    public_id: str,
    ply: int,
    version: int | None,
    *,
    found: bool = False,
    pace: Pace = NO_PACE,
) -> Outcome:
    """Finish: play out a win known from the board the player saw, every move checked by the
    engine and logged, in one write conditional on the version read: the game ends won, or
    nothing changes (``NoWinKnown`` when no win is known from this board).

    The win is the certain one the engine found after the last change (``Game.finish``: the
    board's button shows itself), else, or when the player chose it (``found``: the button of
    the answer to "Can this still be won?", which says how many moves it plays), the one a
    search found, which counts as a hint. ``pace``: what the page says of the gap since the
    last action (games/pace.py).
    """
    game = read_for_play(owner, public_id, ply, version)
    if game.finish and not found:
        return finish_with(owner, game, [Move.parse(text) for text in game.finish], pace=pace)
    win = game.analyses.filter(version=game.version, status=Analysis.Status.WON).first()
    if win is None or not win.moves:
        raise NoWinKnown(game)
    return finish_with(owner, game, [Move.parse(text) for text in win.moves], pace=pace, hints=1)


# -- winnable deals -------------------------------------------------------------------------


def winnable_deals(variant: str) -> set[int]:
    """The deals of a game known to be winnable: the committed list and those found since."""
    known = {int(entry["deal"]) for entry in solutions(variant)}
    stored = WinnableDeal.objects.filter(variant=variant).values_list("deal", flat=True)
    return known | {int(deal) for deal in stored}


def winnable_deal(owner: Owner, variant: str) -> int | None:
    """A random winnable deal of ``variant``, one the player has not played if there is one;
    None when none is known. Asks for more in the background when few are left unplayed."""
    return pick_unplayed(owner, variant, winnable_deals(variant), top_up)


def top_up(variant: str) -> bool:
    """Queue a search for more winnable deals of ``variant``, unless one is under way already:
    at most one per game at a time, however many ask, and only run when no player waits."""
    if variant in searches.deal_searches_under_way():
        return False
    start = random.randint(1, 10**9 - DEAL_BATCH)
    searches.queue_deal_search(
        variant, start, DEAL_BATCH, settings.SOLVER_DEAL_SECONDS, TOP_UP_PRIORITY
    )
    return True
