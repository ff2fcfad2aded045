"""Abuse benchmark: the production server on loopback, on PostgreSQL and Redis, tried as an
attacker would, with a real player beside.

Run it as `.venv/bin/python tests/bench/abuse.py [--garbled 5000] [--flood-seconds 60]
[--signup-clients 10] [--hint-guests 200] [--resets 40] [--guesses 50]
[--cheap-flood-seconds 30] [--flood-connections 20] [--mistakes 20] [--balancer]
[--only 5,7,8]`.

It (re)creates its own PostgreSQL database ``solitaire_abuse`` (dropping the one an earlier run
left), uses Redis database 11 under a key prefix of its own, starts ``bin/serve`` on
127.0.0.1:8300 (debug off, plain HTTP, DJANGO_CLIENT_IP_HEADER=X-Forwarded-For so that one
script can be many clients: each request names its address in that header) with a mail sink of
its own on 127.0.0.1:8301 for the reset mails, and measures, each bounded in count and time:

1. Garbled requests (--garbled, at least 5,000): every kind of URL the site has, with any
   method (and some that are none), bodies in charsets and encodings no browser sends
   (latin-1, utf-16, unknown ones, bytes that are no UTF-8, broken multipart), broken
   percent-encoding, odd headers, a CSRF cookie and header the client chose itself. Printed:
   the answers by status; the target is no answer of 500 or more.
2. The password reset's time for an address with an account and one without (--resets of
   each, interleaved, each from a fresh address and client): the medians, the target within
   5 ms of each other; and the mails the sink received.
3. The lock-out: an owner signs up on their usual device and logs out; --guesses wrong
   passwords for their username come from as many other addresses (how many were checked and
   how many refused unchecked); then the owner logs in from their device (target: at once,
   302) and, for comparison, from a device the site has never seen.
4. The flood (--flood-seconds): --signup-clients clients, each from its own address, sign up
   as fast as they can; --hint-guests guests without cookies (each a new session from a new
   address) start a game and ask for a hint; meanwhile a real player plays moves (the p95 of
   their move's time, target under 50 ms) and, once the hints are all asked, asks for a hint
   of their own (the time until it answers, target under 5 s, and what it said).
5. Cheap URLs flooded (--cheap-flood-seconds): one address polls its own game's catch-up
   poll flat out over --flood-connections connections, and another asks for hints flat out
   over as many; meanwhile the real player plays. Printed: the flooders' answers by status and
   per second, and the player's moves (target p95 under 50 ms).
6. A client's mistakes (--mistakes of each): 1,001 fields, a 3 MB body, a bad Host, a bad CSRF
   token, garbled cookies. Printed: the answers by status (target: all 4xx) and the ERROR
   lines and tracebacks they left in the server's log (target: none).
7. Password floods (--password-flood-seconds each): one address sends wrong passwords flat out
   over --flood-connections connections, to the admin's log-in (a superuser's username), then
   to the site's; meanwhile the real player plays. Printed: the answers by status, the
   passwords hashed (the answers that checked one) per 100 refused, the WARNING lines the flood
   left in the log, and the player's moves beside the quiet ones of 4. (target: p95 at most
   1.5 times the quiet p95).
8. Pages flooded (--cheap-flood-seconds): one address asks flat out, over --flood-connections
   connections, for the pages that cost (its game's page, today's leaderboard, its shared
   game's page and image); the real player's moves beside the quiet ones (same target).
9. The deadlock (--deadlock-seconds): --deadlock-guests guests each ask for a hint and an
   analysis, then undo and redo, over and over. Printed: the answers, and the "deadlock
   detected" and ERROR lines in the server's log (target: none).
10. Shared images (--image-moves): a guest shares a game and plays, fetching the image after
   each move. Printed: the image keys in Redis (target: none: images live on the file system)
   and the image files kept (target: one per game).
11. The daily leaderboard gamed: a script gets the solver's line for today's Forty Thieves
   through the site (hints on another game of the same deal, at most --line-steps), plays it on
   its daily game flat out saying its page was hidden all along, and reads its row on the day's
   leaderboard (target: not ranked, or at no less than a person's time per move); five fresh
   guests from one address open today's deal (target: at most DAILY_GUESTS_PER_ADDRESS with the
   script); a stranger opens the script's shared daily game (target: its moves hidden).
12. Names and links: lookalikes of a taken public name and the site's words refused, names in
   Tamil, Hindi and Thai saved; a guest's session key absent from the staff's pages; a
   shared image gone once its link is withdrawn; the owner's poll answered after a stranger's
   hundred polls of the same game.

--only N,N... runs only those measures (4's quiet moves run with 5, 7 and 8 too).

--balancer puts Debian's HAProxy with deploy/haproxy.cfg (the door: docs/security.md) in front
of the server, as the cluster and compose.yaml run it; each client then sends from its own
loopback address (127.0.0.0/8 is all loopback) instead of naming it in a header.

The client shares the machine's cores with the server: the load average is printed before
and after. The exit status is 1 when a target is missed, 2 when the run could not be made.
"""

import argparse
import asyncio
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import psycopg
from redis import Redis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.loadtest import (  # noqa: E402 (after the path is set)
    Http,
    HttpError,
    Server,
    default_workers,
    follow,
    fresh_database,
    load,
    opened_path,
    read_board,
)

DB_NAME = "solitaire_abuse"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/11"
HOST = "127.0.0.1"
PORT = 8300
SMTP_PORT = 8301
BALANCER_PORT = 8302
PASSWORD = "a long passphrase of forty thieves"
#: Seconds one request may take before it counts as failed; the whole run's bound.
REQUEST_TIMEOUT = 30.0
RUN_TIMEOUT = 900.0
#: The flood's guests ask their hints this many at a time (as many as the sign-up clients).
HINT_CONCURRENCY = 10
#: Targets.
MOVE_P95_MS = 50.0
HINT_SECONDS = 5.0
RESET_SPREAD_MS = 5.0
#: How much slower the player's moves may be beside a flood than alone (p95).
FLOOD_FACTOR = 1.5

METHODS = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FUZZ"]
BAD_TYPES = [
    "application/x-www-form-urlencoded; charset=latin-1",
    "application/x-www-form-urlencoded; charset=iso-8859-1",
    "application/x-www-form-urlencoded; charset=utf-16",
    "application/x-www-form-urlencoded; charset=nonexistent",
    "application/x-www-form-urlencoded; charset=",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x; charset=utf-16",
    "multipart/form-data; boundary=x",
    "multipart/form-data",
    "application/json; charset=utf-16",
    "text/plain; charset=bogus",
    "☃/☃",
]
FIELDS = ["move", "ply", "version", "variant", "deal", "text", "username", "password", "email"]
ODD = ["", "%zz", "%", "%%", "\xe9", "t1-t2", "deal", "-1", "9" * 50, "\x00", "<script>", "é☃"]


