"""Deals by difficulty and the daily deals.

- **The graded pool**: the winnable deals with a grade (games/rules/solver/grading.py), from
  the calibration's sample (committed) and the ``GradedDeal`` rows the workers and ``manage.py
  grades --fill`` add. ``graded_deal`` deals one of a grade to a player (one they have not
  played if there is one) and asks for more in the background when few are left
  (games/services/graded.py keeps them).
- **The daily deals**: each game has one deal a day (UTC), the same for everyone, drawn from
  the pool at the grade of the day of the week (``WEEK``) and kept once drawn (``DailyDeal``),
  so that the pool growing later never changes a day's deal. ``find_or_start_daily_game``
  opens the player's game of a day's deal (a ``DailyGame``), starting it if needed: a second
  visit, from any device, resumes it.
"""

import hashlib
import random
from collections.abc import Mapping
from datetime import date

from django.db import IntegrityError, transaction

from ..days import WEEK, check_day, today
from ..models import DailyDeal, DailyGame, Game
from ..owners import Owner
from ..rules.solver import solutions
from ..rules.solver.grading import GRADES
from . import searches
from .graded import FIRST_GRADED, graded_deals, pick_unplayed
from .play import start_game

#: Deals one background grading tries (each at most ``GRADE_NODES`` positions, 2-4 s).
GRADE_BATCH = 10


def graded_deal(owner: Owner, variant: str, grade_id: str) -> int | None:
    """A random deal of ``variant`` with grade ``grade_id``, one the player has not played if
    there is one; None when none is known. Grades more in the background when few are left."""
    if grade_id not in GRADES:
        raise ValueError(grade_id)
    return pick_unplayed(owner, variant, graded_deals(variant, grade_id), top_up)


def top_up(variant: str) -> bool:
    """Queue a grading of more deals of ``variant``, unless one is under way: at most one per
    game, run only when no player waits."""
    if variant in searches.gradings_under_way():
        return False
    start = FIRST_GRADED + random.randrange(10**8)
    searches.queue_grading(variant, start, GRADE_BATCH)
    return True


def daily_deal(variant: str, day: date) -> DailyDeal:
    """The deal of ``variant`` for ``day``: the one drawn already, or drawn now from the pool
    at the day's grade (a grade near it when the pool has none, else a committed winnable
    deal). ``NoSuchDay`` for a day out of reach."""
    check_day(day)
    found = DailyDeal.objects.filter(variant=variant, day=day).first()
    if found is not None:
        return found
    deal, grade_id = draw(variant, day)
    try:
        with transaction.atomic():
            return DailyDeal.objects.create(
                variant=variant, day=day, deal=str(deal), grade=grade_id
            )
    except IntegrityError:
        # Another player drew it at the same moment: theirs is the day's.
        return DailyDeal.objects.get(variant=variant, day=day)


def draw(variant: str, day: date) -> tuple[int, str]:
    """A deal for ``day`` and its grade: a pool deal of the day's grade (one no earlier day
    had, if there is one), picked by a digest of the game and the day."""
    wanted = WEEK[day.weekday()]
    index = GRADES.index(wanted)
    # The day's grade, then the grades nearest it, the easier first.
    order = sorted(GRADES, key=lambda g: (abs(GRADES.index(g) - index), GRADES.index(g)))
    used = {
        int(d) for d in DailyDeal.objects.filter(variant=variant).values_list("deal", flat=True)
    }
    digest = int.from_bytes(hashlib.sha256(f"{variant}:{day.isoformat()}".encode()).digest()[:8])
    for grade_id in order:
        pool = sorted(graded_deals(variant, grade_id))
        fresh = [d for d in pool if d not in used] or pool
        if fresh:
            return fresh[digest % len(fresh)], grade_id
    committed = sorted(int(entry["deal"]) for entry in solutions(variant))
    if not committed:
        raise LookupError(f"no winnable deal of {variant} is known")
    return committed[digest % len(committed)], GRADES[-1]


def todays_deals(variants) -> list[DailyDeal]:
    """Today's deal of each of ``variants``, in their order."""
    day = today()
    known = {d.variant: d for d in DailyDeal.objects.filter(day=day, variant__in=list(variants))}
    return [known.get(variant) or daily_deal(variant, day) for variant in variants]


@transaction.atomic
def find_or_start_daily_game(
    owner: Owner, variant: str, day: date, autoplay: Mapping[str, bool] | None = None
) -> Game:
    """The player's game of ``variant``'s deal of ``day``: the one they started, or a new one."""
    daily = daily_deal(variant, day)
    game = Game.objects.owned_by(owner).filter(daily__daily=daily).order_by("created_at").first()
    if game is None:
        game = start_game(owner, variant, int(daily.deal), autoplay)
        DailyGame.objects.create(daily=daily, game=game)
    return game
