"""Background work, run by the worker (``manage.py db_worker``): the solver's searches, which
take up to seconds each and so never run inside a web request. Each task is the worker's entry
to a service, as a view is the web's: the queue's policy (priorities, a lost worker's
recovery, what a search writes) is games/services/searches.py's, which queues these tasks by
the paths their rows bear (``searches.SEARCH``, ``DEAL_SEARCH``, ``GRADING``).
"""

from django.tasks import task

from .services import graded, searches, winnability

# Task rows failed before the class moved to the services name it here (django.tasks reads
# a failed row's exception class back by its path).
WorkerLost = searches.WorkerLost


@task()
def search(analysis_id: int, client: str = "", seconds: float = 0) -> str:
    """Answer a hint or a "can this still be won?" (a ``games.models.Analysis``). ``client``
    (the asking client's digest) and ``seconds`` (the search's budget when it was queued) are
    read only by the queue's counts."""
    searches.recover_lost()
    return searches.run_search(analysis_id)


@task()
def find_winnable_deals(variant: str, start: int, count: int, seconds: float) -> list[int]:
    """Search deals ``start``..``start + count - 1`` of ``variant`` for wins, ``seconds`` each,
    and store those whose moves replay to a win; the deal numbers stored."""
    searches.recover_lost()
    found = winnability.search_deals(variant, start, count, seconds)
    return searches.store_winnable(variant, found)


@task()
def grade_deals(variant: str, start: int, count: int) -> list[int]:
    """Grade deals ``start``..``start + count - 1`` of ``variant`` (a fixed number of positions
    each) and keep the wins in the graded pool; the deal numbers kept."""
    searches.recover_lost()
    return graded.grade_deals(variant, start, count)
