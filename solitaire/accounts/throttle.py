"""Slowing down password guessing: failed password checks counted per username and per address.

After ``failures`` failed checks for one username (in any case), or from one address (an IPv6
address counts by its /64), each within ``window`` seconds of the one before, checks for that
username or from that address are refused for ``window`` seconds, without looking at the
password; then the count starts again. A success forgets the username's failures, never the
address's (one account of one's own must not reset the count for guessing at others).

The counts live in Django's default cache, so they hold across processes and machines once
that cache is shared (settings.CACHES). ``cache.add`` and ``cache.incr`` are atomic in the
shared caches Django ships (Redis, Memcached), so two processes never lose a failure.
"""

import hashlib
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest

from solitaire.limits import client_key as client_address


@dataclass(frozen=True)
class Limit:
    #: What is counted: the cache keys' prefix.
    scope: str
    failures: int
    window: int


#: Five guesses at one account in 15 minutes: enough for a player's typos, too few to guess.
PER_USERNAME = Limit("login-username", failures=5, window=15 * 60)
#: More per address: players behind one address (a school, an office) share it.
PER_ADDRESS = Limit("login-address", failures=20, window=15 * 60)


def wait_seconds(request: HttpRequest, username: str) -> int:
    """How long password checks for ``username`` from this client stay refused; 0 if allowed."""
    now = time.time()
    blocked = cache.get_many(
        [
            cache_key(PER_USERNAME, username, "until"),
            cache_key(PER_ADDRESS, client_address(request), "until"),
        ]
    )
    return max((int(until - now) + 1 for until in blocked.values() if until > now), default=0)


def failed(request: HttpRequest, username: str) -> None:
    """Count a failed password check for ``username`` from this client."""
    _count(PER_USERNAME, username)
    _count(PER_ADDRESS, client_address(request))


def succeeded(username: str) -> None:
    """Forget the failures for ``username``: the player got their password right."""
    cache.delete(cache_key(PER_USERNAME, username, "count"))


def _count(limit: Limit, who: str) -> None:
    key = cache_key(limit, who, "count")
    cache.add(key, 0, limit.window)
    try:
        count = cache.incr(key)
    except ValueError:  # the count ran out between add and incr
        cache.add(key, 1, limit.window)
        count = 1
    # Some caches' incr() restores the default timeout: the window runs from the last failure.
    cache.touch(key, limit.window)
    if count >= limit.failures:
        cache.set(cache_key(limit, who, "until"), time.time() + limit.window, limit.window)
        cache.delete(key)


def cache_key(limit: Limit, who: str, part: str) -> str:
    """The cache key of ``limit``'s ``part`` ("count" or "until") for ``who``.

    Hashed: a username may hold any character, and some caches take only short ASCII keys.
    """
    digest = hashlib.sha256(who.casefold().encode()).hexdigest()[:32]
    return f"throttle:{limit.scope}:{part}:{digest}"
