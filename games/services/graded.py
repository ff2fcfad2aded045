"""The pool of graded winnable deals: the calibration's sample (committed) and the
``GradedDeal`` rows the workers and ``manage.py grades --fill`` add. ``grade_deals`` grades a
run of deals and keeps the wins, each replayed to a win first (the worker's task calls it)."""

import random
from collections.abc import Callable

from django.db import IntegrityError

from ..models import Game, GradedDeal
from ..owners import Owner
from ..rules import Record, RecordError, replay
from ..rules.solver.grading import Graded, grade, measure, sample_wins

#: Fewer unplayed deals than this left in a player's pool: ask for more in the background.
LOW_WATER = 5
#: The first deal the pool's grading tries (the workers start above it): above the
#: calibration's sample.
FIRST_GRADED = 1000


def graded_deals(variant: str, grade_id: str) -> set[int]:
    """The deals of ``variant`` known winnable with grade ``grade_id``."""
    committed = {deal for deal, graded in sample_wins(variant) if graded == grade_id}
    stored = GradedDeal.objects.filter(variant=variant, grade=grade_id).values_list(
        "deal", flat=True
    )
    return committed | {int(deal) for deal in stored}


def keep_graded(graded: Graded) -> GradedDeal | None:
    """Keep a won grading search in the pool, once its moves replay to a win; None when it was
    not won, does not replay, or the deal is in the pool already."""
    if not graded.won:
        return None
    try:
        won = replay(Record(graded.variant, graded.deal, list(graded.moves))).is_won()
    except RecordError:
        won = False
    if not won:
        return None
    try:
        row, created = GradedDeal.objects.get_or_create(
            variant=graded.variant,
            deal=str(graded.deal),
            defaults={
                "grade": grade(graded),
                "nodes": graded.nodes,
                "length": graded.length,
                "moves": list(graded.moves),
            },
        )
    except IntegrityError:
        return None
    return row if created else None


def grade_deals(variant: str, start: int, count: int, max_nodes: int | None = None) -> list[int]:
    """Grade deals ``start``..``start + count - 1`` of ``variant`` and keep the wins in the
    pool; the deals kept."""
    kept = []
    for deal in range(start, start + count):
        graded = measure(variant, deal) if max_nodes is None else measure(variant, deal, max_nodes)
        if keep_graded(graded) is not None:
            kept.append(deal)
    return kept


def pick_unplayed(
    owner: Owner, variant: str, pool: set[int], top_up: Callable[[str], object]
) -> int | None:
    """A random deal of ``pool`` (deals of ``variant``), one the player has not played if
    there is one; None when the pool is empty. Calls ``top_up(variant)`` when fewer than
    ``LOW_WATER`` are left unplayed."""
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