def address(n: int) -> str:
    """The n-th client address (10.x.y.z), for X-Forwarded-For."""
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255 or 1}"


# -- a mail sink ----------------------------------------------------------------------------


class MailSink:
    """The smallest SMTP server that takes every mail: counts them by recipient."""

    def __init__(self) -> None:
        self.received: Counter = Counter()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 sink\r\n")
        recipients: list[str] = []
        try:
            while line := await reader.readline():
                command = line.decode("latin-1").strip().upper()
                if command.startswith(("EHLO", "HELO")):
                    writer.write(b"250 sink\r\n")
                elif command.startswith("RCPT"):
                    recipients.append(command.partition(":")[2].strip(" <>").lower())
                    writer.write(b"250 ok\r\n")
                elif command == "DATA":
                    writer.write(b"354 go on\r\n")
                    await reader.readuntil(b"\r\n.\r\n")
                    self.received.update(recipients)
                    recipients = []
                    writer.write(b"250 ok\r\n")
                elif command == "QUIT":
                    writer.write(b"221 bye\r\n")
                    break
                else:
                    writer.write(b"250 ok\r\n")
                await writer.drain()
        finally:
            writer.close()


# -- a client of the site -------------------------------------------------------------------


def loopback(n: int) -> str:
    """The n-th client's own loopback address (127.x.y.z, none of 127.0.0.0/16), the one its
    connections come from when it goes through the balancer."""
    return f"127.{1 + ((n >> 16) & 127)}.{(n >> 8) & 255}.{n & 255 or 1}"


#: Where the clients send their requests: the app server itself (each naming its address in
#: X-Forwarded-For) or, with --balancer, HAProxy in front of it (each from its own address).
through_balancer = False


class Client:
    """One browser: its cookies, its address (sent as X-Forwarded-For, or through the balancer
    the address its connections come from)."""

    def __init__(self, n: int) -> None:
        if through_balancer:
            self.http = Http(HOST, BALANCER_PORT, loopback(n))
        else:
            self.http = Http(HOST, PORT)
        self.address = address(n)

    async def call(self, method: str, path: str, form=None, htmx=False):
        headers = {} if through_balancer else {"X-Forwarded-For": self.address}
        if htmx:
            headers["HX-Request"] = "true"
        if method == "POST" and "csrftoken" in self.http.cookies:
            headers["X-CSRFToken"] = self.http.cookies["csrftoken"]
        return await asyncio.wait_for(
            self.http.request(method, path, form, headers), REQUEST_TIMEOUT
        )

    async def timed(self, method: str, path: str, form=None, htmx=False):
        start = time.perf_counter()
        response = await self.call(method, path, form, htmx)
        return response, (time.perf_counter() - start) * 1000

    async def start_game(self) -> str:
        """Open the home page (the cookies), start a game: its path ("/g/<id>/")."""
        await self.call("GET", "/en/")
        response = await self.call("POST", "/new/", {"variant": "forty-thieves", "deal": ""})
        if response.status != 302:
            raise HttpError(f"POST /new/ answered {response.status}")
        return urllib.parse.urlsplit(response.headers["location"]).path

    def close(self) -> None:
        self.http.close()


# -- 1. garbled requests --------------------------------------------------------------------


def garbled_request(r: random.Random, game: str) -> bytes:
    """A request no browser sends, as raw bytes."""
    path = r.choice(
        [
            "/en/",
            "/new/",
            "/import/",
            "/account/login/",
            "/account/signup/",
            "/account/reset/",
            "/account/password/",
            "/account/delete/",
            "/i18n/language/",
            "/i18n/time-zone/",
            f"{game}",
            f"{game}move/",
            f"{game}undo/",
            f"{game}hint/",
            f"{game}analysis/",
            "/g/nope/move/",
            "/en/play/forty-thieves/7/",
            "/en/play/" + r.choice(ODD) + "/1/",
            "/no/such/page/",
            "/admin/",
            "/%zz/",
            "/\xe9/",
        ]
    )
    if r.random() < 0.3:
        path += "?" + r.choice(["%zz", "a=%", "move=" + r.choice(ODD), "\xff"])
    method = r.choice(METHODS)
    content_type = r.choice(BAD_TYPES)
    fields = [(r.choice(FIELDS), r.choice(ODD)) for _ in range(r.randrange(5))]
    kind = r.randrange(4)
    if kind == 0:
        body = "&".join(f"{k}={v}" for k, v in fields).encode("utf-16")
    elif kind == 1:
        body = "&".join(f"{k}={v}" for k, v in fields).encode("latin-1", "replace")
    elif kind == 2:
        body = r.randbytes(r.randrange(200))
    else:
        body = b'--x\r\nContent-Disposition: form-data; name="text"\r\n\r\n\xe9\xff\r\n--x--\r\n'
    token = "t" * 32
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {HOST}:{PORT}",
        f"X-Forwarded-For: {address(r.randrange(1 << 20))}",
        f"Cookie: csrftoken={token}",
        f"X-CSRFToken: {token}",
        f"Content-Type: {content_type}",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    if r.random() < 0.5:
        lines.append("HX-Request: true")
    if r.random() < 0.1:
        lines.append(f"Accept-Language: {r.choice(['fr', '*', 'x' * 300, 'ü'])}")
    return "\r\n".join(lines).encode("utf-8") + b"\r\n\r\n" + body


async def send_raw(raw: bytes) -> int:
    """Send one request on its own connection; the answer's status (0: no answer)."""
    try:
        reader, writer = await asyncio.open_connection(HOST, PORT)
    except OSError:
        return 0
    try:
        writer.write(raw)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT)
        await asyncio.wait_for(reader.read(), REQUEST_TIMEOUT)
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return 0
    finally:
        writer.close()


async def garbled(count: int, seed: int) -> Counter:
    player = Client(1)
    game = await player.start_game()
    player.close()
    r = random.Random(seed)
    requests = [garbled_request(r, game) for _ in range(count)]
    statuses: Counter = Counter()
    gate = asyncio.Semaphore(8)

    async def one(raw: bytes) -> None:
        async with gate:
            statuses[await send_raw(raw)] += 1

    await asyncio.gather(*(one(raw) for raw in requests))
    return statuses


# -- 2. reset timing ------------------------------------------------------------------------


def make_accounts(emails: list[str]) -> None:
    """Accounts with these addresses, written straight into the database (signing them up
    would take the sign-up limits' time)."""
    insert_users([(f"known{n}", email) for n, email in enumerate(emails)])


def insert_users(users: list[tuple[str, str]], superuser: bool = False) -> None:
    """Accounts (username, email address) written straight into the database, with one
    password hash for all, made by Django."""
    import django
    from django.conf import settings

    if not settings.configured:
        settings.configure()
        django.setup()
    from django.contrib.auth.hashers import make_password

    password = make_password(PASSWORD)
    with psycopg.connect(DATABASE_URL.replace("postgres://", "postgresql://")) as connection:
        for username, email in users:
            connection.execute(
                "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,"
                " email, is_staff, is_active, date_joined)"
                " VALUES (%s, %s, %s, '', '', %s, %s, true, now())",
                (password, superuser, username, email, superuser),
            )


