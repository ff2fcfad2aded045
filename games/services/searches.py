"""The queue of the solver's searches, and what runs them: the policy behind the worker's tasks
(games/tasks.py, each a few lines calling here). The site queues searches through this module
(games/services/assist.py, daily.py); what a search writes is an analysis or a winnable deal,
never a game.

The queue is django-tasks-db's table of task rows, which a worker takes in the order of
priority (highest first), then of queueing. A row names its task by path (``SEARCH``,
``DEAL_SEARCH``, ``GRADING``): this module reads the rows and queues the tasks by those paths,
as the worker does, so that it need not import the tasks that call it. A search's task carries
a digest of the client that asked (``client``), so the queue can be counted per client: a
search gets a priority that falls with the number its client already has waiting, so that one
client's many never stand in front of another's first.

A worker killed mid-search (``kill -9``, a machine lost) cannot say so. While it searches, a
thread of its own beats: every ``BEAT`` seconds it writes on the analysis the seconds since
the search was asked, so the analysis's row alone tells when its worker was last heard of. A
running task whose last beat (or, before the first, its start) is older than
``settings.SOLVER_LEASE_SECONDS`` is taken as lost (``recover_lost``, ``check_pending``): its
row is marked failed through django-tasks-db's own ``set_failed`` and its search is queued
once more, or, the second time, answered as failed. Whoever comes next does this: the page
asking for the answer, the next search asked for, the next task a worker takes.
"""

import hashlib
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet
from django.tasks import Task
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from solitaire import clock

from ..models import Analysis, Game, WinnableDeal
from ..rules import Record, RecordError, position_from_text, replay
from ..rules.solver import heuristic_move, solve
from . import winnability

#: One line per failed task (a worker lost under it, or a search that ended in an error);
#: settings.LOGGING mails it to ADMINS when they are set.
logger = logging.getLogger("solitaire.tasks")

#: The worker's tasks by the paths their rows bear (games/tasks.py): a hint or "can this still
#: be won?", a search for winnable deals, a grading of deals.
SEARCH = "games.tasks.search"
DEAL_SEARCH = "games.tasks.find_winnable_deals"
GRADING = "games.tasks.grade_deals"
#: The lowest priority a task may have: Django's tasks take priorities from -100 (the lowest)
#: to 100, as its documentation of ``Task.priority`` says.
LOWEST_PRIORITY = -100
#: Seconds between two beats of a running search.
BEAT = 1.0
#: A search's task is run at most this many times (a first run and one more after a worker
#: was lost under it); then the player is told it stopped.
RUNS = 2
#: The longest a grading search of one deal is taken to last (its positions are fixed): a
#: grading task silent for longer than this per deal has lost its worker.
GRADE_SECONDS = 20


class WorkerLost(Exception):
    """What a task row lost with its worker is marked failed with."""


def task_at(path: str) -> Task:
    """The worker's task whose rows bear ``path``, found as the worker finds it."""
    return import_string(path)


def queue_deal_search(variant: str, start: int, count: int, seconds: float, priority: int) -> None:
    """Queue a search of deals ``start``..``start + count - 1`` of ``variant`` for wins."""
    task_at(DEAL_SEARCH).using(priority=priority).enqueue(variant, start, count, seconds)


def queue_grading(variant: str, start: int, count: int) -> None:
    """Queue a grading of deals ``start``..``start + count - 1`` of ``variant``, when no player
    waits."""
    task_at(GRADING).using(priority=LOWEST_PRIORITY).enqueue(variant, start, count)


# -- the queue ------------------------------------------------------------------------------


def client_digest(client: str) -> str:
    """What a search's task keeps of its client: a digest, not an address."""
    return hashlib.sha256(client.encode()).hexdigest()[:16]


def waiting_searches() -> QuerySet:
    """The searches queued and not yet taken by a worker."""
    return DBTaskResult.objects.ready().filter(task_path=SEARCH)


def waiting_work() -> float:
    """The seconds of searching waiting for the workers: each waiting search's budget."""
    queued = waiting_searches().values_list("args_kwargs", flat=True)
    return sum(args["kwargs"].get("seconds", settings.SOLVER_HINT_SECONDS) for args in queued)


def search_seconds(kind: str) -> float:
    """The budget of a search of ``kind``."""
    if kind == Analysis.Kind.HINT:
        return settings.SOLVER_HINT_SECONDS
    return settings.SOLVER_ANALYSIS_SECONDS


def queue_search(analysis: Analysis, client: str, base: int) -> int:
    """Queue the search of ``analysis`` for ``client`` (a digest): its priority is ``base``
    less two for every search the client has waiting already. The priority given."""
    waiting = waiting_searches().filter(args_kwargs__kwargs__client=client).count()
    priority = max(LOWEST_PRIORITY + 1, base - 2 * waiting)
    seconds = search_seconds(analysis.kind)
    task_at(SEARCH).using(priority=priority).enqueue(analysis.pk, client=client, seconds=seconds)
    return priority


