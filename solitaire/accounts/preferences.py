"""The player's language and time zone: chosen (the language switcher) or detected (the
browser's time zone), kept in the session, saved on the account, and put in force for each
request by ``PreferencesMiddleware``.

The language: Django's ``LocaleMiddleware`` takes it from the URL's prefix (the public pages),
else from the language cookie that the switcher sets, else from the browser's
``Accept-Language``. A player who chose a language on one device and logs in on another gets it
there too: the log-in copies it into the session, and this middleware sets the cookie from the
session on a device that has none yet.
"""

import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from .models import Preferences

LANGUAGE_KEY = "language"
TIME_ZONE_KEY = "time_zone"
#: Every time zone name the site accepts.
TIME_ZONES = frozenset(zoneinfo.available_timezones())


def remember(request: HttpRequest, *, language: str = "", time_zone: str = "") -> None:
    """Keep the player's choice in their session, and on their account if they have one."""
    changes = {}
    if language:
        request.session[LANGUAGE_KEY] = changes["language"] = language
    if time_zone:
        request.session[TIME_ZONE_KEY] = changes["time_zone"] = time_zone
    user = getattr(request, "user", None)
    if changes and user is not None and user.is_authenticated:
        Preferences.objects.update_or_create(user=user, defaults=changes)


def restore(request: HttpRequest, user) -> None:
    """At log-in: the account's saved choices into the session (kept for the device)."""
    saved = Preferences.objects.filter(user=user).first()
    if saved is None:
        return
    if saved.language:
        request.session[LANGUAGE_KEY] = saved.language
    if saved.time_zone:
        request.session[TIME_ZONE_KEY] = saved.time_zone


class PreferencesMiddleware:
    """Put the session's time zone in force, and its language where the request has none of
    its own yet (no language cookie, no language in the URL): a second device follows the
    first. A device with no language of its own that comes in on a page of a language (a
    link to /pl/... opened in the browser) keeps that language: the game it opens there and
    the next pages, whose addresses carry no language, are in it too. Placed after the
    session and authentication middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is None or session.session_key is None:
            session = {}
        chosen = session.get(LANGUAGE_KEY)
        has_cookie = settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        # The URL's language is looked for only on a device with no cookie (not on a move).
        adopt = (
            chosen
            and not has_cookie
            and translation.get_language_from_path(request.path_info) is None
        )
        if adopt:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        zone = session.get(TIME_ZONE_KEY)
        if zone in TIME_ZONES:
            timezone.activate(zoneinfo.ZoneInfo(zone))
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        # The session's language on a device that has none; else the language of the page the
        # device came in on, where it has none and no choice was made: a page the player opened
        # (the browser's navigation), not what a service worker or a page fetches by itself
        # (the offline page of every language, the manifest).
        keep = chosen if adopt else None
        opened = request.headers.get("Sec-Fetch-Mode") == "navigate"
        if opened and not (keep or has_cookie or chosen):
            keep = translation.get_language_from_path(request.path_info)
        if keep:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                keep,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
