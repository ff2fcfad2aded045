"""Words for the templates: ``{{ variant|game_name }}``, a game's name in the active language,
and ``{{ rate|percent }}``, a percentage as the active language writes it ("50%", "50 %")."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import pgettext

from .. import guide

register = template.Library()


@register.filter
def game_name(variant) -> str:
    """The name of ``variant`` (a game, or its id) in the active language."""
    return guide.game_name(variant)


@register.filter
def percent(value) -> str:
    """``value`` (a number of hundredths) as a percentage in the active language."""
    # Translators: a percentage; write the space (a no-break space) your language puts before
    # the sign, if any.
    return pgettext("percentage", "%(value)s%%") % {"value": number_format(value)}