def runs_of(analysis_id: int) -> list[DBTaskResult]:
    """The task rows of one analysis's search, the latest last."""
    return list(
        DBTaskResult.objects.filter(task_path=SEARCH, args_kwargs__args__0=analysis_id).order_by(
            "enqueued_at"
        )
    )


def drop_waiting(analysis_ids: list[int]) -> int:
    """Take the searches of ``analysis_ids`` that no worker has started off the queue."""
    if not analysis_ids:
        return 0
    deleted, _kinds = waiting_searches().filter(args_kwargs__args__0__in=analysis_ids).delete()
    return deleted


def deal_searches_under_way() -> set[str]:
    """The games whose search for winnable deals is queued or running."""
    under_way = DBTaskResult.objects.filter(
        task_path=DEAL_SEARCH, status__in=["READY", "RUNNING"]
    ).values_list("args_kwargs", flat=True)
    return {args["args"][0] for args in under_way if args["args"]}


def gradings_under_way() -> set[str]:
    """The games whose grading of more deals is queued or running."""
    under_way = DBTaskResult.objects.filter(
        task_path=GRADING, status__in=["READY", "RUNNING"]
    ).values_list("args_kwargs", flat=True)
    return {args["args"][0] for args in under_way if args["args"]}


def drained_per_second(now: datetime) -> float:
    """Searches the workers finished in the last minute, per second."""
    done = DBTaskResult.objects.filter(
        task_path=SEARCH, finished_at__gte=now - timedelta(minutes=1)
    ).count()
    return done / 60


# -- a worker lost mid-search ---------------------------------------------------------------


def last_beat(analysis: Analysis) -> datetime:
    """When the worker searching ``analysis`` (RUNNING) last beat: while it runs, its seconds
    count from the moment it was asked."""
    return analysis.created_at + timedelta(seconds=analysis.seconds)


def last_sign_of_life(run: DBTaskResult, analysis: Analysis | None) -> datetime:
    """When the worker running ``run`` was last heard of: its search's last beat, else its
    start."""
    started = run.started_at or run.enqueued_at
    if analysis is not None and analysis.status == Analysis.Status.RUNNING:
        return max(started, last_beat(analysis))
    return started


def is_lost(run: DBTaskResult, analysis: Analysis | None, now: datetime) -> bool:
    """Whether ``run`` (a RUNNING task row) has been silent for longer than the lease."""
    lease = timedelta(seconds=settings.SOLVER_LEASE_SECONDS)
    if run.task_path == DEAL_SEARCH:
        # No beat: the lease is the search's whole budget, twice over.
        _variant, _start, count, seconds = run.args_kwargs["args"]
        return (run.started_at or run.enqueued_at) + 2 * timedelta(seconds=count * seconds) + (
            lease
        ) < now
    if run.task_path == GRADING:
        # No beat either: a grading search is a fixed number of positions, seconds at most.
        count = run.args_kwargs["args"][2]
        return (run.started_at or run.enqueued_at) + timedelta(seconds=count * GRADE_SECONDS) + (
            lease
        ) < now
    if analysis is not None and analysis.status not in (
        Analysis.Status.QUEUED,
        Analysis.Status.RUNNING,
    ):
        # Set aside while it ran (the player asked again, or played on): its worker no longer
        # beats on it but searches on to the end of the search's budget, as a worker alive
        # does; lost only well past that.
        budget = timedelta(seconds=search_seconds(analysis.kind))
        return (run.started_at or run.enqueued_at) + 2 * budget + lease < now
    return last_sign_of_life(run, analysis) + lease < now


def recover_lost(now: datetime | None = None) -> int:
    """Mark every task row whose worker was lost as failed, and queue its search again once
    (or answer it as failed); the number of rows recovered. Looked for at most once a second
    across the site (every search asked and every task started asks)."""
    if not cache.add("searches:lost-looked-for", 1, timeout=1):
        return 0
    now = now or clock.now()
    ours = [SEARCH, DEAL_SEARCH, GRADING]
    running = list(DBTaskResult.objects.running().filter(task_path__in=ours))
    searched = {run.args_kwargs["args"][0]: run for run in running if run.task_path == ours[0]}
    analyses = Analysis.objects.in_bulk(list(searched))
    recovered = 0
    for run in running:
        analysis = analyses.get(run.args_kwargs["args"][0]) if run.task_path == ours[0] else None
        if is_lost(run, analysis, now):
            recovered += give_up_run(run.pk, now)
    return recovered


def give_up_run(run_id, now: datetime) -> int:
    """Mark the running task row ``run_id`` failed (its worker lost) and settle its search;
    1 if this call did, 0 if someone else had."""
    with transaction.atomic():
        run = DBTaskResult.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status != "RUNNING":
            return 0
        run.set_failed(WorkerLost("the worker stopped while running this task"))
        logger.error(
            "task %s (%s) failed: its worker stopped while running it", run.pk, run.task_path
        )
        if run.task_path == SEARCH:
            settle(run.args_kwargs["args"][0], run, now)
    return 1


