"""Slowing down password guessing, without locking an account's owner out of it.

Failed log-ins count three ways (settings.LOGIN_FAILURES, each as (how many, within seconds)):

- per username and client: the username tried from one address (an IPv6 address by its /64)
  or from one known device. Past the count, that client's checks of that username are
  refused until the window ends: the guesser is locked out, not the account.
- per address, whatever the username: past the count, every log-in from that address is
  refused until the window ends (one address guessing at many accounts).
- per username, whatever the address: past the count, the username is not locked but slowed:
  each check must wait for a delay after the last failure, doubling with each failure up to
  settings.LOGIN_DELAY_MAX seconds. Guessing from many addresses gets a few guesses a minute;
  the owner waits at most that long.

A device that logged into an account before carries a signed cookie naming it (``remember``):
from it, the owner's log-in is neither slowed by the username's failures nor refused for its
address's; its own failures count per (username, device). A success forgets the failures of
that username from that client only, never the username's or the address's: one account of
one's own must not reset the count for guessing at others.

Password checks in a logged-in session (changing the password, deleting the account) are
another matter: the session is the player's, so they count per session
(settings.LIMITS["password-session"]) and no failure elsewhere touches them.

A try is counted before its password is hashed (``attempt``), per username and client and
per address, and given back when the password was right (``succeeded``): tries sent at once
from one client each take their place in the count first, so no more than the limit are ever
hashed, however many arrive together. The hashes themselves, every form's, run at most
settings.PASSWORD_HASHES_AT_ONCE at a time across the site (forms.py); one more is refused at
once, never queued on a thread.

The counts live in Django's cache (solitaire/limits.py), shared by every process once the
cache is. Each lock-out, and each username that starts being slowed, logs one line to the
"solitaire.security" logger: once per client and window, not once per refused try.
"""

import hashlib
import json
import logging
import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from solitaire import limits

logger = logging.getLogger("solitaire.security")

#: The signed cookie of a device that logged in before: its id and the accounts it logged into.
DEVICE_COOKIE = "known_device"
DEVICE_SALT = "solitaire.accounts.device"
DEVICE_AGE = 60 * 60 * 24 * 365
#: Accounts one device remembers (a family's computer); the oldest is forgotten first.
DEVICE_ACCOUNTS = 8


def username_key(username: str) -> str:
    """A username as the throttle counts it: in any case the same."""
    return hashlib.sha256(username.casefold().encode()).hexdigest()[:24]


def known_device(request: HttpRequest) -> dict:
    """The device cookie's contents ({"id": ..., "users": [username keys]}), or {} for none
    (or a forged one)."""
    value = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=DEVICE_SALT, max_age=DEVICE_AGE
    )
    try:
        device = json.loads(value or "{}")
    except ValueError:
        return {}
    if not isinstance(device, dict) or not isinstance(device.get("users"), list):
        return {}
    return device


def trusted(request: HttpRequest, username: str) -> bool:
    """Whether this device logged into ``username`` before."""
    return username_key(username) in known_device(request).get("users", [])


def client_of(request: HttpRequest, username: str) -> str:
    """Who is guessing, for the per-username-and-client count: the known device, else the
    address."""
    if trusted(request, username):
        return "device:" + str(known_device(request).get("id", ""))
    return "address:" + limits.client_key(request)


def wait_seconds(request: HttpRequest, username: str) -> int:
    """How long password checks of ``username`` from this client stay refused; 0 if allowed."""
    user = username_key(username)
    waits = [refused("username-address", f"{user}|{client_of(request, username)}")]
    if not trusted(request, username):
        waits.append(refused("address", limits.client_key(request)))
        waits.append(slowed(user))
    return max(waits)