async def reset_timing(count: int, base: int) -> tuple[list[float], list[float]]:
    known, unknown = [], []
    for n in range(count):
        for kind, times in (("known", known), ("unknown", unknown)):
            client = Client(base + 2 * n + (kind == "unknown"))
            await client.call("GET", "/account/reset/")
            response, ms = await client.timed(
                "POST", "/account/reset/", {"email": f"{kind}{n}@example.org"}
            )
            client.close()
            if response.status != 302:
                raise HttpError(f"reset answered {response.status} for the {kind} address")
            times.append(ms)
    return known, unknown


# -- 3. the lock-out ------------------------------------------------------------------------


async def lockout(guesses: int, base: int) -> dict:
    device = Client(base)
    await device.call("GET", "/account/signup/")
    response = await device.call(
        "POST",
        "/account/signup/",
        {"username": "owner", "password1": PASSWORD, "password2": PASSWORD},
    )
    if response.status != 302:
        raise HttpError(f"the owner's sign-up answered {response.status}")
    await device.call("POST", "/account/logout/")
    checked = refused = 0
    for n in range(guesses):
        guesser = Client(base + 1 + n)
        await guesser.call("GET", "/account/login/")
        response = await guesser.call(
            "POST", "/account/login/", {"username": "owner", "password": f"guess {n}"}
        )
        guesser.close()
        checked += response.status == 400
        refused += response.status == 429
    await device.call("GET", "/account/login/")
    response, ms = await device.timed(
        "POST", "/account/login/", {"username": "owner", "password": PASSWORD}
    )
    stranger = Client(base + guesses + 10)
    await stranger.call("GET", "/account/login/")
    other, _ms = await stranger.timed(
        "POST", "/account/login/", {"username": "owner", "password": PASSWORD}
    )
    return {
        "checked": checked,
        "refused": refused,
        "owner_status": response.status,
        "owner_ms": ms,
        "new_device_status": other.status,
        "new_device_retry": other.headers.get("retry-after", ""),
    }


# -- 4. the flood ---------------------------------------------------------------------------


async def signing_up(n: int, until: float, counts: Counter) -> None:
    """One sign-up client: the form's page once (its CSRF cookie), then sign-ups one after
    another as fast as the answers come, each under a new name."""
    client = Client(100_000 + n)
    await client.call("GET", "/account/signup/")
    k = 0
    while time.monotonic() < until:
        form = {"username": f"flood{n}x{k}", "password1": PASSWORD, "password2": PASSWORD}
        try:
            response = await client.call("POST", "/account/signup/", form)
            counts[response.status] += 1
            if response.status == 302:
                await client.call("POST", "/account/logout/")
        except (HttpError, TimeoutError):
            counts["error"] += 1
            client.close()
        k += 1


async def hint_guest(n: int, gate: asyncio.Semaphore, counts: Counter) -> None:
    async with gate:
        client = Client(200_000 + n)
        try:
            game = await client.start_game()
            page = await client.call("GET", game)
            seen = read_board(page.text)
            response = await client.call(
                "POST", f"{game}hint/", {"ply": seen.ply, "version": seen.version}, htmx=True
            )
            answer = ANSWER.search(response.text)
            counts[f"{response.status} {answer[1] if answer else '?'}"] += 1
        except (HttpError, TimeoutError):
            counts["error"] += 1
        finally:
            client.close()


POLL = re.compile(r'data-poll hx-get="([^"]+)"')
ANSWER = re.compile(r'class="assist-answer ([\w-]+)')


async def real_player(until: float, hints_asked: asyncio.Event | None, result: dict) -> None:
    """Play moves until ``until``, a little pause between them; once the flood's hints are
    asked (``hints_asked``; None: no hint), ask for a hint and wait for its answer (as a player
    does), then play on; at the latest, after the last move."""
    player = Client(300_000)
    game = await player.start_game()
    seen = read_board((await player.call("GET", game)).text)
    r = random.Random(7)
    result["moves"] = times = []
    while time.monotonic() < until:
        if hints_asked is not None and hints_asked.is_set() and "hint_seconds" not in result:
            await ask_hint_on(player, game, seen, result)
        moves = list(seen.moves or [])
        if seen.stock == "deal":
            moves.append("deal")
        if not moves or seen.status != "playing":
            game = await player.start_game()
            seen = read_board((await player.call("GET", game)).text)
            continue
        form = {"move": r.choice(moves), "ply": seen.ply, "version": seen.version}
        start = time.perf_counter()
        try:
            response, ms = await player.timed("POST", f"{game}move/", form, htmx=True)
        except (HttpError, TimeoutError):
            # No answer in REQUEST_TIMEOUT: the site froze. Counted as that long, and the
            # game read afresh.
            times.append((time.perf_counter() - start) * 1000)
            result["timeouts"] = result.get("timeouts", 0) + 1
            player.close()
            player = Client(300_000)
            game = await player.start_game()
            seen = read_board((await player.call("GET", game)).text)
            continue
        times.append(ms)
        follow(seen, response.text)
        await asyncio.sleep(0.05)  # a quick player, but a person
    if hints_asked is not None and "hint_seconds" not in result:
        await hints_asked.wait()
        await ask_hint_on(player, game, seen, result)


async def ask_hint_on(client: Client, game: str, seen, result: dict) -> None:
    start = time.perf_counter()
    response = await client.call(
        "POST", f"{game}hint/", {"ply": seen.ply, "version": seen.version}, htmx=True
    )
    text = response.text
    while (poll := POLL.search(text)) and time.perf_counter() - start < 60:
        await asyncio.sleep(0.25)
        text = (await client.call("GET", poll[1].replace("&amp;", "&"), htmx=True)).text
    result["hint_seconds"] = time.perf_counter() - start
    result["hint_status"] = response.status
    answer = ANSWER.search(text)
    result["hint_answer"] = answer[1] if answer else re.sub(r"\s+", " ", text)[:160]


async def alone(seconds: float) -> list[float]:
    """The player's moves with no flood, for comparison."""
    result: dict = {}
    await real_player(time.monotonic() + seconds, None, result)
    return result["moves"]


async def flood(seconds: float, signup_clients: int, hint_guests: int) -> dict:
    until = time.monotonic() + seconds
    signups: Counter = Counter()
    hints: Counter = Counter()
    result: dict = {}
    hints_asked = asyncio.Event()
    player = asyncio.create_task(real_player(until, hints_asked, result))
    flooders = [asyncio.create_task(signing_up(n, until, signups)) for n in range(signup_clients)]
    gate = asyncio.Semaphore(HINT_CONCURRENCY)
    await asyncio.gather(*(hint_guest(n, gate, hints) for n in range(hint_guests)))
    hints_asked.set()
    await asyncio.gather(*flooders, player)
    return {"signups": signups, "hints": hints, **result}


