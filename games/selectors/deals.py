"""What is known of deals: how winnable each game is (the searches the site ran on fresh
deals, games/services/winnability.py) and the grades of deals by difficulty."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import pgettext_lazy

from ..kept import GRADES
from ..models import DealSearch, GradedDeal
from ..rules.solver.grading import sample_wins


@dataclass(frozen=True)
class Winnability:
    """What the searches of one game at one time budget found."""

    variant: str
    seconds: float
    tried: int
    won: int
    lost: int

    @property
    def unknown(self) -> int:
        return self.tried - self.won - self.lost

    @property
    def won_percent(self) -> int:
        """The share of the deals tried that were won, in whole percent."""
        return round(100 * self.won / self.tried) if self.tried else 0


def winnabilities(variant: str) -> list[Winnability]:
    """The figures of ``variant`` for each time budget searched, the most deals first."""
    rows = (
        DealSearch.objects.filter(variant=variant)
        .values("seconds")
        .annotate(
            tried=Count("id"),
            won=Count("id", filter=Q(status=DealSearch.Status.WON)),
            lost=Count("id", filter=Q(status=DealSearch.Status.LOST)),
        )
        .order_by("-tried", "-seconds")
    )
    return [Winnability(variant, r["seconds"], r["tried"], r["won"], r["lost"]) for r in rows]


def winnability(variant: str) -> Winnability | None:
    """The figures of the time budget with the most deals searched, or None if none was."""
    found = winnabilities(variant)
    return found[0] if found else None


def lost_deals(variant: str, limit: int = 50) -> list[tuple[str, float]]:
    """Deals of ``variant`` proved lost (deal, seconds), the lowest deal numbers first."""
    rows = DealSearch.objects.filter(variant=variant, status=DealSearch.Status.LOST).values_list(
        "deal", "seconds"
    )
    return sorted(rows, key=lambda r: (len(r[0]), r[0], r[1]))[:limit]


def grades_of(
    deals: Iterable[tuple[str, str]], stored: dict[tuple[str, str], str | None] | None = None
) -> dict[tuple[str, str], str]:
    """The known grade of each (game, deal number as text) of ``deals``, in one query; none
    when ``stored`` gives the stored grade (None: none) of each, read already."""
    deals = set(deals)
    known = {}
    for variant in {variant for variant, _deal in deals}:
        known.update({(variant, str(deal)): grade for deal, grade in sample_wins(variant)})
    found = {key: known[key] for key in deals if key in known}
    missing = deals - found.keys()
    if missing and stored is not None:
        found.update({key: stored[key] for key in missing if stored.get(key) is not None})
    elif missing:
        rows = GradedDeal.objects.filter(
            variant__in={v for v, _d in missing}, deal__in={d for _v, d in missing}
        ).values_list("variant", "deal", "grade")
        found.update({(v, d): g for v, d, g in rows if (v, d) in missing})
    return found


#: ``grade_known`` without a stored grade read: it reads it.
UNREAD = object()


def grade_known(variant: str, deal: int | str, stored=UNREAD) -> str | None:
    """The grade of one deal, when it is known (kept once known: games/kept.py). ``stored``:
    the grade stored for it (None: none), when the caller read it already (a shared link's
    query: selectors/sharing.py), so that an ungraded deal costs no query of its own."""
    key = (variant, str(deal))
    given = None if stored is UNREAD else {key: stored}
    return GRADES.get(
        key, lambda: grades_of([key], given).get(key), keep=lambda grade: grade is not None
    )


#: A grade as a word describing a deal ("deal 123 (medium)", a game's line in the history),
#: agreeing with the language's word for a deal (Polish "rozdanie 123 (średnie)"); the grade's
#: own label (``GradedDeal.Grade``) is the level, as after "Difficulty:" ("Trudność: średnia").
GRADES_OF_A_DEAL = {
    # Translators: a deal's grade as a word describing the deal ("deal 123 (easy)"), agreeing
    # with your word for a deal (Polish "łatwe" for "rozdanie").
    "easy": pgettext_lazy("a deal's grade", "easy"),
    # Translators: a deal's grade as a word describing the deal ("deal 123 (medium)").
    "medium": pgettext_lazy("a deal's grade", "medium"),
    # Translators: a deal's grade as a word describing the deal ("deal 123 (hard)").
    "hard": pgettext_lazy("a deal's grade", "hard"),
    # Translators: a deal's grade as a word describing the deal ("deal 123 (expert)"): the
    # hardest grade, as your players would call such a deal (French "très difficile").
    "expert": pgettext_lazy("a deal's grade", "expert"),
}


def grade_words(grade: str | None) -> str:
    """A grade in the reader's words, as a level (after "Difficulty:"; "" for none)."""
    return str(GradedDeal.Grade(grade).label) if grade else ""


def deal_grade_words(grade: str | None) -> str:
    """A grade in the reader's words as a word describing a deal ("" for none)."""
    return str(GRADES_OF_A_DEAL[GradedDeal.Grade(grade)]) if grade else ""


def grade_games(games) -> list:
    """``games`` (a page of them), each given ``grade``: its deal's grade as a word describing
    the deal, or "" (one
    query for them all)."""
    games = list(games)
    known = grades_of((game.variant, game.deal) for game in games)
    for game in games:
        game.grade = deal_grade_words(known.get((game.variant, game.deal)))
    return games
