"""The site as an app on a phone's home screen: the web app manifest (in the visitor's
language, one ``id`` for every language, so that the site installs as one app), the service
worker (at a stable address at the root, so that its scope is the whole site) and the page it
shows when the network is away (docs/app.md).

The service worker keeps the static files (hashed names: cache first) and the offline page,
and nothing else: pages and every request of a game go to the network, so the board a player
sees is always the server's.
"""

import hashlib
import json
import re
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

#: The table's green (static/css/site.css, --felt): the splash screen's and the bar's colour.
TABLE_GREEN = "#0b5d3b"
#: The icons the project draws (``manage.py draw_icons``): (file, size, purpose).
ICONS = [
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/maskable-192.png", 192, "maskable"),
    ("icons/maskable-512.png", 512, "maskable"),
]
APPLE_TOUCH_ICON = "icons/apple-touch-icon.png"
#: The static files every page needs, kept by the service worker when it is installed (the
#: others are kept the first time a page asks for them).
SHELL = [
    "css/site.css",
    "js/game.js",
    "js/looks.js",
    "js/zone.js",
    "js/app.js",
    "favicon.svg",
    *(name for name, _size, _purpose in ICONS),
]
#: The short sounds of the game page (``manage.py synthesise_sounds``): fetched only when the
#: player turned the sound on.
SOUNDS = ["placed", "deal", "refused", "win"]


def sound_file(name: str) -> str:
    return f"sounds/{name}.wav"


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the language of its address (``/fr/manifest.webmanifest``)."""
    data = {
        # One id for every language: the French and the English manifest are the same app.
        "id": "/",
        "name": _("Forty Thieves patience"),
        # Translators: the app's name under its icon on a home screen: about 12 letters at most.
        "short_name": _("Patience"),
        "description": _(
            "Forty Thieves and nine other patience games of two decks, with numbered deals."
        ),
        "lang": get_language(),
        "dir": "rtl" if get_language_bidi() else "ltr",
        "start_url": reverse("pages:home"),
        "scope": "/",
        "display": "standalone",
        "background_color": TABLE_GREEN,
        "theme_color": TABLE_GREEN,
        "icons": [
            {"src": static(name), "sizes": f"{size}x{size}", "type": "image/png", "purpose": use}
            for name, size, use in ICONS
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a page cannot be fetched: it says so in the
    language of its address, and offers to try again. No form, no token: it is kept."""
    return render(request, "app/offline.html")


def _htmx_files() -> list[str]:
    """The addresses of htmx's scripts, as every page's ``{% htmx_script %}`` writes them."""
    tag = engines["django"].from_string("{% load django_htmx %}{% htmx_script %}").render()
    return re.findall(r'src="([^"]+)"', tag)


def _offline_pages() -> dict[str, str]:
    pages = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            pages[code] = reverse("offline")
    return pages


@cache
def _worker_data() -> tuple[list[str], dict[str, str], str]:
    """What the service worker keeps at its install and its version: a digest of those files'
    contents, so that a deploy that changes any of them installs a new worker on the next
    visit (hashed names change with their contents too)."""
    files = [static(name) for name in SHELL] + _htmx_files()
    pages = _offline_pages()
    digest = hashlib.sha256()
    for name in SHELL:
        path = finders.find(name)
        digest.update(name.encode())
        if path:
            with open(path, "rb") as f:
                digest.update(f.read())
    for url in [*files, *pages.values()]:
        digest.update(url.encode())
    return files, pages, digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script, at ``/sw.js``: its scope is the whole site. Asked again at
    each visit (no-cache), so that a new deploy is picked up on the next one."""
    files, pages, version = _worker_data()
    static_url = settings.STATIC_URL
    context = {
        "version": json.dumps(version),
        "files": json.dumps(files),
        "offline_pages": json.dumps(pages),
        "static_url": json.dumps(static_url if static_url.startswith("/") else f"/{static_url}"),
    }
    response = render(request, "app/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