def settle(analysis_id: int, run: DBTaskResult, now: datetime) -> None:
    """The search of ``analysis_id`` lost its run ``run``: queued again at the same priority
    if it has run fewer than RUNS times, else answered as failed."""
    analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
    if analysis is None or analysis.status not in (
        Analysis.Status.QUEUED,
        Analysis.Status.RUNNING,
    ):
        return
    if len(runs_of(analysis_id)) < RUNS:
        analysis.status, analysis.seconds = Analysis.Status.QUEUED, 0
        analysis.save(update_fields=["status", "seconds"])
        task = task_at(SEARCH).using(priority=run.priority)
        task.enqueue(analysis_id, **run.args_kwargs["kwargs"])
    else:
        analysis.status, analysis.finished_at = Analysis.Status.FAILED, now
        analysis.save(update_fields=["status", "finished_at"])


def check_pending(analysis: Analysis, now: datetime | None = None) -> Analysis:
    """``analysis`` as it stands once a lost worker under it (or a run that ended without an
    answer) is dealt with; asked by the page that waits for it, every half second, so only
    the analysis's own row is read while its worker beats. A search still waiting has its
    task rows looked at once a lease at most: a worker that took it and died at once, or a
    run that failed before it started searching, leaves it waiting for nothing."""
    now = now or clock.now()
    if not worth_a_look(analysis, now):
        return analysis
    runs = runs_of(analysis.pk)
    latest = runs[-1] if runs else None
    if latest is None or latest.status == "READY":
        return analysis
    if latest.status == "RUNNING":
        if is_lost(latest, analysis, now):
            give_up_run(latest.pk, now)
    else:
        # The run ended (an error in the search) without writing an answer.
        logger.error(
            "task %s (%s) ended %s without an answer", latest.pk, latest.task_path, latest.status
        )
        with transaction.atomic():
            settle(analysis.pk, latest, now)
    analysis.refresh_from_db()
    return analysis


def worth_a_look(analysis: Analysis, now: datetime) -> bool:
    """Whether the task rows of ``analysis`` may tell something the analysis does not: it runs
    and has not beat for a lease, or it has waited longer than a lease and was not looked at
    in the last one."""
    lease = timedelta(seconds=settings.SOLVER_LEASE_SECONDS)
    if analysis.status == Analysis.Status.RUNNING:
        return last_beat(analysis) + lease < now
    if analysis.status != Analysis.Status.QUEUED or analysis.created_at + lease > now:
        return False
    return cache.add(f"searches:looked-at:{analysis.pk}", 1, timeout=lease.total_seconds())


@contextmanager
def beating(analysis_id: int, since: datetime) -> Iterator[None]:
    """While the block runs, a thread writes the seconds from ``since`` (when the search was
    asked) to now on the analysis every BEAT seconds (its own connection, closed at the end):
    the worker is alive."""
    done = threading.Event()

    def beat() -> None:
        try:
            while not done.wait(BEAT):
                seconds = (clock.now() - since).total_seconds()
                try:
                    Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING).update(
                        seconds=seconds
                    )
                except DatabaseError:
                    continue  # a locked database: the next beat tries again
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"beat-{analysis_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


# -- the searches ---------------------------------------------------------------------------


def run_search(analysis_id: int) -> str:
    """Search the board of a queued analysis and store the answer; its status after."""
    with transaction.atomic():
        # One lock order for a game and its searches, the web's: the game's row first, then
        # the search's. Holding the search while waiting for the game deadlocked with a player
        # asking again, whose action holds the game and sets the older search aside.
        game = Game.objects.select_for_update(of=("self",)).filter(analyses=analysis_id).first()
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or game is None or analysis.status != Analysis.Status.QUEUED:
            return analysis.status if analysis else "gone"
        if game.version != analysis.version or game.is_finished:
            analysis.status = Analysis.Status.STALE
            analysis.finished_at = clock.now()
            analysis.save(update_fields=["status", "finished_at"])
            return analysis.status
        analysis.status = Analysis.Status.RUNNING
        analysis.seconds = (clock.now() - analysis.created_at).total_seconds()
        analysis.save(update_fields=["status", "seconds"])
        snapshot = game.snapshot
    # The search holds no lock: the player may play on meanwhile (the answer is then stale).
    position = position_from_text(snapshot)
    hint = analysis.kind == Analysis.Kind.HINT
    seconds = search_seconds(analysis.kind)
    with beating(analysis_id, analysis.created_at):
        result = solve(position, seconds=seconds)
        if analysis.kind == Analysis.Kind.ANALYSIS:
            # A search of a deal as dealt (none of the player's moves yet: at most the cards
            # the deal sent home by themselves) tells how winnable its game is.
            winnability.record_if_fresh(
                game.variant, game.deal, position, seconds, result, as_dealt=not game.player_moves
            )
        moves = [str(m) for m in result.moves]
        if hint and result.status != Analysis.Status.WON:
            guess = heuristic_move(position)
            moves = [str(guess)] if guess is not None else []
    Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING).update(
        status=result.status,
        moves=moves,
        nodes=result.nodes,
        seconds=result.seconds,
        finished_at=clock.now(),
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
