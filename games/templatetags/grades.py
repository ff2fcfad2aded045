"""The grades' shares of a game's winnable deals, on its rules page (read from the committed
calibration, no query)."""

from django import template

from ..models import GradedDeal
from ..rules.solver.grading import GRADES, sample_size, sample_wins, shares

register = template.Library()


@register.simple_tag
def grade_shares(variant: str) -> list[tuple[str, int]]:
    """The share of each grade among the calibration sample's wins of ``variant``, in order:
    (grade in words, hundredths); empty when the game has no calibration."""
    wins = [grade for _deal, grade in sample_wins(variant)]
    if not wins:
        return []
    parts = shares(wins)
    return [(str(GradedDeal.Grade(grade).label), round(100 * parts[grade])) for grade in GRADES]


@register.simple_tag
def sample_figures(variant: str) -> dict[str, int] | None:
    """How many deals of the calibration sample the solver tried and won, for a game this
    site's own solver has no figures of yet; None when the game has no calibration."""
    tried = sample_size(variant)
    return {"tried": tried, "won": len(sample_wins(variant))} if tried else None