# -- 5. cheap URLs flooded ------------------------------------------------------------------


async def flat_out(client: Client, request, until: float, counts: Counter) -> None:
    """Send ``request(client)`` (an awaitable answer) again and again until ``until``."""
    while time.monotonic() < until:
        try:
            counts[(await request(client)).status] += 1
        except (HttpError, TimeoutError):
            counts["error"] += 1
            client.close()


async def flooders(n: int, connections: int) -> tuple[list[Client], str, object]:
    """``connections`` clients of one browser (its cookies) from one address, and its game."""
    first = Client(n)
    game = await first.start_game()
    seen = read_board((await first.call("GET", game)).text)
    clients = [first]
    for _ in range(connections - 1):
        other = Client(n)
        other.http.cookies = dict(first.http.cookies)
        clients.append(other)
    return clients, game, seen


async def cheap_flood(seconds: float, connections: int, kind: str) -> dict:
    """One address flat out over ``connections`` connections: its game's catch-up poll
    (``kind`` "polls") or hints on its game ("searches"), beside the player."""
    clients, game, seen = await flooders(500_000 + (kind == "searches"), connections)
    if kind == "polls":
        path = f"{game}poll/?version={seen.version}"

        def request(c):
            return c.call("GET", path, htmx=True)
    else:
        form = {"ply": seen.ply, "version": seen.version}

        def request(c):
            return c.call("POST", f"{game}hint/", form, htmx=True)

    return await flooded(clients, request, seconds)


async def flooded(clients: list[Client], request, seconds: float) -> dict:
    """``clients`` send ``request`` flat out for ``seconds`` while another player plays: what
    they were answered, and that player's move times."""
    until = time.monotonic() + seconds
    answers: Counter = Counter()
    result: dict = {}
    await asyncio.gather(
        real_player(until, None, result), *(flat_out(c, request, until, answers) for c in clients)
    )
    for client in clients:
        client.close()
    return {"answers": answers, **result}


# -- 8. pages flooded -----------------------------------------------------------------------


async def shared_link(client: Client, game: str) -> str:
    """Share ``game`` (the client's own): the shared page's path."""
    response = await client.call("POST", f"{game}share/")
    if response.status not in (302, 303):
        raise HttpError(f"sharing answered {response.status}")
    return urllib.parse.urlsplit(response.headers["location"]).path


async def pages_flood(seconds: float, connections: int) -> dict:
    """One address asks flat out, over ``connections`` connections, for the pages that cost
    (its game's page, today's leaderboard, its shared game's page and image) in turn."""
    clients, game, _seen = await flooders(700_000, connections)
    shared = await shared_link(clients[0], game)
    today = time.strftime("%Y-%m-%d", time.gmtime())
    paths = [game, f"/daily/forty-thieves/{today}/", shared, f"{shared}board.png"]
    turn = iter(range(1 << 40))

    def request(c):
        return c.call("GET", paths[next(turn) % len(paths)])

    return await flooded(clients, request, seconds)


# -- 9. hints and undo at once --------------------------------------------------------------


async def hint_and_undo(n: int, until: float, counts: Counter) -> None:
    """A guest who moves, asks for a hint and an analysis, undoes and redoes, over and over,
    without waiting for the searches: the requests that lock a game and its analyses."""
    client = Client(800_000 + n)
    game = await client.start_game()
    seen = read_board((await client.call("GET", game)).text)
    r = random.Random(n)
    while time.monotonic() < until:
        moves = list(seen.moves or []) + (["deal"] if seen.stock == "deal" else [])
        if not moves or seen.status != "playing":
            game = await client.start_game()
            seen = read_board((await client.call("GET", game)).text)
            continue
        steps = [
            ("move/", {"move": r.choice(moves)}),
            ("hint/", {}),
            ("analysis/", {}),
            ("undo/", {}),
            ("redo/", {}),
            ("undo/", {}),
        ]
        for step, form in steps:
            try:
                response = await client.call(
                    "POST",
                    f"{game}{step}",
                    {**form, "ply": seen.ply, "version": seen.version},
                    True,
                )
            except (HttpError, TimeoutError):
                counts["error"] += 1
                client.close()
                continue
            counts[response.status] += 1
            follow(seen, response.text)
    client.close()


async def hints_and_undo(seconds: float, guests: int) -> Counter:
    until = time.monotonic() + seconds
    counts: Counter = Counter()
    await asyncio.gather(*(hint_and_undo(n, until, counts) for n in range(guests)))
    return counts


def deadlocks_in(log_path: Path) -> int:
    return log_path.read_text(errors="replace").lower().count("deadlock detected")


# -- 7. password floods ---------------------------------------------------------------------


def make_superuser(username: str) -> None:
    """A superuser straight in the database (the flood guesses at its password)."""
    insert_users([(username, "")], superuser=True)


async def guessing(client: Client, path: str, username: str, until: float, counts: Counter):
    """Wrong passwords for ``username`` at the log-in form ``path``, flat out."""
    await client.call("GET", path)
    n = 0
    while time.monotonic() < until:
        n += 1
        try:
            form = {"username": username, "password": f"guess {n}", "next": "/admin/"}
            counts[(await client.call("POST", path, form)).status] += 1
        except (HttpError, TimeoutError):
            counts["error"] += 1
            client.close()


async def password_flood(seconds: float, connections: int, path: str, username: str) -> dict:
    until = time.monotonic() + seconds
    counts: Counter = Counter()
    result: dict = {}
    guessers = [Client(600_000 + len(path)) for _ in range(connections)]
    await asyncio.gather(
        real_player(until, None, result),
        *(guessing(c, path, username, until, counts) for c in guessers),
    )
    for client in guessers:
        client.close()
    return {"answers": counts, **result}


def warnings_in(log_path: Path) -> int:
    return sum(" WARNING " in line for line in log_path.read_text(errors="replace").splitlines())


def errors_in(log_path: Path) -> int:
    return sum(" ERROR " in line for line in log_path.read_text(errors="replace").splitlines())


# -- 6. a client's mistakes -----------------------------------------------------------------


