"""A deal's difficulty where it is known: on the game page, the history's rows (one query for
a page of them) and each game's rules page (the shares of its graded deals)."""

from django import template

from ..daily_selectors import grade_known, grades_of
from ..models import GradedDeal
from ..rules.solver.grading import GRADES, sample_wins, shares

register = template.Library()


def label(grade: str | None) -> str:
    return str(GradedDeal.Grade(grade).label) if grade else ""


@register.simple_tag
def deal_grade(variant: str, deal) -> str:
    """The deal's grade in words, or nothing when it is not known."""
    return label(grade_known(variant, deal))


@register.simple_tag
def grade_games(games) -> str:
    """Gives each of ``games`` a ``grade`` (in words, or empty), all in one query."""
    games = list(games)
    known = grades_of((game.variant, game.deal) for game in games)
    for game in games:
        game.grade = label(known.get((game.variant, game.deal)))
    return ""


@register.simple_tag
def grade_shares(variant: str) -> list[tuple[str, float]]:
    """The share of each grade among the calibration sample's wins of ``variant``, in order:
    (grade in words, share); empty when the game has no calibration."""
    wins = [grade for _deal, grade in sample_wins(variant)]
    if not wins:
        return []
    parts = shares(wins)
    return [(label(grade), round(100 * parts[grade])) for grade in GRADES]
