"""Background work, run by the worker (``manage.py db_worker``): the solver's searches, which
take up to seconds each and so never run inside a web request. The site queues them
(games/services/assist.py); what they write is an analysis or a winnable deal, never a game."""

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from .models import Analysis, WinnableDeal
from .rules import Record, RecordError, position_from_text, replay
from .rules.solver import find_winnable, heuristic_move, solve


@task()
def search(analysis_id: int) -> str:
    """Answer a hint or a "can this still be won?" (a ``games.models.Analysis``)."""
    return run_search(analysis_id)


@task()
def find_winnable_deals(variant: str, start: int, count: int, seconds: float) -> list[int]:
    """Search deals ``start``..``start + count - 1`` of ``variant`` for wins, ``seconds`` each,
    and store those whose moves replay to a win; the deal numbers stored."""
    return store_winnable(variant, find_winnable(variant, start, count, seconds))


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
