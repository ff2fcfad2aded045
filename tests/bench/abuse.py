"""Abuse benchmark: the production server on loopback, on PostgreSQL and Redis, tried as an
attacker would, with a real player beside.

Run it as `.venv/bin/python tests/bench/abuse.py [--garbled 5000] [--flood-seconds 60]
[--signup-clients 10] [--hint-guests 200] [--resets 40] [--guesses 50]
[--cheap-flood-seconds 30] [--flood-connections 20] [--mistakes 20]`.

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

--only N,N... runs only those measures (4's quiet moves run with 7 too).

The client shares the machine's cores with the server: the load average is printed before
and after. The exit status is 1 when a target is missed, 2 when the run could not be made.
"""

import argparse
import asyncio
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.loadtest import (  # noqa: E402 (after the path is set)
    Http,
    HttpError,
    Server,
    default_workers,
    fresh_database,
    load,
    read_board,
)

DB_NAME = "solitaire_abuse"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/11"
HOST = "127.0.0.1"
PORT = 8300
SMTP_PORT = 8301
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
#: How much slower the player's moves may be beside a password flood than alone (p95).
PASSWORD_FLOOD_FACTOR = 1.5

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


class Client:
    """One browser: its cookies, its address (sent as X-Forwarded-For)."""

    def __init__(self, n: int) -> None:
        self.http = Http(HOST, PORT)
        self.address = address(n)

    async def call(self, method: str, path: str, form=None, htmx=False):
        headers = {"X-Forwarded-For": self.address}
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
        answer = read_board(response.text)
        for name in ("ply", "version", "status", "moves", "stock"):
            if getattr(answer, name) is not None:
                setattr(seen, name, getattr(answer, name))
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


async def cheap_flood(seconds: float, connections: int) -> dict:
    pollers, polled, seen = await flooders(500_000, connections)
    poll_path = f"{polled}poll/?version={seen.version}"
    askers, asked, seen = await flooders(500_001, connections)
    hint = {"ply": seen.ply, "version": seen.version}
    until = time.monotonic() + seconds
    polls: Counter = Counter()
    hints: Counter = Counter()
    result: dict = {}
    await asyncio.gather(
        real_player(until, None, result),
        *(
            flat_out(c, lambda c: c.call("GET", poll_path, htmx=True), until, polls)
            for c in pollers
        ),
        *(
            flat_out(c, lambda c: c.call("POST", f"{asked}hint/", hint, htmx=True), until, hints)
            for c in askers
        ),
    )
    for client in pollers + askers:
        client.close()
    return {"polls": polls, "hints": hints, **result}


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


async def run(args, sink: MailSink, log_path: Path) -> list[str]:
    """The six measures, printed as they come; the targets missed."""
    missed = []
    only = {int(n) for n in args.only.split(",")} if args.only else set(range(1, 8))
    if 1 in only:
        missed += await garbled_measure(args)
    if 2 in only:
        missed += await reset_measure(args)
    if 3 in only:
        missed += await lockout_measure(args)
    quiet: list[float] = []
    if 4 in only or 7 in only:
        print(f"\n4. The player alone for {args.quiet_seconds:g} s...", flush=True)
        quiet = await alone(args.quiet_seconds)
        print(f"   moves: {figures(quiet)}")
    if 4 in only:
        missed += await flood_measure(args)
    if 5 in only:
        missed += await cheap_measure(args)
    if 6 in only:
        missed += await mistakes_measure(args, log_path)
    if 7 in only:
        missed += await password_measure(args, quiet, log_path)
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


async def cheap_measure(args) -> list[str]:
    missed = []
    print(f"\n5. For {args.cheap_flood_seconds:g} s one address polls its game flat out and")
    print(f"   another asks for hints flat out, {args.flood_connections} connections each,")
    print("   beside the player...", flush=True)
    cheap = await cheap_flood(args.cheap_flood_seconds, args.flood_connections)
    for name in ("polls", "hints"):
        answered = sum(cheap[name].values())
        per_second = answered / args.cheap_flood_seconds
        print(f"   {name}: {dict(cheap[name])}, {per_second:.0f} a second")
    print(f"   the player's moves: {figures(cheap['moves'])} (target p95 < {MOVE_P95_MS:g})")
    if p95(cheap["moves"]) >= MOVE_P95_MS:
        missed.append("move p95 beside cheap floods")
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
        limit = PASSWORD_FLOOD_FACTOR * p95(quiet)
        print(f"   the player's moves: {figures(flooded['moves'])}, unanswered in")
        print(f"   {REQUEST_TIMEOUT:g} s: {flooded.get('timeouts', 0)}")
        print(f"   (target p95 at most {PASSWORD_FLOOD_FACTOR:g} x quiet, {limit:.1f} ms)")
        if not p95(flooded["moves"]) <= limit:
            missed.append(f"move p95 beside {name} password flood")
    return missed


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
            }
        )
        print(f"Starting bin/serve on {HOST}:{PORT}...", flush=True)
        server.start()
        try:
            server.wait_ready()
            print(f"Load average before: {load()}", flush=True)
            sink = MailSink()
            sink_thread(sink)
            missed = asyncio.run(asyncio.wait_for(run(args, sink, server.log_path), RUN_TIMEOUT))
            print(f"\nLoad average after: {load()}")
            print(f"Targets missed: {', '.join(missed) or 'none'}")
            status = 1 if missed else 0
        except BaseException as e:
            print(f"\nThe run failed: {e!r}", file=sys.stderr)
            print(f"The server's log, its end:\n{server.tail()}", file=sys.stderr)
            status = 2
        finally:
            server.stop()
        problems = server.problems()
        if problems:
            print(f"\nThe server's log has errors:\n{problems}")
        return status


if __name__ == "__main__":
    sys.exit(main())
