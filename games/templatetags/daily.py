"""The daily streak on the statistics page: days in a row with a daily deal won."""

from django import template

from ..daily_selectors import daily_streak as streak_of

register = template.Library()


@register.simple_tag(takes_context=True)
def daily_streak(context) -> int:
    """The reader's daily streak (games/daily_selectors.py)."""
    return streak_of(context["request"].owner)
