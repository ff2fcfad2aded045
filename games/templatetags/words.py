"""Words for the templates: ``{{ variant|game_name }}``, a game's name in the active language,
``{{ rate|percent }}``, a percentage as the active language writes it ("50%", "50 %"), and
``{{ "QH"|corner }}``, what a card's corner shows in the active language ("Q♥", French "D♥").

A date inside a sentence is written as the language writes it there, ``{{ day|day_in_text }}``
("1er août 2026", "ngày 15 tháng 4 năm 2026") and ``{{ day|month_in_text }}``, and the sentence
is wrapped in ``{% filter joined %}``, which joins it to the word before ("d'août 2026")."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import pgettext

from .. import guide, words
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


@register.filter
def day_in_text(day) -> str:
    """``day`` as a sentence names it in the active language (marked to be ``joined``)."""
    return words.day_in_text(day)


@register.filter
def month_in_text(day) -> str:
    """The month of ``day`` as a sentence names it (marked to be ``joined``)."""
    return words.month_in_text(day)


@register.filter(is_safe=True)
def joined(text: str) -> str:
    """A sentence holding a ``day_in_text`` or ``month_in_text``, each joined to the word
    before it as the active language writes them."""
    return words.joined(text)
