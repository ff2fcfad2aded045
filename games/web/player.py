"""Who the player is, on every request: ``request.owner``, set by ``OwnerMiddleware`` and
worked out only when a view first asks (as ``request.user`` is); and what the player chose
for the automatic moves, kept in the session.

A guest's games hang on their session key. A session in use is renewed once a day
(``SESSION_COOKIE_AGE`` from then), so a guest who keeps playing never loses their games to a
session that expires a year after it was first written.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from solitaire import clock

from ..owners import Owner

#: The session key of the per-game-type "automatic moves to foundations" settings.
AUTOPLAY_KEY = "autoplay"
#: The session key of the day the session was last renewed.
RENEWED_KEY = "renewed"


class OwnerMiddleware:
    """Sets ``request.owner``, lazily: a request that never asks costs no session read.
    After the session and authentication middlewares."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.owner = SimpleLazyObject(lambda: _owner(request))
        return self.get_response(request)


def with_session(request: HttpRequest) -> Owner:
    """The player, with a session made for a guest who has none (a guest about to start a
    game); ``request.owner`` is this player from then on."""
    request.session.get(RENEWED_KEY)  # loads it: a key with no live session is forgotten
    if request.session.session_key is None:
        request.session[RENEWED_KEY] = clock.localdate().isoformat()
        request.session.save()
    request.owner = owner = _owner(request)
    return owner


def autoplay_settings(request: HttpRequest) -> dict[str, bool]:
    """The player's "automatic moves to foundations" settings, by game type."""
    settings = request.session.get(AUTOPLAY_KEY, {})
    return settings if isinstance(settings, dict) else {}


def _owner(request: HttpRequest) -> Owner:
    session = request.session
    # Read first: reading loads the session, and a key with no live session (expired, or
    # never given) is forgotten then, so that it is never taken for a guest's.
    renewed = session.get(RENEWED_KEY)
    today = clock.localdate().isoformat()
    if session.session_key is not None and renewed != today:
        session[RENEWED_KEY] = today  # modified: saved, and its cookie sent, this once
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Owner(user=user)
    return Owner(session_key=session.session_key or "")
