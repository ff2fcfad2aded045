"""Background work, run by the worker (``manage.py db_worker``): the solver's searches, which
take up to seconds each and so never run inside a web request."""

from django.tasks import task

from .rules.solver import find_winnable
from .services import assist


@task()
def search(analysis_id: int) -> str:
    """Answer a hint or a "can this still be won?" (a ``games.models.Analysis``)."""
    return assist.run_search(analysis_id)


@task()
def find_winnable_deals(variant: str, start: int, count: int, seconds: float) -> list[int]:
    """Search deals ``start``..``start + count - 1`` of ``variant`` for wins, ``seconds`` each,
    and store those whose moves replay to a win; the deal numbers stored."""
    return assist.store_winnable(variant, find_winnable(variant, start, count, seconds))