def attempt(request: HttpRequest, username: str) -> int:
    """Count a try at ``username``'s password from this client before it is hashed: 0 if it may
    be hashed, else the seconds it is refused for (its count past the limit: it is no guess).
    Reaching a limit locks the client out, and says so once in the log."""
    user = username_key(username)
    client = client_of(request, username)
    waits = [take("username-address", f"{user}|{client}", username, client)]
    if not trusted(request, username):
        address = limits.client_key(request)
        waits.append(take("address", address, username, address))
    return max(waits)


def take(kind: str, key: str, username: str, client: str) -> int:
    """Count one try of ``key`` against LOGIN_FAILURES[kind]: 0 within it (the one that reaches
    it logs the lock-out), else the seconds to wait."""
    limit, per = settings.LOGIN_FAILURES[kind]
    now = time.time()
    tries = limits.count(f"login-{kind}", key, per, now)
    if tries == limit:
        logger.warning("lockout: %s %s (username %r) for %d s", kind, client, username[:150], per)
    return 0 if tries <= limit else limits.seconds_left(now, per)


def failed(request: HttpRequest, username: str) -> None:
    """A try at ``username``'s password failed: its count stands, and the username is slowed
    once it failed often, from wherever (the per-client counts were taken by ``attempt``)."""
    user = username_key(username)
    if count("username", user):
        logger.warning("lockout: username %r slowed (failures from many addresses)", username[:150])
    cache.set(last_failure_key(user), time.time(), settings.LOGIN_FAILURES["username"][1])


def given_back(request: HttpRequest, username: str) -> None:
    """A counted try that was never hashed (the site was busy hashing others): not a guess."""
    user = username_key(username)
    limits.take_back(
        "login-username-address",
        f"{user}|{client_of(request, username)}",
        settings.LOGIN_FAILURES["username-address"][1],
    )
    if not trusted(request, username):
        limits.take_back(
            "login-address", limits.client_key(request), settings.LOGIN_FAILURES["address"][1]
        )


def succeeded(request: HttpRequest, username: str) -> None:
    """The player got their password right: this client's failures for ``username`` are
    forgotten, and the try it took of the address's count is given back (one account of one's
    own never resets the count for guessing at others)."""
    key = f"{username_key(username)}|{client_of(request, username)}"
    limits.forget("login-username-address", key, settings.LOGIN_FAILURES["username-address"][1])
    if not trusted(request, username):
        limits.take_back(
            "login-address", limits.client_key(request), settings.LOGIN_FAILURES["address"][1]
        )


def remember(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a good log-in: this device is known for ``username`` from now on."""
    device = known_device(request)
    users = [u for u in device.get("users", []) if u != username_key(username)]
    users = [*users, username_key(username)][-DEVICE_ACCOUNTS:]
    value = json.dumps({"id": device.get("id") or secrets.token_urlsafe(12), "users": users})
    response.set_signed_cookie(
        DEVICE_COOKIE,
        value,
        salt=DEVICE_SALT,
        max_age=DEVICE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def refused(kind: str, key: str) -> int:
    limit, per = settings.LOGIN_FAILURES[kind]
    return limits.refused(f"login-{kind}", key, limit, per)


def count(kind: str, key: str) -> bool:
    """Count one failure; True when it is the one that reaches the limit (a lock-out)."""
    limit, per = settings.LOGIN_FAILURES[kind]
    limits.hit(f"login-{kind}", key, limit, per)
    return limits.counted(f"login-{kind}", key, per) == limit


def slowed(user: str) -> int:
    """The seconds the next check of the username ``user`` must still wait; 0 if none."""
    limit, per = settings.LOGIN_FAILURES["username"]
    excess = limits.counted("login-username", user, per) - limit
    if excess < 0:
        return 0
    last = cache.get(last_failure_key(user))
    if last is None:
        return 0
    delay = min(2**excess, settings.LOGIN_DELAY_MAX)
    return max(0, int(last + delay - time.time() + 0.999))


def last_failure_key(user: str) -> str:
    return f"throttle:last-failure:{user}"
