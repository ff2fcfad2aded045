"""Words for the templates: ``{{ variant|game_name }}``, a game's name in the active language,
``{{ rate|percent }}``, a percentage as the active language writes it ("50%", "50 %"), and
``{{ "QH"|corner }}``, what a card's corner shows in the active language ("Q♥", French "D♥")."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import pgettext

from .. import guide
from ..rules.cards import parse_card
from ..words import RANK_MARKS, SUIT_MARKS

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


@register.filter
def corner(name: str) -> str:
    """What the corner of the card ``name`` (the notation's, ``QH``) shows: its rank in the
    active language's letters and its suit, as on the table ("D♥" in French)."""
    card = parse_card(name)
    return f"{RANK_MARKS[card // 4]}{SUIT_MARKS[card & 3]}"
