"""Parts of pages drawn once per process and language, then served from memory.

Much of a page is the same for every player who reads it in one language: the home page's
ten games and their forms, its "Play a given deal" form, the site's links, the language
menu, the game page's list of keys. Drawing them costs the template engine milliseconds on
every request. A template marks such a part::

    {% load frames %}
    {% frame "home-games" %}...{% endframe %}
    {% frame "keys" variant.id %}...{% endframe %}

The part is drawn the first time it is needed for its name, the language, the script prefix
the site is served under and the values given after the name (each must decide everything
the part shows besides the language), and kept; each later request gets the kept text. The
one thing of the player's a kept part may hold is the CSRF token of its forms: the part is
drawn with a stand-in for it, and each request's own token is put in its place.

A part must read nothing else of the request, the player or the time. ``FRAMES = False`` in
the settings draws every part afresh (tests/web/test_frames.py compares the pages drawn both
ways, in every language and look, as a guest and signed in).
"""

import threading

from django import template
from django.conf import settings
from django.urls import get_script_prefix
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

#: What a kept part holds in place of the CSRF token (only letters and digits, so that no
#: escaping changes it).
TOKEN_STAND_IN = "csrfframetokenstandin0d41c7a9"
#: The most parts kept in one process (for each name, language and values); past it the oldest go.
MOST_KEPT = 512

_kept: dict[tuple, str] = {}
_lock = threading.Lock()


def forget() -> None:
    """Drop every kept part (a test that changes what a part shows calls it)."""
    with _lock:
        _kept.clear()


class FrameNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name, values: list) -> None:
        self.nodelist = nodelist
        self.name = name
        self.values = values

    def render(self, context: template.Context) -> str:
        token = context.get("csrf_token")
        if not settings.FRAMES or token is None:
            # Drawn afresh: frames are off, or the page is drawn without a request.
            return self.nodelist.render(context)
        key = (
            self.name.resolve(context),
            get_language(),
            get_script_prefix(),
            *(value.resolve(context) for value in self.values),
        )
        text = _kept.get(key)
        if text is None:
            with context.push(csrf_token=TOKEN_STAND_IN):
                text = self.nodelist.render(context)
            with _lock:
                if len(_kept) >= MOST_KEPT:
                    _kept.pop(next(iter(_kept)))
                _kept[key] = text
        if TOKEN_STAND_IN in text:
            text = text.replace(TOKEN_STAND_IN, str(token))
        return mark_safe(text)


@register.tag
def frame(parser, token):
    """``{% frame "name" value ... %}...{% endframe %}``: the part between, drawn once for its
    name, the language and the values, then kept (see the module's docstring)."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("frame needs a name")
    nodelist = parser.parse(("endframe",))
    parser.delete_first_token()
    return FrameNode(
        nodelist, parser.compile_filter(bits[1]), [parser.compile_filter(b) for b in bits[2:]]
    )
