"""Rate limits: how often one client (or one account, one email address) may do a costly thing.

``hit(scope, key, limit, per)`` counts one request of ``key`` in ``scope`` and says whether it
is allowed: at most ``limit`` in each window of ``per`` seconds. ``client_key(request)`` is the
client's address (an IPv6 address by its /64, the block one subscriber usually holds), and
``too_many(request, seconds)`` the answer once a limit is reached: a 429 with Retry-After, as a
page or, for htmx, as a message in the page's message area.

The counts live in Django's default cache through its public API (``add`` and ``incr``, atomic
in the shared caches), so every web process sees the same counts once that cache is shared.
A window is fixed (it starts at a multiple of ``per`` seconds): one counter per key and
window, which expires with it, and Retry-After is exactly the time to the window's end.
The figures themselves are settings (settings.LIMITS), described in docs/security.md.

A client that goes on sending once refused is held back: its next refusals in the same window
are answered only after ``settings.LIMIT_HOLD_SECONDS`` (``hold_back``). A client that never
pauses then sends one request in that time instead of hundreds, and the waiting costs no CPU:
a thread of a threaded web process (gunicorn's gthread, WEB_THREADS) sleeps.
Each process holds at most ``holds_at_once()`` refusals at a time, all but FREE_THREADS of its
threads, so a crowd of refused clients never takes every thread from the players; past that,
a refusal is answered at once. A process of one thread holds nothing back.
"""

import hashlib
import ipaddress
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.translation import ngettext_lazy


def client_key(request: HttpRequest) -> str:
    """The client's address: the connection's, or behind a proxy the last entry of the header
    settings.CLIENT_IP_HEADER names (the one the proxy itself added); an IPv6 address as its
    /64."""
    header = settings.CLIENT_IP_HEADER
    text = ""
    if header:
        text = request.headers.get(header, "").split(",")[-1].strip()
    text = text or request.META.get("REMOTE_ADDR", "")
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text[:64] or "unknown"
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def hit(scope: str, key: str, limit: int, per: int) -> int:
    """Count one request of ``key`` in ``scope``: 0 if it is within ``limit`` requests per
    ``per`` seconds, else the seconds until one is allowed again (the request is refused and
    the caller does nothing)."""
    now = time.time()
    return 0 if count(scope, key, per, now) <= limit else seconds_left(now, per)


