"""A player's history: their games that count, newest first, kept by result
(definitions: games/selectors/stats.py)."""

from django.db.models import Q, QuerySet

from ..models import HELPED, Game
from ..owners import Owner
from .stats import LOST, WON, counted

#: The history's result filter: its values and the games each keeps.
RESULTS = {
    "won": Q(status=WON),
    "won-without-help": Q(status=WON) & ~HELPED,
    "won-with-help": Q(status=WON) & HELPED,
    "lost": Q(status__in=LOST),
    "unfinished": Q(status=Game.Status.PLAYING),
}


def history(owner: Owner, *, variant: str = "", result: str = "") -> QuerySet:
    """The games of ``owner`` that count, last played first; of one game type and result if
    asked (``result`` a key of RESULTS)."""
    games = counted(owner)
    if variant:
        games = games.filter(variant=variant)
    if result:
        games = games.filter(RESULTS[result])
    return games.order_by("-updated_at", "-pk")
