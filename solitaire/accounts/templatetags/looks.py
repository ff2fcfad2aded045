"""``{% looks_attributes %}``: the player's looks as the data attributes of <html>
(solitaire/accounts/looks.py)."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from ..looks import looks_of

register = template.Library()


@register.simple_tag(takes_context=True)
def looks_attributes(context) -> SafeString:
    """`` data-theme="auto" data-table="green" ...``: the looks of the request's player."""
    request = context.get("request")
    if request is None:
        return SafeString("")
    return format_html_join("", ' data-{}="{}"', looks_of(request).items())
