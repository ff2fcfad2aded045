"""Words for the templates: ``{{ variant|game_name }}``, a game's name in the active language."""

from django import template

from .. import guide

register = template.Library()


@register.filter
def game_name(variant) -> str:
    """The name of ``variant`` (a game, or its id) in the active language."""
    return guide.game_name(variant)