def count(scope: str, key: str, per: int, now: float) -> int:
    """Count one request of ``key`` in ``scope`` in the window of ``per`` seconds that holds
    ``now``: how many that window has counted, this one included."""
    name = counter_key(scope, key, int(now // per))
    # Counted first, made only for a window's first request: two round trips to Redis for
    # every request but one, not three. The counter outlives its window a little: a clock step
    # never makes it vanish early.
    for _ in range(2):
        try:
            return cache.incr(name)
        except ValueError:  # the window's first request, or the counter was evicted
            if cache.add(name, 1, per + 5):
                return 1
    return 1  # made and evicted again meanwhile, twice: counted as the window's first


def refused(scope: str, key: str, limit: int, per: int) -> int:
    """Whether ``key`` in ``scope`` has used up its ``limit`` in this window of ``per``
    seconds, without counting: the seconds until the window ends, else 0. With ``hit`` it
    counts only some requests (failures, say): ``refused`` before, ``hit`` once one failed."""
    now = time.time()
    return 0 if counted(scope, key, per) < limit else seconds_left(now, per)


def seconds_left(now: float, per: int) -> int:
    """Whole seconds (at least 1) from ``now`` to the end of its window of ``per`` seconds."""
    return max(1, math.ceil(window_end(now, per) - now))


def window_end(now: float, per: int) -> float:
    """When the window of ``per`` seconds that holds ``now`` ends."""
    return (now // per + 1) * per


def hit_setting(name: str, key: str) -> int:
    """``hit`` with the figures of settings.LIMITS[name], in the scope ``name``."""
    limit, per = settings.LIMITS[name]
    return hit(name, key, limit, per)


def refused_setting(name: str, key: str) -> int:
    """``refused`` with the figures of settings.LIMITS[name], in the scope ``name``."""
    limit, per = settings.LIMITS[name]
    return refused(name, key, limit, per)


def hit_or_hold(scope: str, key: str, limit: int, per: int) -> int:
    """``hit``, for a limit whose refusals are held back: the first refusal in a window is
    answered at once, the ones after it, from a client that did not wait, only after
    ``hold_back``. 0 if the request is allowed, else the seconds until one is again."""
    now = time.time()
    so_far = count(scope, key, per, now)
    if so_far <= limit:
        return 0
    end = window_end(now, per)
    if so_far > limit + 1:
        hold_back(end - now)
    return max(1, math.ceil(end - time.time()))


def per_address(name: str, methods: tuple[str, ...] = ("POST",)):
    """A view decorator: each request of ``methods`` from one client address counts against
    settings.LIMITS[name]; past it, the view does not run and the answer is ``too_many``, its
    refusals held back as ``hit_or_hold`` says. The view names the limit (``address_limits``):
    a client refused already in the window is answered by ``RefuseEarly``, for nothing."""

    def decorator(view):
        limited_view = limited(name, lambda request, kwargs: client_key(request), methods)(view)
        limited_view.address_limits = (*getattr(view, "address_limits", ()), (name, methods))
        return limited_view

    return decorator


def per_game(name: str, methods: tuple[str, ...] = ("GET",)):
    """``per_address``, counting the requests about one game (the URL's ``public_id``) from one
    player, whatever their address: their account (every device of it), else their session,
    else their address. A stranger who knows the id counts apart and uses up nothing of the
    player's."""
    return limited(name, lambda request, kwargs: f"{kwargs['public_id']}|{asker(request)}", methods)


def asker(request: HttpRequest) -> str:
    """Who asks: an account, a guest's session, or an address with neither."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    return f"session:{key}" if key else f"address:{client_key(request)}"


def limited(name: str, key_of, methods: tuple[str, ...]):
    def decorator(view):
        @wraps(view)
        def limited_view(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in methods:
                wait = hit_or_hold(name, key_of(request, kwargs), *settings.LIMITS[name])
                if wait:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return limited_view

    return decorator


#: Threads of this process that serve requests: gunicorn's post_worker_init sets it to its
#: worker's (solitaire/gunicorn.conf.py, WEB_THREADS); Granian's workers, measured beside it,
#: through solitaire.wsgi.granian_worker.
threads = 1
#: Threads of a process that never hold a refusal back: a player's request always has one.
FREE_THREADS = 2
#: Refusals this process holds back now.
_holding = 0
_holding_lock = threading.Lock()


def holds_at_once() -> int:
    """How many refusals one process may hold back at a time."""
    return max(0, threads - FREE_THREADS)


def hold_back(seconds_left: float) -> float:
    """Wait settings.LIMIT_HOLD_SECONDS before a refusal is answered (at most until the
    client's window ends, ``seconds_left``), unless this process already holds as many as
    ``holds_at_once()``. The seconds it waited."""
    global _holding
    wait = min(settings.LIMIT_HOLD_SECONDS, seconds_left)
    if wait <= 0:
        return 0.0
    with _holding_lock:
        if _holding >= holds_at_once():
            return 0.0
        _holding += 1
    try:
        time.sleep(wait)
    finally:
        with _holding_lock:
            _holding -= 1
    return wait


def counted(scope: str, key: str, per: int) -> int:
    """How many requests of ``key`` in ``scope`` this window of ``per`` seconds counted."""
    return cache.get(counter_key(scope, key, int(time.time() // per)), 0)


def take_back(scope: str, key: str, per: int) -> None:
    """Take one request of ``key`` in ``scope`` back from this window's count (a try counted
    before it ran, that turned out not to count)."""
    try:
        if cache.decr(counter_key(scope, key, int(time.time() // per))) < 0:
            forget(scope, key, per)
    except ValueError:  # the window ended, or the counter was evicted: nothing to take back
        pass


def forget(scope: str, key: str, per: int) -> None:
    """Forget the current window's count of ``key`` in ``scope``."""
    cache.delete(counter_key(scope, key, int(time.time() // per)))


@contextmanager
def slot(scope: str, slots: int, seconds: int) -> Iterator[bool]:
    """One of ``slots`` places for work that must not run more than ``slots`` at once across
    every process (a password hash, which takes a core for most of a second): yields True with
    a place taken for the block, or False when all are taken (the caller refuses). A place a
    dead process held is free again after ``seconds``."""
    for n in range(slots):
        name = f"slot:{scope}:{n}"
        if cache.add(name, 1, seconds):
            try:
                yield True
            finally:
                cache.delete(name)
            return
    yield False


def counter_key(scope: str, key: str, window: int) -> str:
    """The cache key of one counter. Hashed: a key may be a username or an email address (any
    character, any length), and some caches take only short ASCII keys."""
    digest = hashlib.sha256(key.casefold().encode()).hexdigest()[:32]
    return f"limit:{scope}:{window}:{digest}"


#: "Try again in ...", in the largest unit that still says it within half a unit: (up to how
#: many seconds, the unit's seconds, the sentence).
WAITS = (
    (
        90,
        1,
        ngettext_lazy(
            "Too many requests: try again in %(count)d second.",
            "Too many requests: try again in %(count)d seconds.",
            "count",
        ),
    ),
    (
        90 * 60,
        60,
        ngettext_lazy(
            "Too many requests: try again in %(count)d minute.",
            "Too many requests: try again in %(count)d minutes.",
            "count",
        ),
    ),
    (
        math.inf,
        3600,
        ngettext_lazy(
            "Too many requests: try again in %(count)d hour.",
            "Too many requests: try again in %(count)d hours.",
            "count",
        ),
    ),
)


def wait_words(seconds: int) -> str:
    """ "Too many requests: try again in ..." for ``seconds``, in seconds, minutes or hours."""
    _below, unit, sentence = next(wait for wait in WAITS if seconds < wait[0])
    return sentence % {"count": math.ceil(seconds / unit)}


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The answer to a request over a limit: 429 with Retry-After. A page that says how long to
    wait; for htmx, only that sentence, put in the page's message area (#announce)."""
    retry_after = max(1, int(retry_after))
    context = {"message": wait_words(retry_after), "retry_after": retry_after}
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:
        response = render(request, "429.html#message", context, status=429)
        response["HX-Retarget"] = "#announce"
        response["HX-Reswap"] = "innerHTML"
    else:
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    patch_vary_headers(response, ["HX-Request"])
    return response


class RefuseEarly:
    """A middleware: a request to a view limited per address (``per_address``) from a client
    that this window has refused already is answered at once, 429 with Retry-After and a short
    page, before its session, its user or the database are read and without holding a thread.
    A client that goes on sending after its refusal costs a lookup of the URL and one read of
    the cache a request. Placed after the language's middleware (the URL's language prefix) and
    before any that reads the session."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            view = resolve(request.path_info).func
        except Resolver404:
            return self.get_response(request)
        for name, methods in getattr(view, "address_limits", ()):
            if request.method in methods:
                limit, per = settings.LIMITS[name]
                if counted(name, client_key(request), per) > limit:
                    return refused_briefly(request, seconds_left(time.time(), per))
        return self.get_response(request)


def refused_briefly(request: HttpRequest, retry_after: int) -> HttpResponse:
    """``too_many``'s answer drawn without the request (no session, no user, no context
    processor): the sentence, for htmx in the page's message area, else on a page of its own."""
    message = wait_words(retry_after)
    if request.headers.get("HX-Request") == "true":
        html = render_to_string("429.html#message", {"message": message})
        response = HttpResponse(html, status=429)
        response["HX-Retarget"] = "#announce"
        response["HX-Reswap"] = "innerHTML"
    else:
        html = render_to_string("429_brief.html", {"message": message})
        response = HttpResponse(html, status=429)
    response["Retry-After"] = str(retry_after)
    patch_vary_headers(response, ["HX-Request"])
    return response
