"""How winnable a game is, for the pages: ``{% winnability_line variant_id %}`` gives the
sentence of the rules page; ``{% winnability_of variant_id as w %}`` the figures."""

from django import template

from ..selectors import Winnability, winnability

register = template.Library()


@register.simple_tag
def winnability_of(variant_id: str) -> Winnability | None:
    """The figures of the time budget most searched for the game, or None."""
    return winnability(variant_id)


@register.inclusion_tag("games/winnability_line.html")
def winnability_line(variant_id: str) -> dict:
    return {"w": winnability(variant_id), "variant_id": variant_id}