def mistake_requests(csrf: str) -> dict[str, bytes]:
    """Raw requests a client gets wrong, by name (``csrf``: a CSRF cookie the site gave)."""

    def post(body: bytes, host: str = f"{HOST}:{PORT}", cookie: str = f"csrftoken={csrf}"):
        return (
            f"POST /account/login/ HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
            f"Origin: http://{HOST}:{PORT}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body

    token = f"csrfmiddlewaretoken={csrf}".encode()
    return {
        "1,001 fields": post(token + b"".join(b"&f%d=x" % n for n in range(1_001))),
        "3 MB body": post(token + b"&username=" + b"x" * 3_000_000),
        "bad Host": post(token + b"&username=x", host="evil.example.org"),
        "bad CSRF token": post(b"csrfmiddlewaretoken=" + b"A" * 64 + b"&username=x"),
        "garbled cookies": post(
            b"csrfmiddlewaretoken=short&username=x",
            cookie="csrftoken=short; sessionid=<>%zz; django_language=\x01",
        ),
    }


async def mistakes(count: int, log_path: Path) -> tuple[dict[str, Counter], int, int]:
    """Each mistake ``count`` times: the answers by mistake and status, then the ERROR lines
    and tracebacks that appeared in the server's log meanwhile."""
    before = log_path.read_text(errors="replace")
    client = Client(600_000)
    await client.call("GET", "/account/login/")
    requests = mistake_requests(client.http.cookies["csrftoken"])
    client.close()
    answers = {name: Counter() for name in requests}
    for _ in range(count):
        for name, raw in requests.items():
            answers[name][await send_raw(raw)] += 1
    await asyncio.sleep(1)  # the log's last lines
    written = log_path.read_text(errors="replace")[len(before) :]
    errors = sum(" ERROR " in line for line in written.splitlines())
    return answers, errors, written.count("Traceback")


# -- the run --------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else float("nan")


def sink_thread(sink: MailSink) -> None:
    """The mail sink in a thread and event loop of its own: a mail it takes never delays a
    request being timed."""

    async def serve() -> None:
        server = await asyncio.start_server(sink.serve, HOST, SMTP_PORT)
        async with server:
            await server.serve_forever()

    threading.Thread(target=asyncio.run, args=(serve(),), daemon=True).start()


def figures(values: list[float]) -> str:
    if not values:
        return "none answered"
    return f"{len(values)}, median {statistics.median(values):.1f} ms, p95 {p95(values):.1f} ms"


async def run(args, sink: MailSink, log_path: Path, folder: Path) -> list[str]:
    """The measures, printed as they come; the targets missed."""
    missed = []
    only = {int(n) for n in args.only.split(",")} if args.only else set(range(1, 13))
    if 1 in only:
        missed += await garbled_measure(args)
    if 2 in only:
        missed += await reset_measure(args)
    if 3 in only:
        missed += await lockout_measure(args)
    quiet: list[float] = []
    if only & {4, 5, 7, 8}:
        print(f"\n4. The player alone for {args.quiet_seconds:g} s...", flush=True)
        quiet = await alone(args.quiet_seconds)
        print(f"   moves: {figures(quiet)}")
    if 4 in only:
        missed += await flood_measure(args)
    if 5 in only:
        missed += await cheap_measure(args, quiet)
    if 6 in only:
        missed += await mistakes_measure(args, log_path)
    if 7 in only:
        missed += await password_measure(args, quiet, log_path)
    if 8 in only:
        missed += await pages_measure(args, quiet)
    if 9 in only:
        missed += await deadlock_measure(args, log_path)
    if 10 in only:
        missed += await images_measure(args, folder)
    if 11 in only:
        missed += await daily_measure(args)
    if 12 in only:
        missed += await names_measure(args)
    await asyncio.sleep(3)  # the last reset mails
    most = max(sink.received.values(), default=0)
    print(f"\nMails received: {sum(sink.received.values())} to {len(sink.received)} addresses")
    print(f"(at most {most} to one)")
    return missed


async def garbled_measure(args) -> list[str]:
    missed = []
    print(f"\n1. {args.garbled} garbled requests...", flush=True)
    started = time.monotonic()
    statuses = await garbled(args.garbled, args.seed)
    over = sum(n for status, n in statuses.items() if status >= 500)
    print(f"   {sum(statuses.values())} in {time.monotonic() - started:.0f} s; by status:")
    print(f"   {dict(sorted(statuses.items()))}")
    print(f"   answers >= 500: {over} (target 0); no answer at all: {statuses[0]}")
    if over or statuses[0]:
        missed.append("garbled")
    return missed


async def reset_measure(args) -> list[str]:
    missed = []
    print(f"\n2. Reset: {args.resets} addresses with an account, {args.resets} without...")
    make_accounts([f"known{n}@example.org" for n in range(args.resets)])
    known, unknown = await reset_timing(args.resets, 10_000)
    spread = abs(statistics.median(known) - statistics.median(unknown))
    print(f"   with an account: {figures(known)}")
    print(f"   without:         {figures(unknown)}")
    print(f"   medians {spread:.1f} ms apart (target < {RESET_SPREAD_MS:g})")
    if spread >= RESET_SPREAD_MS:
        missed.append("reset timing")
    return missed


async def lockout_measure(args) -> list[str]:
    missed = []
    print(f"\n3. Lock-out: {args.guesses} wrong passwords from other addresses...", flush=True)
    locked = await lockout(args.guesses, 20_000)
    print(f"   guesses checked {locked['checked']}, refused unchecked {locked['refused']}")
    print(f"   the owner from their usual device: {locked['owner_status']} in")
    print(f"   {locked['owner_ms']:.0f} ms, the password's hash included (target: 302 at once)")
    print(f"   the owner from a device never seen: {locked['new_device_status']}")
    print(f"   (Retry-After {locked['new_device_retry'] or '-'})")
    if locked["owner_status"] != 302:
        missed.append("lock-out")
    return missed


async def flood_measure(args) -> list[str]:
    missed = []
    print(f"   Then for {args.flood_seconds:g} s {args.signup_clients} sign-up clients and")
    print(f"   {args.hint_guests} cookie-less hint requests beside the player...", flush=True)
    flooded = await flood(args.flood_seconds, args.signup_clients, args.hint_guests)
    moves = flooded["moves"]
    print(f"   sign-ups answered: {dict(flooded['signups'])}")
    print(f"   flood hints answered: {dict(flooded['hints'])}")
    print(f"   the player's moves: {figures(moves)} (target p95 < {MOVE_P95_MS:g})")
    hint = flooded.get("hint_seconds", float("nan"))
    print(f"   the player's hint: {hint:.2f} s, status {flooded.get('hint_status')}, answer")
    print(f"   {flooded.get('hint_answer')!r} (target < {HINT_SECONDS:g} s)")
    if p95(moves) >= MOVE_P95_MS:
        missed.append("move p95")
    if not hint < HINT_SECONDS:
        missed.append("hint time")
    return missed


def beside(name: str, moves: list[float], quiet: list[float]) -> list[str]:
    """Print the player's moves during a flood against their quiet ones; the target missed."""
    limit = FLOOD_FACTOR * p95(quiet)
    print(f"   the player's moves: {figures(moves)}")
    print(f"   (target p95 at most {FLOOD_FACTOR:g} x quiet, {limit:.1f} ms)")
    return [] if p95(moves) <= limit else [f"move p95 beside {name}"]


async def cheap_measure(args, quiet: list[float]) -> list[str]:
    missed = []
    for kind, what in (("polls", "polls its game"), ("searches", "asks for hints")):
        print(f"\n5. For {args.cheap_flood_seconds:g} s one address {what} flat out over")
        print(f"   {args.flood_connections} connections, beside the player...", flush=True)
        flooded = await cheap_flood(args.cheap_flood_seconds, args.flood_connections, kind)
        per_second = sum(flooded["answers"].values()) / args.cheap_flood_seconds
        print(f"   answers: {dict(flooded['answers'])}, {per_second:.0f} a second")
        missed += beside(f"{kind} flood", flooded["moves"], quiet)
    return missed


async def pages_measure(args, quiet: list[float]) -> list[str]:
    print(f"\n8. For {args.cheap_flood_seconds:g} s one address asks for its game's page, the")
    print("   day's leaderboard, its shared game and its image in turn, flat out over")
    print(f"   {args.flood_connections} connections, beside the player...", flush=True)
    flooded = await pages_flood(args.cheap_flood_seconds, args.flood_connections)
    per_second = sum(flooded["answers"].values()) / args.cheap_flood_seconds
    print(f"   answers: {dict(flooded['answers'])}, {per_second:.0f} a second")
    return beside("pages flood", flooded["moves"], quiet)


async def deadlock_measure(args, log_path: Path) -> list[str]:
    print(
        f"\n9. For {args.deadlock_seconds:g} s {args.deadlock_guests} guests move, ask for a hint"
    )
    print("   and an analysis, undo and redo, over and over...", flush=True)
    before, errors = deadlocks_in(log_path), errors_in(log_path)
    answers = await hints_and_undo(args.deadlock_seconds, args.deadlock_guests)
    deadlocks, new_errors = deadlocks_in(log_path) - before, errors_in(log_path) - errors
    print(f"   answers: {dict(answers)}")
    print(f"   deadlocks in PostgreSQL's answers: {deadlocks}, ERROR lines: {new_errors}")
    print("   (target 0 and 0)")
    return ["deadlock"] if deadlocks or new_errors or answers[500] else []


async def images_measure(args, folder: Path) -> list[str]:
    print(f"\n10. A guest shares their game, then plays {args.image_moves} moves, its image")
    print("    asked for after each (as a chat's preview would)...", flush=True)
    client = Client(900_000)
    game = await client.start_game()
    seen = read_board((await client.call("GET", game)).text)
    shared = await shared_link(client, game)
    redis = Redis.from_url(REDIS_URL)
    before = redis.info("memory")["used_memory"]
    statuses: Counter = Counter()
    for _ in range(args.image_moves):
        moves = list(seen.moves or []) + (["deal"] if seen.stock == "deal" else [])
        if not moves or seen.status != "playing":
            break
        form = {"move": moves[0], "ply": seen.ply, "version": seen.version}
        follow(seen, (await client.call("POST", f"{game}move/", form, htmx=True)).text)
        statuses[(await client.call("GET", f"{shared}board.png")).status] += 1
    client.close()
    grown = redis.info("memory")["used_memory"] - before
    in_redis = len(redis.keys("*share-png*"))
    files = [f for f in (folder / "images").rglob("*") if f.is_file()]
    print(f"    images answered: {dict(statuses)}")
    print(f"    images in Redis: {in_redis} (target 0); Redis grew by {grown / 1024:.0f} KiB")
    print(
        f"    image files kept: {len(files)}, {sum(f.stat().st_size for f in files) / 1024:.0f} KiB"
    )
    print("    (target: one a shared game: this one and measure 8's, at most)")
    return ["images"] if in_redis or len(files) > 2 else []


# -- 11. the daily leaderboard gamed ---------------------------------------------------------

#: The server's settings of the same names, as its environment gives them (solitaire/settings.py).
HUMAN_ACTION_MS = int(os.environ.get("HUMAN_ACTION_MS", "250"))
DAILY_GUESTS_PER_ADDRESS = int(os.environ.get("DAILY_GUESTS_PER_ADDRESS", "3"))
DEAL = re.compile(r"<dt>[^<]*</dt><dd>(\d+)</dd></div></dl>")
HINT_MOVE = re.compile(r'data-hint-move="([^"]+)"')
DRAWN = re.compile(r'name="drawn" value="([^"]*)"')
MINE = re.compile(
    r'<tr class="mine"[^>]*><td>\d+</td><th[^>]*>.*?</th><td>(\d+)</td><td>([^<]+)</td>'
)


async def winning_line(client: Client, game: str, steps: int) -> list[str]:
    """The solver's line for ``game``, asked of the site: a hint, its move played, the next
    hint (the next move of the win found, answered at once), until the game is won."""
    seen = read_board((await client.call("GET", game)).text)
    line: list[str] = []
    while seen.status == "playing" and len(line) < steps:
        form = {"ply": seen.ply, "version": seen.version}
        text = (await client.call("POST", f"{game}hint/", form, htmx=True)).text
        began = time.monotonic()
        while (poll := POLL.search(text)) and time.monotonic() - began < 60:
            await asyncio.sleep(0.25)
            text = (await client.call("GET", poll[1].replace("&amp;", "&"), htmx=True)).text
        move = HINT_MOVE.search(text)
        if not move:
            break
        line.append(move[1])
        form = {"move": move[1], "ply": seen.ply, "version": seen.version}
        follow(seen, (await client.call("POST", f"{game}move/", form, htmx=True)).text)
    return line if seen.status == "won" else []


async def daily_gamed(steps: int) -> dict:
    """Finding 4 and 5 of a review, as a script would: the solver's line for today's deal of
    Forty Thieves got through the site on a game of the same deal (its hints are free once a
    win is found), then played on the script's daily game flat out with the page's hidden time
    at its most; fresh guests from one address opening today's deal; the script's game shared
    and its moves asked for by a stranger."""
    script = Client(810_000)
    await script.call("GET", "/en/")
    response = await script.call("GET", "/daily/forty-thieves/")
    daily = opened_path(response)
    page = response.text if response.status == 200 else (await script.call("GET", daily)).text
    deal = DEAL.search(page)[1]
    helper = Client(810_001)
    await helper.call("GET", "/en/")
    response = await helper.call("GET", f"/en/play/forty-thieves/{deal}/")
    copy = opened_path(response)
    began = time.monotonic()
    line = await winning_line(helper, copy, steps)
    result: dict = {"deal": deal, "line": len(line), "line_seconds": time.monotonic() - began}
    seen = read_board(page)
    drawn = DRAWN.search(page)[1]
    began = time.monotonic()
    statuses: Counter = Counter()
    for move in line:
        form = {"move": move, "ply": seen.ply, "version": seen.version}
        form |= {"away": "999999999", "drawn": drawn}
        response = await script.call("POST", f"{daily}move/", form, htmx=True)
        statuses[response.status] += 1
        follow(seen, response.text)
    result |= {"played_seconds": time.monotonic() - began, "answers": statuses}
    result["status"] = seen.status
    today = time.strftime("%Y-%m-%d", time.gmtime())
    board = (await script.call("GET", f"/daily/forty-thieves/{today}/")).text
    row = MINE.search(board)
    result["ranked"] = (int(row[1]), row[2].strip()) if row else None
    # Fresh guests from one address (one browser each, the same address) open today's deal.
    opened = 0
    for _ in range(5):
        guest = Client(810_000)
        await guest.call("GET", "/en/")
        response = await guest.call("GET", "/daily/forty-thieves/")
        opened += opened_path(response).startswith("/g/")
        guest.close()
    result["guests_opened"] = opened
    # The script's daily game shared: a stranger opens the link.
    shared = await shared_link(script, daily)
    stranger = Client(820_000)
    text = (await stranger.call("GET", shared)).text
    result["moves_hidden"] = 'class="moves-hidden"' in text
    for client in (script, helper, stranger):
        client.close()
    return result


async def daily_measure(args) -> list[str]:
    print("\n11. A script gets the solver's line for today's Forty Thieves through the site and")
    print("    plays it on its daily game flat out, its page saying it was hidden all along;")
    print("    5 fresh guests from one address open today's deal; the script shares its game...")
    result = await daily_gamed(args.line_steps)
    print(
        f"    deal {result['deal']}: a line of {result['line']} moves in "
        f"{result['line_seconds']:.1f} s; played in {result['played_seconds']:.1f} s, "
        f"answers {dict(result['answers'])}, the game {result['status']}"
    )
    least = result["line"] * HUMAN_ACTION_MS / 1000
    ranked = result["ranked"]
    if ranked:
        print(f"    on the day's leaderboard: {ranked[0]} moves in {ranked[1]}")
    else:
        print("    on the day's leaderboard: not ranked")
    print(f"    (target: not ranked, or at no less than {least:.1f} s, a person's time per move)")
    print(f"    guests who opened today's deal from one address: {result['guests_opened']} of 5")
    print(f"    (target: at most {DAILY_GUESTS_PER_ADDRESS}, counting the script's own)")
    print(f"    the shared daily game's moves hidden from a stranger: {result['moves_hidden']}")
    missed = []
    if ranked and clock_seconds(ranked[1]) < least:
        missed.append("the daily's clock")
    if result["guests_opened"] > DAILY_GUESTS_PER_ADDRESS - 1:
        missed.append("guests per address")
    if not result["moves_hidden"]:
        missed.append("today's moves shared")
    return missed


def clock_seconds(clock: str) -> float:
    """A leaderboard's time ("1:02:03", "4:05") in seconds."""
    seconds = 0.0
    for part in clock.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


# -- 12. names, what staff see, a withdrawn link, a stranger's polls ------------------------

#: Lookalikes of "Alice" (a Cyrillic A; fullwidth; mathematical bold) and the site's own words.
TAKEN_NAMES = [
    "\u0410lice",
    "\uff21\uff4c\uff49\uff43\uff45",
    "\U0001d400lice",
    "admin",
    "a player",
    "un joueur",
    "gracz",
    "(you)",
]
#: Names in Tamil, Hindi (a combining vowel sign in each) and Thai.
OTHER_SCRIPTS = [
    "\u0b85\u0bb0\u0bc1\u0ba3\u0bcd",
    "\u0930\u093e\u0939\u0941\u0932",
    "\u0e2a\u0e21\u0e0a\u0e32\u0e22",
]


async def logged_in(n: int, path: str, username: str) -> Client:
    """A client logged in as ``username`` (the bench's accounts share one password)."""
    client = Client(n)
    await client.call("GET", path)
    form = {"username": username, "password": PASSWORD, "next": "/admin/"}
    response = await client.call("POST", path, form)
    if response.status != 302:
        raise HttpError(f"logging in as {username} answered {response.status}")
    return client


async def names_and_links() -> dict:
    """Findings 6, 9 and 10 of a review: public names that look like a taken one or like the
    site's words, names in other scripts; a guest's session key in the staff's pages; a
    withdrawn link's image; a stranger's polls of another player's game."""
    result: dict = {}
    insert_users([("names-alice", ""), ("names-other", "")])
    alice = await logged_in(830_000, "/account/login/", "names-alice")
    result["alice"] = (await alice.call("POST", "/account/name/", {"public_name": "Alice"})).status
    other = await logged_in(830_001, "/account/login/", "names-other")
    result["taken"] = Counter()
    for name in TAKEN_NAMES:
        response = await other.call("POST", "/account/name/", {"public_name": name})
        result["taken"][response.status] += 1
    result["scripts"] = Counter()
    for name in OTHER_SCRIPTS:
        response = await other.call("POST", "/account/name/", {"public_name": name})
        result["scripts"][response.status] += 1
    # A guest's game, shared; the staff's list of games.
    guest = Client(830_002)
    game = await guest.start_game()
    session = guest.http.cookies["sessionid"]
    make_superuser("names-staff")
    staff = await logged_in(830_003, "/admin/login/", "names-staff")
    listing = (await staff.call("GET", "/admin/games/game/")).text
    pages = [listing]
    for link in sorted(set(re.findall(r'href="(/admin/games/game/\d+/change/)[^"]*"', listing)))[
        :10
    ]:
        pages.append((await staff.call("GET", link)).text)
    result["staff_pages"] = len(pages)
    result["session_shown"] = any(session in page for page in pages)
    shared = await shared_link(guest, game)
    image = await guest.call("GET", f"{shared}board.png")
    result["image"] = (image.status, image.headers.get("cache-control", ""))
    await guest.call("POST", f"{shared}withdraw/")
    result["withdrawn"] = (await Client(830_004).call("GET", f"{shared}board.png")).status
    # A stranger polls the guest's game (not theirs: 404s), then the guest polls it.
    stranger = Client(830_005)
    for _ in range(100):
        await stranger.call("GET", f"{game}poll/?version=0", htmx=True)
    result["owner_poll"] = (await guest.call("GET", f"{game}poll/?version=0", htmx=True)).status
    for client in (alice, other, guest, staff, stranger):
        client.close()
    return result


async def names_measure(args) -> list[str]:
    print("\n12. Public names, what staff see of a guest, a withdrawn link, a stranger's polls...")
    result = await names_and_links()
    print(f"    'Alice' taken by one account: {result['alice']}; by another, 8 lookalikes and")
    print(f"    the site's words: {dict(result['taken'])} (target: all 400, refused)")
    print(f"    names in Tamil, Hindi and Thai: {dict(result['scripts'])} (target: all 302, saved)")
    print(
        f"    a guest's session key in the staff's list of games or a game's page (of"
        f" {result['staff_pages'] - 1}): {result['session_shown']} (target False)"
    )
    status, cache_control = result["image"]
    print(f"    a shared image: {status}, Cache-Control {cache_control!r}")
    print(f"    once the link is withdrawn: {result['withdrawn']} (target 404)")
    print(f"    the owner's poll after a stranger's 100: {result['owner_poll']} (target not 429)")
    missed = []
    if result["alice"] != 302 or set(result["taken"]) != {400} or set(result["scripts"]) != {302}:
        missed.append("names")
    if result["session_shown"]:
        missed.append("a guest's session key shown to staff")
    if result["withdrawn"] != 404 or result["owner_poll"] == 429:
        missed.append("links and polls")
    return missed


async def mistakes_measure(args, log_path: Path) -> list[str]:
    missed = []
    print(f"\n6. A client's mistakes, {args.mistakes} of each...", flush=True)
    answers, errors, tracebacks = await mistakes(args.mistakes, log_path)
    for name, statuses in answers.items():
        print(f"   {name}: {dict(statuses)}")
    print(f"   ERROR lines in the log: {errors}, tracebacks: {tracebacks} (target 0 and 0)")
    if errors or tracebacks or any(not 400 <= s < 500 for c in answers.values() for s in c):
        missed.append("client mistakes")
    return missed


async def password_measure(args, quiet: list[float], log_path: Path) -> list[str]:
    missed = []
    make_superuser("root")
    floods = (("the admin's", "/admin/login/", 200), ("the site's", "/account/login/", 400))
    for name, path, checked_status in floods:
        print(f"\n7. For {args.password_flood_seconds:g} s one address sends wrong passwords to")
        print(f"   {name} log-in ({path}) flat out over {args.flood_connections} connections,")
        print("   beside the player...", flush=True)
        warned = warnings_in(log_path)
        flooded = await password_flood(
            args.password_flood_seconds, args.flood_connections, path, "root"
        )
        answers = flooded["answers"]
        checked, refused = answers[checked_status], answers[429]
        print(f"   answers: {dict(answers)}")
        per_100 = 100 * checked / refused if refused else float("inf")
        print(f"   passwords hashed: {checked}, {per_100:.1f} per 100 refused")
        print(f"   WARNING lines it left in the log: {warnings_in(log_path) - warned}")
        unanswered = flooded.get("timeouts", 0)
        print(f"   the player's moves unanswered in {REQUEST_TIMEOUT:g} s: {unanswered}")
        missed += beside(f"{name} password flood", flooded["moves"], quiet)
    return missed


def start_balancer(folder: Path) -> subprocess.Popen:
    """HAProxy with the production configuration (deploy/haproxy.cfg) in front of the server,
    both of its app servers the one server here; once it answers, through to the server."""
    env = {
        **os.environ,
        "BALANCER_BIND": f"{HOST}:{BALANCER_PORT}",
        "APP1": f"{HOST}:{PORT}",
        "APP2": f"{HOST}:{PORT}",
        "HAPROXY_SOCKET": str(folder / "haproxy.sock"),
    }
    print(f"Starting HAProxy on {HOST}:{BALANCER_PORT}...", flush=True)
    log = open(folder / "haproxy.log", "wb")  # noqa: SIM115 (the process keeps it)
    balancer = subprocess.Popen(
        ["haproxy", "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{BALANCER_PORT}/readyz/", timeout=2) as r:
                if r.status == 200:
                    time.sleep(3)  # both app servers' checks passed twice (rise 2, inter 1s)
                    return balancer
        except OSError:
            pass
        time.sleep(0.2)
    balancer.terminate()
    raise RuntimeError("HAProxy did not answer through to the server within 20 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--garbled", type=int, default=5000)
    parser.add_argument("--resets", type=int, default=40)
    parser.add_argument("--guesses", type=int, default=50)
    parser.add_argument("--flood-seconds", type=float, default=60.0)
    parser.add_argument("--quiet-seconds", type=float, default=20.0)
    parser.add_argument("--signup-clients", type=int, default=10)
    parser.add_argument("--hint-guests", type=int, default=200)
    parser.add_argument("--cheap-flood-seconds", type=float, default=30.0)
    parser.add_argument("--flood-connections", type=int, default=20)
    parser.add_argument("--mistakes", type=int, default=20)
    parser.add_argument("--password-flood-seconds", type=float, default=20.0)
    parser.add_argument("--deadlock-seconds", type=float, default=60.0)
    parser.add_argument("--deadlock-guests", type=int, default=3)
    parser.add_argument("--image-moves", type=int, default=30)
    parser.add_argument("--line-steps", type=int, default=400)
    parser.add_argument(
        "--balancer",
        action="store_true",
        help="every client through HAProxy (deploy/haproxy.cfg) from its own loopback address",
    )
    parser.add_argument("--only", help="the measures to run, as 4,7 (all when not given)")
    parser.add_argument("--workers", type=int, help="gunicorn workers (the config's default)")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="abuse-") as folder:
        fresh_database(DB_NAME)
        print(f"Database {DB_NAME}: dropped and created afresh.", flush=True)
        server = Server(PORT, args.workers or default_workers(), None, Path(folder))
        server.env.update(
            {
                "DATABASE_URL": DATABASE_URL,
                "REDIS_URL": REDIS_URL,
                "CACHE_KEY_PREFIX": f"abuse-{secrets.token_hex(4)}",
                "DJANGO_CLIENT_IP_HEADER": "X-Forwarded-For",
                "EMAIL_HOST": HOST,
                "EMAIL_PORT": str(SMTP_PORT),
                "EMAIL_USE_TLS": "0",
                "IMAGE_CACHE_DIR": str(Path(folder) / "images"),
            }
        )
        if args.balancer:
            # The balancer's health checks name the host "localhost" (deploy/haproxy.cfg).
            server.env["DJANGO_ALLOWED_HOSTS"] = f"{HOST},localhost"
            # Behind the door, refusals are answered at once, as deploy/cluster.env says
            # (unless the environment says otherwise, to measure the other way).
            server.env.setdefault("LIMIT_HOLD_SECONDS", "0")
        print(f"Starting bin/serve on {HOST}:{PORT}...", flush=True)
        server.start()
        balancer = None
        try:
            server.wait_ready()
            if args.balancer:
                global through_balancer
                through_balancer = True
                balancer = start_balancer(Path(folder))
            print(f"Load average before: {load()}", flush=True)
            sink = MailSink()
            sink_thread(sink)
            measures = run(args, sink, server.log_path, Path(folder))
            missed = asyncio.run(asyncio.wait_for(measures, RUN_TIMEOUT))
            print(f"\nLoad average after: {load()}")
            print(f"Targets missed: {', '.join(missed) or 'none'}")
            status = 1 if missed else 0
        except BaseException as e:
            print(f"\nThe run failed: {e!r}", file=sys.stderr)
            print(f"The server's log, its end:\n{server.tail()}", file=sys.stderr)
            status = 2
        finally:
            if balancer is not None:
                balancer.terminate()
                balancer.wait()
            server.stop()
        problems = server.problems()
        if problems:
            print(f"\nThe server's log has errors:\n{problems}")
        return status


if __name__ == "__main__":
    sys.exit(main())
