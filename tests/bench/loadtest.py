"""Load test: the production server on loopback against PostgreSQL, under simulated players.

Run it as `make loadtest`, or
`.venv/bin/python tests/bench/loadtest.py [--players 50] [--seconds 30] [--trivial-seconds 10]
[--workers N] [--threads N] [--think MS] [--seed S] [--strict] [--cluster --app-servers N]`.

What it does (through the cluster, ``--cluster``: steps 1, 2 and 5 are left out, see below):

1. (Re)creates its own PostgreSQL database, ``solitaire_loadtest`` on 127.0.0.1:5432 (user
   postgres), dropping any left by an earlier run; nothing else is touched. The database is
   left behind at the end, to look into.
2. Starts ``bin/serve`` (the release: check, migrate, collectstatic into a temporary folder;
   then its supervisor with gunicorn, the background-task workers and the housekeeping, the
   supervisor's socket in that folder) on a free
   loopback port, debug off, plain HTTP (DJANGO_HTTPS=0), the Redis cache
   (redis://127.0.0.1:6379/2), WEB_CONCURRENCY workers (the gunicorn config's default, one per
   core, unless --workers says) and no access log (ACCESS_LOG=off). Its log goes to a
   temporary file, whose tail is printed when something fails.
3. Measures in turns: the trivial view, then play, then the trivial view again, and so on,
   five slices of play between six of the trivial view (the machine's speed drifts: this way
   both see the same drift). The trivial view: as many concurrent clients as players fetch
   GET /healthz/ (no database, no session) as fast as they can, --trivial-seconds in all: the
   server's requests per second on a view that does nothing.
4. The play: --players guests, each with its own cookies, play for --seconds in all with no
   pause between requests (a closed loop: each waits for its answer, then sends the next one;
   --think MS makes each pause about MS milliseconds before every request, as people do);
   between two slices of play they wait before their next request, and the trivial view's
   slice begins once their requests under way are answered.
   A player opens the home page (session and CSRF cookies), starts a game (POST /new/, one of
   the ten games, a deal of its own, sent as a page whose script runs sends it: answered with
   the game page itself; a server that redirects instead costs a request more), then plays
   legal moves read off the board it last saw (the legal moves the table lists,
   ``data-legal``, and the stock's deal button) as htmx POSTs, with an undo about every 10
   moves and a fresh load of the game page ("resume") about every 25; a finished or stuck
   game, or one 100 moves long, is followed by a new one.
5. Stops the server (SIGTERM, then waits) and prints the report.

Reading the figures:

- "moves/s" counts move POSTs answered 200 over the phase's wall time; "move latency" is the
  client's wall time from opening the connection to having read the whole answer, so it
  includes the time a request waits for a free worker (with 50 players and 5 workers most
  of a move's latency is queueing: with no pause, latency ≈ players ÷ requests per second, so
  a p95 under 50 ms at 50 players needs the server to answer about 1,000 requests a second;
  --think gives the latency at a lighter, more human load).
- "trivial rps" is the ceiling of the server (gunicorn + Django's middleware) on this machine;
  "moves/s ÷ trivial rps" says how much a move costs next to an empty request. The trivial
  view's slices alternate with the play's, but a change in the machine's speed still moves
  this ratio (by a few points from run to run here); "gunicorn CPU/request" gives the
  same comparison from the CPU the server's processes spent per request (players' requests
  of every kind, and /healthz/), which depends much less on the load.
- The client shares the CPU with the server: its own CPU time is printed for each phase, and
  so is the CPU the server (gunicorn's processes) and everything else (PostgreSQL, Redis, other
  jobs on the machine) used meanwhile, from /proc. A busy machine lowers every figure: compare
  runs only at similar load.
- Errors are any 5xx, connection error or timeout, and any 4xx or answer a correct client
  should not get (a 409, a stale-board note, a move that did not advance the game). A 422 (the
  board offered a move the server refused) is counted apart. The exit status is 1 when there
  was an error or a 422 (and, with --strict, when a target is missed).

Through the cluster (``make cluster``, then ``make loadtest CLUSTER=1``): the players and the
trivial view go to the cluster's balancer (HAProxy, http://10.77.0.10/), which spreads them over
the app servers (``--app-servers 2``, both) or sends them all to app1 (``--app-servers 1``: app2
is set to maintenance on the balancer's admin socket for the run, and back after). The database
is the cluster's own (``solitaire``), which keeps what earlier runs played. The CPU figures then
count the processes in the cluster's network namespaces (gunicorn of both app servers, the task
workers, HAProxy, the cluster's PostgreSQL and Redis).

The client is asyncio with a minimal HTTP/1.1 client on raw streams (one task per player, no
thread per player): it handles both ``Connection: close`` (gunicorn's sync workers) and
keep-alive answers, Content-Length, chunked and read-to-close bodies.
"""

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.rules import VARIANTS as ALL_VARIANTS  # noqa: E402 (after the path is set)

PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=10"
DB_NAME = "solitaire_loadtest"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/2"
#: The home page (the public pages are under a language prefix; / redirects there).
HOME = "/en/"
#: The ten games' ids (the engine imports nothing from Django).
VARIANTS = list(ALL_VARIANTS)
#: A player undoes about one move in UNDO_EVERY, reloads the game page about once in
#: RESUME_EVERY, deals from the stock about DEAL_SHARE of the time it could do something else,
#: and leaves a game for a new one after MAX_MOVES moves (random play can go round in circles).
UNDO_EVERY = 10
RESUME_EVERY = 25
#: The catch-up poll as static/js/catchup.js schedules it (seconds): every POLL_FAST for
#: POLL_QUIET after the page is opened or brings news, then each interval twice the last, to
#: one in POLL_SLOWEST; a player's own request puts the next question a whole interval off.
POLL_FAST = 3.0
POLL_QUIET = 30.0
POLL_SLOWEST = 20.0
DEAL_SHARE = 0.15
MAX_MOVES = 100
#: Seconds: one request's limit (gunicorn's own timeout is 30 s), the server's start, the
#: drain of requests in flight at a phase's end before they are abandoned, the server's stop.
REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 180.0
DRAIN = 30.0
#: The play comes in this many slices, between one more slices of the trivial view.
SLICES = 5
STOP_TIMEOUT = 30.0
#: The targets.
TARGET_PLAYERS = 50
TARGET_P95_MS = 50.0
TARGET_SHARE = 0.25
#: How many error details the report shows.
SHOWN_ERRORS = 8
#: How long an action refused for now (503, 429) is sent again after its Retry-After, as the
#: game page does (static/js/game/queue.js) before it tells the player.
RETRY_FOR = 15.0


# -- a minimal HTTP/1.1 client ----------------------------------------------------------------


class HttpError(Exception):
    """The exchange failed: no connection, a broken or truncated answer, a timeout."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Http:
    """One client's connection and cookies: keep-alive when the server allows it."""

    #: Connections opened and requests sent, by every client (to see whether keep-alive is used).
    opened = 0
    sent = 0

    def __init__(self, host: str, port: int, local: str | None = None) -> None:
        self.host, self.port = host, port
        #: The address this client's connections come from (None: the system's choice).
        self.local = local
        self.origin = f"http://{host}:{port}"
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "User-Agent: solitaire-loadtest",
            "Accept: text/html",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
                f"Origin: {self.origin}",
            ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        reused = self.writer is not None
        try:
            return await self._exchange(raw, method)
        except (ConnectionError, asyncio.IncompleteReadError) as e:
            self.close()
            # A kept-alive connection the server closed meanwhile: once more on a new one (only
            # when nothing of an answer came, as browsers do).
            empty = not isinstance(e, asyncio.IncompleteReadError) or not e.partial
            if not (reused and empty):
                raise HttpError(f"{type(e).__name__}: {e}") from e
        try:
            return await self._exchange(raw, method)
        except (ConnectionError, asyncio.IncompleteReadError) as e:
            self.close()
            raise HttpError(f"{type(e).__name__}: {e}") from e

    async def _exchange(self, raw: bytes, method: str) -> Response:
        Http.sent += 1
        if self.writer is None:
            Http.opened += 1
            try:
                self.reader, self.writer = await asyncio.open_connection(
                    self.host, self.port, local_addr=(self.local, 0) if self.local else None
                )
            except OSError as e:
                raise HttpError(f"cannot connect: {e}") from e
        reader, writer = self.reader, self.writer
        assert reader is not None
        writer.write(raw)
        await writer.drain()
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError as e:
            self.close()
            raise HttpError("answer headers too long") from e
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        version, _sp, rest = status_line.partition(" ")
        try:
            status = int(rest[:3])
        except ValueError as e:
            self.close()
            raise HttpError(f"garbled status line {status_line!r}") from e
        headers: dict[str, str] = {}
        cookies: list[str] = []
        for line in header_lines:
            if not line:
                continue
            name, _colon, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookies.append(value)
            else:
                headers[name] = value
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = await self._chunked(reader)
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:
            body = await reader.read()  # to the end: the server closes
            headers["connection"] = "close"
        keep = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
        if not keep:
            self.close()
        for cookie in cookies:
            self._take_cookie(cookie)
        return Response(status, headers, cookies, body)

    @staticmethod
    async def _chunked(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass  # trailers
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)

    def _take_cookie(self, header: str) -> None:
        pair, *attributes = header.split(";")
        name, _eq, value = pair.strip().partition("=")
        gone = any(a.strip().lower().replace(" ", "") == "max-age=0" for a in attributes)
        if gone or not value.strip('"'):
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value


# -- what a board offers ------------------------------------------------------------------------

#: An attribute that carries the board's ply, version, status or legal moves.
STATE_ATTRIBUTE = re.compile(r" data-(?:ply|version|status|legal)=")
#: The stock pile, and its deal or redeal button (before the next pile). (Plain text first:
#: a pattern that starts with text is found by a fast scan, one that starts with \b is not.)
STOCK_PILE = re.compile(r""" data-pile=["']s["']""")
STOCK_MOVE = re.compile(r""" value=["'](deal|redeal)["']""")
ATTRIBUTE = re.compile(r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*("[^"]*"|'[^']*')""")


@dataclass
class Seen:
    """What one answer showed: the ply, version and status, the legal moves of cards, and what
    the stock does."""

    ply: int | None = None
    version: int | None = None
    status: str | None = None
    #: The legal moves of cards the table lists (its data-legal), None if the answer has none.
    moves: list[str] | None = None
    #: "deal", "redeal" or "" when the answer shows the stock (None when it does not).
    stock: str | None = None


#: The address a game page names as its own (games/play.html).
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)">')
#: What a page whose script runs adds to a form that opens a game (static/js/app.js): the
#: answer is the game page itself, not a redirect to it.
PAGE_HERE = {"answer": "page"}


def opened_path(response) -> str:
    """The path of the game a link or a form opened: a redirect's target, or the address the
    game page names when it is the answer itself (one request); "" when it is neither."""
    if response.status in (301, 302, 303):
        return urllib.parse.urlsplit(response.headers.get("location", "")).path
    named = CANONICAL.search(response.text) if response.status == 200 else None
    return named[1] if named else ""


def read_board(html: str) -> Seen:
    """Read the ply, version, status and legal moves from a page or an htmx answer.

    Written not to depend on where things are in the answer: a page, or a refused move's answer,
    is the whole board (``#board`` with ``data-ply``/``data-version``/``data-status``); a move's
    answer is only what changed, out of band, with the table's state (``#table-state``: the ply,
    the version and ``data-legal``, every legal move of a card). So: the ply and version come
    from the element that carries both (``#board`` first, wherever it is), the status from any
    that carries it; the moves from ``data-legal``; the stock's move from a ``deal`` or
    ``redeal`` button inside the stock pile (``data-pile="s"``), which the answer shows only
    when the stock changed (``stock`` is then set, "" for no button). The caller keeps what it
    knew of the stock when the answer does not show it. Only the tags that carry these are
    looked at: the client shares the machine with the server, so its own work is kept small.
    """
    seen = Seen()
    marked = False
    tags = []
    for match in STATE_ATTRIBUTE.finditer(html):
        start = html.rfind("<", 0, match.start())
        if not tags or tags[-1][0] != start:
            tags.append((start, html.find(">", match.end())))
    for start, end in tags:
        attributes = {name: value[1:-1] for name, value in ATTRIBUTE.findall(html, start, end)}
        both = "data-ply" in attributes and "data-version" in attributes
        if both and (not marked or attributes.get("id") == "board"):
            seen.ply = _number(attributes["data-ply"])
            seen.version = _number(attributes["data-version"])
            marked = attributes.get("id") == "board" or marked
        if "data-status" in attributes:
            seen.status = attributes["data-status"]
        if "data-legal" in attributes and seen.moves is None:
            seen.moves = attributes["data-legal"].split()
    stock = STOCK_PILE.search(html)
    if stock is not None:
        button = STOCK_MOVE.search(html, stock.end(), html.find("data-pile=", stock.end()))
        seen.stock = button.group(1) if button else ""
    return seen


def follow(seen: Seen, text: str) -> None:
    """What an answer (``text``) changed of the board ``seen``: what it says, the rest kept."""
    answer = read_board(text)
    for name in ("ply", "version", "status", "moves", "stock"):
        if getattr(answer, name) is not None:
            setattr(seen, name, getattr(answer, name))


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


# -- the measures -------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    counts: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    #: The size of each answer to a move (bytes).
    move_sizes: list[int] = field(default_factory=list)
    #: Through the balancer: answers of 503 (no app server free in time) and 429 (the door),
    #: by kind; actions sent again after one; actions given up after RETRY_FOR.
    refused: Counter = field(default_factory=Counter)
    resent: Counter = field(default_factory=Counter)
    given_up: Counter = field(default_factory=Counter)

    #: When the current phase began (time.monotonic()), to date the errors.
    began: float = 0.0

    def since_arrival(self) -> None:
        """Forget the figures so far (the players' arrival); errors are kept."""
        self.latencies.clear()
        self.counts.clear()
        self.statuses.clear()
        self.move_sizes.clear()
        self.refused.clear()
        self.resent.clear()
        self.given_up.clear()

    def error(self, text: str) -> None:
        self.errors.append(f"[{time.monotonic() - self.began:5.1f} s] {text}")


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (as tests/bench/move_request.py)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class CpuMeter:
    """CPU seconds used by this process, the server, the database, Redis and the whole machine.

    From /proc. On one machine: the processes under bin/serve (its supervisor, gunicorn's
    master with its reaped children and its live workers; the task workers, ``manage.py
    db_worker``, counted apart). Through the cluster (``server_pid`` None): every gunicorn and
    task worker in the cluster's hosts (network namespaces ``sol-*``), and HAProxy. Then the
    PostgreSQL backends connected to the load test's database (``database``: the task
    workers' polling included); redis-server; the machine's busy time (all cores). "others"
    is what is left: other jobs on the machine, PostgreSQL's own background processes, the
    kernel's work not charged to a process.
    """

    def __init__(self, server_pid: int | None, database: str = DB_NAME) -> None:
        self.server_pid = server_pid
        self.database = database.encode()
        #: Through the cluster: the network namespaces of its hosts, by inode.
        self.hosts = set()
        if server_pid is None:
            for name in os.listdir("/run/netns"):
                if name.startswith("sol-"):
                    self.hosts.add(os.stat(f"/run/netns/{name}").st_ino)
        self.tick = os.sysconf("SC_CLK_TCK")
        self.start = self._read()

    def _read(self) -> dict[str, float]:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        total = sum(fields[:8])
        return {
            "wall": time.monotonic(),
            "client": time.process_time(),
            **self._processes(),
            "busy": (total - idle) / self.tick,
            "total": total / self.tick,
        }

    def _processes(self) -> dict[str, float]:
        found = {"server": 0.0, "tasks": 0.0, "database": 0.0, "redis": 0.0, "balancer": 0.0}
        table = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read(300).replace(b"\0", b" ")
                if self.hosts and os.stat(f"/proc/{entry}/ns/net").st_ino not in self.hosts:
                    continue
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            own = (int(fields[11]) + int(fields[12])) / self.tick  # utime, stime
            reaped = (int(fields[13]) + int(fields[14])) / self.tick  # cutime, cstime
            table[int(entry)] = (int(fields[1]), command, own, reaped)
        for pid, (ppid, command, own, reaped) in table.items():
            parent = table.get(ppid, (0, b"", 0, 0))[1]
            if b"gunicorn" in command and b"gunicorn" not in parent:
                own += reaped  # a master: with the workers it replaced
            if self.server_pid is None or self._under(pid, table):
                if b"db_worker" in command:
                    found["tasks"] += own
                elif b"haproxy" in command.split(b" ")[0]:
                    found["balancer"] += own
                elif self.server_pid is not None or b"gunicorn" in command:
                    found["server"] += own
            if command.startswith(b"postgres:") and self.database in command:
                found["database"] += own
            elif command.startswith(b"redis-server"):
                found["redis"] += own
        return found

    def _under(self, pid: int, table: dict) -> bool:
        """Whether the process is the server's or one of its descendants."""
        for _ in range(64):
            if pid == self.server_pid:
                return True
            if pid not in table:
                return False
            pid = table[pid][0]
        return False

    def stop(self) -> dict[str, float]:
        end = self._read()
        used = {name: end[name] - self.start[name] for name in end}
        cores = os.cpu_count() or 1
        machine = used["busy"] / used["total"] * cores * used["wall"] if used["total"] else 0.0
        known = sum(used[k] for k in ("client", "server", "tasks", "database", "redis", "balancer"))
        return used | {"machine": machine, "others": max(0.0, machine - known), "cores": cores}


# -- the players ----------------------------------------------------------------------------------


class Player:
    def __init__(self, number: int, ctx: "Run", idle: bool = False) -> None:
        self.ctx = ctx
        #: An open game page nobody plays on: it only asks whether the game moved on.
        self.idle = idle
        self.stats = ctx.stats
        self.rng = random.Random(ctx.seed * 1000 + number)
        # Each player from an address of its own, as people are: the site's limits count per
        # client address (new games, log-ins).
        self.http = Http(ctx.host, ctx.port, f"{ctx.clients}{number % 250 + 1}")
        self.game = ""
        self.ply = self.version = 0
        self.status = "playing"
        self.moves: list[str] = []
        self.stock = ""
        self.moves_in_game = 0
        #: The catch-up poll: its interval, since when nothing changed, when it asks next.
        self.poll_interval = POLL_FAST
        self.calm_since = self.next_poll = 0.0

    def page_opened(self) -> None:
        """A game page was loaded: it asks often at first (catchup.js)."""
        self.poll_interval = self.ctx.poll_every or POLL_FAST
        self.calm_since = time.monotonic()
        self.next_poll = self.calm_since + self.poll_interval

    async def pause(self, seconds: float) -> None:
        """The player thinks for ``seconds``; their open game page asks meanwhile whether the
        game moved on, when its schedule says so."""
        end = time.monotonic() + seconds
        while self.game and self.ctx.polls and self.next_poll < end and not self.over():
            await asyncio.sleep(max(0.0, self.next_poll - time.monotonic()))
            if not self.ctx.go.is_set():
                return  # the play paused meanwhile: the page is out of sight
            await self.poll()
        await asyncio.sleep(max(0.0, end - time.monotonic()))

    async def poll(self) -> None:
        path = f"{self.game}poll/?version={self.version}"
        self.ctx.in_flight += 1
        try:
            response = await self._call("poll", "GET", path, None, True)
        finally:
            self.ctx.in_flight -= 1
        now = time.monotonic()
        if response is not None and response.status not in (200, 204, 429, 503):
            self.stats.error(f"poll {path}: {response.status} {_gist(response)}")
        if now - self.calm_since >= POLL_QUIET and not self.ctx.poll_every:
            self.poll_interval = min(POLL_SLOWEST, self.poll_interval * 2)
        self.next_poll = now + self.poll_interval

    async def call(self, kind: str, method: str, path: str, form=None, htmx=False):
        """One request, timed and counted; None after an error (already recorded)."""
        if self.ctx.think:
            await self.pause(self.ctx.think * self.rng.uniform(0.5, 1.5))
        while not self.ctx.go.is_set():
            await self.ctx.go.wait()  # the play is paused for a slice of the trivial view
            if self.ctx.think:
                # Not all at once as the play resumes: each at its own moment again (and, if
                # the play paused again meanwhile, after that pause).
                await asyncio.sleep(self.ctx.think * self.rng.uniform(0, 1))
        if self.over():
            return None
        self.ctx.in_flight += 1
        try:
            return await self._call(kind, method, path, form, htmx)
        finally:
            self.ctx.in_flight -= 1
            # The page's own action was checked against the game: the question can wait.
            if not self.ctx.poll_every:
                self.next_poll = time.monotonic() + self.poll_interval

    async def _call(self, kind: str, method: str, path: str, form, htmx: bool):
        """One request; refused for now (503 from the balancer's gate, 429 from its door, with
        Retry-After), sent again after the wait the answer gives, for up to RETRY_FOR seconds
        from the first send, as the game page sends an action again (static/js/game/queue.js)
        and a person opens a page again. A catch-up question refused is not asked again: the
        page asks at its next turn."""
        first = time.perf_counter()
        refused = False
        while True:
            response = await self._once(kind, method, path, form, htmx)
            if response is None or response.status not in (429, 503):
                if response is not None and refused:
                    # Played on a retry: the time from the first send to the answer.
                    self.stats.latencies[f"{kind} resent"].append(time.perf_counter() - first)
                return response
            self.stats.refused[kind] += 1
            refused = True
            if kind == "poll":
                return response
            wait = retry_after(response)
            if time.perf_counter() + wait > first + RETRY_FOR:
                self.stats.given_up[kind] += 1
                self.stats.error(f"{kind} {method} {path}: still refused after {RETRY_FOR:g} s")
                return None
            self.stats.resent[kind] += 1
            await asyncio.sleep(wait)

    async def _once(self, kind: str, method: str, path: str, form, htmx: bool):
        headers = {"HX-Request": "true"} if htmx else {}
        if method == "POST" and "csrftoken" in self.http.cookies:
            headers["X-CSRFToken"] = self.http.cookies["csrftoken"]
        start = time.perf_counter()
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                response = await self.http.request(method, path, form, headers)
        except (HttpError, OSError) as e:
            self.http.close()
            self.stats.error(f"{kind} {method} {path}: {e}")
            return None
        except TimeoutError:
            self.http.close()
            self.stats.error(f"{kind} {method} {path}: no answer in {REQUEST_TIMEOUT:.0f} s")
            return None
        self.stats.statuses[response.status] += 1
        if response.status in (429, 503):
            self.stats.latencies[f"{kind} refused"].append(time.perf_counter() - start)
            return response
        self.stats.latencies[kind].append(time.perf_counter() - start)
        self.stats.counts[kind] += 1
        if response.status >= 500:
            self.stats.error(f"{kind} {method} {path}: {response.status} {_gist(response)}")
            return None
        return response

    def over(self) -> bool:
        return self.ctx.done

    async def run(self) -> None:
        try:
            await self.ctx.go.wait()
            if self.ctx.arrival:  # players arrive one by one over the first seconds
                await asyncio.sleep(self.rng.uniform(0, self.ctx.arrival))
            elif self.ctx.think:  # or all at once, not quite in step
                await asyncio.sleep(self.rng.uniform(0, 2 * self.ctx.think))
            home = await self.call("home", "GET", HOME)
            if home is None:
                return
            if home.status != 200 or "csrftoken" not in self.http.cookies:
                self.stats.error(
                    f"home GET {HOME}: {home.status}, cookies {sorted(self.http.cookies)}"
                )
                return
            if self.idle:
                if await self.new_game():
                    while not self.over():
                        await self.ctx.go.wait()
                        await self.pause(POLL_SLOWEST)
                return
            while not self.over():
                errors = len(self.stats.errors)
                if await self.new_game():
                    await self.play()
                if len(self.stats.errors) > errors:
                    await asyncio.sleep(0.5)  # after an error, a pause: not an error storm
        except Exception:
            self.stats.error("client failure: " + traceback.format_exc(limit=3))
        finally:
            self.http.close()

    async def new_game(self) -> bool:
        variant = self.rng.choice(VARIANTS)
        deal = str(self.rng.randrange(1, 1_000_000))
        form = {"variant": variant, "deal": deal, **PAGE_HERE}
        response = await self.call("new game", "POST", "/new/", form)
        if response is None:
            return False
        path = opened_path(response)
        if response.status not in (200, 302) or not re.fullmatch(r"/g/[^/]+/", path):
            self.stats.error(f"new game {variant} {deal}: {response.status} to {path!r}")
            return False
        self.game = path
        self.moves, self.stock = [], ""
        self.status = "playing"
        self.moves_in_game = 0
        if response.status == 302:  # a server that answers with a redirect: two requests
            return await self.resume(after_new=True)
        if not self.take(response, "new game"):
            return False
        self.page_opened()
        return True

    async def resume(self, after_new: bool = False) -> bool:
        """The full game page, as a player coming back: it must show the board we know."""
        ply, version = self.ply, self.version
        response = await self.call("page", "GET", self.game)
        if response is None:
            return False
        if response.status != 200:
            self.stats.error(f"page GET {self.game}: {response.status} {_gist(response)}")
            return False
        if not self.take(response, "page"):
            return False
        self.page_opened()
        if not after_new and (self.ply, self.version) != (ply, version):
            self.stats.error(
                f"page GET {self.game}: ply/version {self.ply}/{self.version}, "
                f"expected {ply}/{version}"
            )
        return True

    def take(self, response: Response, kind: str) -> bool:
        """Note what an answer shows; False when it shows no ply and version."""
        seen = read_board(response.text)
        if seen.ply is None or seen.version is None:
            self.stats.error(f"{kind} {self.game}: no data-ply/data-version in the answer")
            return False
        self.ply, self.version = seen.ply, seen.version
        if seen.status and seen.status != self.status and self.status == "playing":
            self.stats.counts[f"games {seen.status}"] += 1
        self.status = seen.status or self.status
        if seen.moves is not None:
            self.moves = seen.moves
        if seen.stock is not None:
            self.stock = seen.stock
        return True

    def choose(self) -> str | None:
        """A legal move: a card's, or now and then (always, when no card can move) the stock's."""
        if self.moves and (not self.stock or self.rng.random() >= DEAL_SHARE):
            return self.rng.choice(self.moves)
        return self.stock or None

    async def play(self) -> None:
        while not self.over():
            if self.status != "playing" or self.moves_in_game >= MAX_MOVES:
                return
            move = self.choose()
            if move is None:
                return  # stuck, as far as the board shows
            if not await self.move(move):
                return
            if self.over():
                return
            if self.ply and self.status == "playing" and self.rng.random() < 1 / UNDO_EVERY:
                if not await self.undo():
                    return
            elif self.rng.random() < 1 / RESUME_EVERY and not await self.resume():
                return

    async def move(self, move: str) -> bool:
        ply = self.ply
        form = {"move": move, "ply": str(self.ply), "version": str(self.version)}
        response = await self.call("move", "POST", self.game + "move/", form, htmx=True)
        if response is None:
            return False
        if response.status == 422:
            self.stats.illegal.append(f"{self.game} ply {ply}: {move} ({_gist(response)})")
            return await self.resume(after_new=True)  # see the board afresh
        if response.status != 200:
            self.stats.error(f"move {move} at ply {ply}: {response.status} {_gist(response)}")
            return False
        self.stats.move_sizes.append(len(response.body))
        if not self.take(response, "move"):
            return False
        self.moves_in_game += 1
        self.stats.counts["moves played"] += 1
        if self.ply <= ply:
            self.stats.error(
                f"move {move} at ply {ply} on {self.game}: answered 200 but the ply is now "
                f"{self.ply} ({_gist(response)})"
            )
            return False
        return True

    async def undo(self) -> bool:
        ply = self.ply
        form = {"ply": str(self.ply), "version": str(self.version)}
        response = await self.call("undo", "POST", self.game + "undo/", form, htmx=True)
        if response is None:
            return False
        if response.status != 200:
            self.stats.error(f"undo at ply {ply} on {self.game}: {response.status}")
            return False
        if not self.take(response, "undo"):
            return False
        if self.ply >= ply:
            self.stats.error(f"undo at ply {ply} on {self.game}: the ply is now {self.ply}")
            return False
        return True


def retry_after(response: Response) -> float:
    """The seconds a refusal asks to wait (Retry-After), 1 if it does not say."""
    try:
        return max(0.5, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


def _gist(response: Response) -> str:
    """The message an answer carries (the board's note), or the start of its text."""
    text = response.text
    found = re.search(r'class="message[^"]*">([^<]*)<', text)
    if found:
        return found.group(1).strip()[:160]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", text)).strip()[:160]


# -- the phases -----------------------------------------------------------------------------------


@dataclass
class Run:
    host: str
    port: int
    seed: int
    #: Seconds a player pauses before each request, on average (0: none, a closed loop).
    think: float = 0.0
    #: Seconds over which the players arrive (0: all at once); the figures count from when
    #: all have arrived.
    arrival: float = 0.0
    #: Whether the players' open pages ask whether their game moved on, as pages do.
    polls: bool = True
    #: Open game pages nobody plays on, besides the players.
    idle: int = 0
    #: Seconds between a page's questions when fixed (0: as catchup.js schedules them): 3
    #: models the pages before it, which asked every 3 s in sight, playing or not.
    poll_every: float = 0.0
    stats: Stats = field(default_factory=Stats)
    #: Set while the players play; cleared, they wait before their next request.
    go: asyncio.Event = field(default_factory=asyncio.Event)
    #: The players' requests under way.
    in_flight: int = 0
    #: The players stop.
    done: bool = False
    #: The database whose PostgreSQL backends the CPU figures count.
    database: str = DB_NAME
    #: The players' addresses: this prefix and 1 to 250 (loopback: all of 127.0.0.0/8 is this
    #: machine's; the cluster: bin/cluster makes 10.77.1.0/24 this machine's).
    clients: str = "127.0.1."


async def alternating(
    ctx: Run,
    server_pid: int | None,
    players: int,
    seconds: float,
    trivial_seconds: float,
    slices: int,
) -> tuple[dict, dict]:
    """``slices`` slices of play, ``seconds`` in all, between ``slices + 1`` slices of the
    trivial view, ``trivial_seconds`` in all: the machine's speed drifts (other jobs, the
    host), and in turns both see the same drift. The players pause between their slices: they
    wait before their next request, and the trivial view's slice starts once their requests
    under way are answered. Returns the CPU used and wall time of the play and of the trivial
    view, each summed over its slices."""
    totals: dict[str, dict] = {}

    def add(kind: str, used: dict) -> None:
        total = totals.setdefault(kind, dict.fromkeys(used, 0.0))
        for name, value in used.items():
            total[name] += value
        total["cores"] = used["cores"]

    async def trivial_slice() -> None:
        meter = CpuMeter(server_pid, ctx.database)
        wall = await trivial_phase(ctx, players, trivial_seconds / (slices + 1))
        add("trivial", meter.stop() | {"wall": wall})

    tasks = [asyncio.create_task(Player(i, ctx).run()) for i in range(players)]
    tasks += [
        asyncio.create_task(Player(players + i, ctx, idle=True).run()) for i in range(ctx.idle)
    ]
    if ctx.arrival:
        # The players arrive, one by one; what they do meanwhile is not counted (but an error
        # is an error).
        ctx.stats.began = time.monotonic()
        ctx.go.set()
        await asyncio.sleep(ctx.arrival)
        ctx.go.clear()
        drain = time.monotonic() + DRAIN
        while ctx.in_flight and time.monotonic() < drain:
            await asyncio.sleep(0.001)
        ctx.stats.since_arrival()
    for _ in range(slices):
        await trivial_slice()
        meter = CpuMeter(server_pid, ctx.database)
        start = ctx.stats.began = time.monotonic()
        ctx.go.set()
        await asyncio.sleep(seconds / slices)
        ctx.go.clear()
        drain = time.monotonic() + DRAIN
        while ctx.in_flight and time.monotonic() < drain:
            await asyncio.sleep(0.001)
        add("players", meter.stop() | {"wall": time.monotonic() - start})
    await trivial_slice()
    ctx.done = True
    ctx.go.set()
    await _finish(tasks, ctx.stats, 0)
    return totals["players"], totals["trivial"]


async def trivial_phase(ctx: Run, clients: int, seconds: float) -> float:
    start = ctx.stats.began = time.monotonic()
    deadline = start + seconds

    async def hammer(number: int) -> None:
        # Each from one of the players' addresses: through the balancer, its door counts each
        # address's requests.
        http = Http(ctx.host, ctx.port, f"{ctx.clients}{number % 250 + 1}")
        try:
            while time.monotonic() < deadline:
                began = time.perf_counter()
                try:
                    async with asyncio.timeout(REQUEST_TIMEOUT):
                        response = await http.request("GET", "/healthz/")
                except (HttpError, OSError, TimeoutError) as e:
                    http.close()
                    ctx.stats.error(f"healthz: {type(e).__name__} {e}")
                    await asyncio.sleep(0.1)
                    continue
                ctx.stats.statuses[response.status] += 1
                if response.status in (429, 503):
                    # Through the balancer: no app server free soon (or the door); it asks again.
                    ctx.stats.refused["healthz"] += 1
                    continue
                ctx.stats.latencies["healthz"].append(time.perf_counter() - began)
                if response.status == 200 and response.body.strip() == b"ok":
                    ctx.stats.counts["healthz"] += 1
                else:
                    ctx.stats.error(f"healthz: {response.status} {response.body[:80]!r}")
        finally:
            http.close()

    await _finish([asyncio.create_task(hammer(n)) for n in range(clients)], ctx.stats, seconds)
    return time.monotonic() - start


async def _finish(tasks: list[asyncio.Task], stats: Stats, seconds: float) -> None:
    """Wait for the tasks: past the deadline, requests in flight get DRAIN more seconds."""
    _done, pending = await asyncio.wait(tasks, timeout=seconds + DRAIN)
    for task in pending:
        task.cancel()
    if pending:
        stats.error(f"{len(pending)} clients still waiting {DRAIN:.0f} s after the end: cut off")
        await asyncio.gather(*pending, return_exceptions=True)


# -- the database and the server -----------------------------------------------------------------


def fresh_database(name: str = DB_NAME) -> str:
    """A new, empty PostgreSQL database ``name`` on 127.0.0.1:5432 (dropped first if an earlier
    run left it): its URL. The load test's, and the other benchmarks' (abuse.py,
    side_by_side.py --postgres)."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config_default(name: str, variable: str) -> int | None:
    """The gunicorn config's default for ``name`` (its environment ``variable`` unset), read
    from the config itself; None if it cannot be read."""
    env = {k: v for k, v in os.environ.items() if k != variable}
    code = f"import runpy; print(runpy.run_path('solitaire/gunicorn.conf.py')[{name!r}])"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    return int(result.stdout.strip()) if result.returncode == 0 else None


def default_workers() -> int:
    """The gunicorn config's default (one per core)."""
    return config_default("workers", "WEB_CONCURRENCY") or os.cpu_count() or 1


def default_threads() -> int:
    """The gunicorn config's default threads per worker (8), what the server runs with when
    --threads is not given."""
    return config_default("threads", "WEB_THREADS") or 1


class Server:
    def __init__(self, port: int, workers: int, threads: int | None, folder: Path) -> None:
        self.port = port
        self.workers = workers
        self.log_path = folder / "server.log"
        self.env = {
            **os.environ,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_HTTPS": "0",
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": str(workers),
            "PY": sys.executable,
            "ACCESS_LOG": "off",
            # Static files are collected here, not into the shared staticfiles/ folder.
            "DJANGO_STATIC_ROOT": str(folder / "static"),
            # gunicorn's control socket ($XDG_RUNTIME_DIR/gunicorn.ctl, else the one
            # ~/.gunicorn/gunicorn.ctl every instance on the machine shares) goes here too.
            "XDG_RUNTIME_DIR": str(folder),
            # And the supervisor's socket, pid file and log.
            "SUPERVISOR_DIR": str(folder),
            # Players flat out act on their game faster than any person: the limit on actions
            # per game (settings.LIMITS["action-game"]) is the load test's own.
            "ACTIONS_PER_GAME": os.environ.get("ACTIONS_PER_GAME", "1000000"),
        }
        for name in ("WEB_THREADS", "DJANGO_DEBUG", "SQLITE_PATH", "PORT", "GUNICORN_TIMEOUT"):
            self.env.pop(name, None)
        if threads:
            self.env["WEB_THREADS"] = str(threads)
        self.process: subprocess.Popen | None = None

    def behind_balancer(self) -> None:
        """As `make serve` runs it: HAProxy on the port the players use, the server behind it
        on another port of loopback."""
        self.env |= {"BALANCER_BIND": f"127.0.0.1:{self.port}", "BIND": f"127.0.0.1:{free_port()}"}

    def start(self) -> None:
        self.log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.process = subprocess.Popen(
            [str(ROOT / "bin" / "serve")],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches only us; we stop the server ourselves
        )

    def wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                    s.sendall(
                        f"GET /healthz/ HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                        "Connection: close\r\n\r\n".encode()
                    )
                    answer = b""
                    while chunk := s.recv(4096):
                        answer += chunk
                if answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok\n"):
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer /healthz/ within {START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own process group
            self.process.wait()
        self.log.close()

    def tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text[-lines:])

    def problems(self, lines: int = 40) -> str:
        """The log's exceptions, counted, and its last traceback."""
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        counted: Counter = Counter()
        last: list[str] = []
        current: list[str] | None = None
        for line in text:
            if line.startswith("Traceback"):
                current = [line]
            elif current is not None:
                current.append(line)
                if line and not line[0].isspace():  # the exception's own line ends it
                    counted[line[:200]] += 1
                    last, current = current, None
            elif "ERROR" in line or "CRITICAL" in line:
                counted[line[:200]] += 1
        if not counted:
            return ""
        summary = [f"{n:6} x {what}" for what, n in counted.most_common(10)]
        return "\n".join([*summary, "The last traceback:", *last[-lines:]])


# -- the cluster ----------------------------------------------------------------------------------

#: The cluster of bin/cluster: its state folder, its balancer and its database.
CLUSTER_DIR = Path(os.environ.get("CLUSTER_DIR", "/var/tmp/solitaire-cluster"))
BALANCER = ("10.77.0.10", 80)
CLUSTER_DATABASE = "solitaire"
#: The players' addresses through the cluster (bin/cluster routes 10.77.1.0/24 to this machine).
CLUSTER_CLIENTS = "10.77.1."


def balancer_command(line: str) -> str:
    """One command on HAProxy's admin socket (``disable server apps/app2``), its answer."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(CLUSTER_DIR / "lb" / "haproxy.sock"))
        s.sendall(line.encode() + b"\n")
        return b"".join(iter(lambda: s.recv(65536), b"")).decode()


def cluster_setting(name: str) -> str:
    """A variable of the cluster's environment (deploy/cluster.env)."""
    for line in (ROOT / "deploy" / "cluster.env").read_text().splitlines():
        key, _eq, value = line.partition("=")
        if key == name:
            return value
    raise KeyError(name)


def pages_of(args) -> dict:
    """How the players arrive and their pages ask, as the command line says (``Run``'s)."""
    return {
        "arrival": args.arrival,
        "polls": not args.no_polls,
        "idle": args.idle,
        "poll_every": args.poll_every,
    }


def through_cluster(args) -> int:
    """The players and the trivial view through the cluster's balancer, on one app server or
    both."""
    if not (CLUSTER_DIR / "lb" / "haproxy.sock").exists():
        print("The cluster is not running: start it with `make cluster`.", file=sys.stderr)
        return 2
    workers = int(cluster_setting("WEB_CONCURRENCY"))
    state = "disable" if args.app_servers == 1 else "enable"
    balancer_command(f"{state} server apps/app2")
    balancer_command("enable server apps/app1")
    try:
        ctx = Run(
            *BALANCER,
            args.seed,
            args.think / 1000,
            **pages_of(args),
            database=CLUSTER_DATABASE,
            clients=CLUSTER_CLIENTS,
        )
        loads = {"before": load()}
        print(
            f"Through the balancer http://{BALANCER[0]}/ to {args.app_servers} app server(s); "
            f"load average before: {loads['before']}",
            flush=True,
        )
        play, trivial = asyncio.run(
            alternating(ctx, None, args.players, args.seconds, args.trivial_seconds, SLICES)
        )
        loads["after"] = load()
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr, flush=True)
        return 130
    finally:
        balancer_command("enable server apps/app2")
    phases = {"players": play, "trivial": trivial}
    title = (
        f"Load test: the cluster, HAProxy and {args.app_servers} app server(s), "
        "PostgreSQL and Redis on their own host"
    )
    return report(args, workers, ctx.stats, phases, loads, title)


# -- the report -----------------------------------------------------------------------------------


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def report(args, workers: int, stats: Stats, phases: dict, loads: dict, title: str) -> int:
    play, trivial = phases["players"], phases["trivial"]
    threads = args.threads or default_threads()
    kind = "sync" if threads == 1 else f"gthread, {threads} threads each"
    moves = stats.latencies["move"]
    played = stats.counts["moves played"]
    move_rate = played / play["wall"] if play["wall"] else 0.0
    trivial_rate = stats.counts["healthz"] / trivial["wall"] if trivial["wall"] else 0.0
    share = move_rate / trivial_rate if trivial_rate else 0.0
    ms = [s * 1000 for s in moves]
    p50, p95, p99 = (percentile(ms, q) for q in (0.5, 0.95, 0.99))

    pages = args.players + args.idle
    poll_rate = stats.counts["poll"] / play["wall"] / pages if play["wall"] else 0.0

    def other_ms(kind: str) -> float:
        return percentile([s * 1000 for s in stats.latencies[kind]], 0.5)

    def other(kind: str) -> str:
        values = [s * 1000 for s in stats.latencies[kind]]
        if not values:
            return "0"
        return f"{len(values)} (median {percentile(values, 0.5):.1f} ms)"

    rows = [
        (
            "players",
            f"{args.players}"
            + (f", pausing ~{args.think:g} ms" if args.think else "")
            + (f", and {args.idle} open pages nobody plays on" if args.idle else ""),
        ),
        (
            "duration",
            f"{play['wall']:.1f} s of play ({args.seconds:g} s asked, with each slice's drain)",
        ),
        (
            "gunicorn workers",
            f"{args.app_servers} app servers x {workers} ({kind}, access log off)"
            if args.cluster
            else f"{workers} ({kind}, access log off)",
        ),
        ("moves played", f"{played}"),
        ("moves per second", f"{move_rate:.1f}"),
        ("move latency median", f"{p50:.1f} ms"),
        ("move latency 95th", f"{p95:.1f} ms"),
        ("move latency 99th", f"{p99:.1f} ms"),
        ("move latency max", f"{max(ms) if ms else float('nan'):.1f} ms"),
        (
            "move answer size",
            f"median {percentile(stats.move_sizes, 0.5) / 1024:.1f} KB, "
            f"largest {max(stats.move_sizes, default=0) / 1024:.1f} KB",
        ),
        ("undo requests", other("undo")),
        ("page requests", other("page") + " (resumes and games opened)"),
        ("new games", other("new game")),
        (
            "games ended",
            ", ".join(f"{k[6:]} {v}" for k, v in sorted(stats.counts.items()) if k[:6] == "games ")
            or "none",
        ),
        ("home pages", other("home")),
        (
            "catch-up polls",
            other("poll") + f", {poll_rate:.3f} per open page per s",
        ),
        ("illegal moves (422)", f"{len(stats.illegal)}"),
        *(
            [
                (
                    "refused for now",
                    (", ".join(f"{k} {v}" for k, v in sorted(stats.refused.items())) or "none")
                    + f" (503 and 429); sent again {sum(stats.resent.values())}, given up "
                    f"{sum(stats.given_up.values())}",
                ),
                ("moves played on a retry", other("move resent") + " from the first send"),
            ]
            if args.balancer
            else []
        ),
        ("errors", f"{len(stats.errors)}"),
        ("connections", f"{Http.opened} opened for {Http.sent} requests (both phases)"),
        ("answers by status", ", ".join(f"{k}: {v}" for k, v in sorted(stats.statuses.items()))),
        (
            "trivial view",
            f"{trivial_rate:.0f} requests/s (GET /healthz/, {args.players} clients, "
            f"{trivial['wall']:.1f} s, median {other_ms('healthz'):.1f} ms)",
        ),
        ("moves/s ÷ trivial rps", f"{share * 100:.1f} %"),
    ]
    # The same comparison from the CPU the server spent on each request, which depends much
    # less on what else the machine is doing than requests per second do.
    requests = sum(stats.counts[k] for k in ("move", "undo", "page", "new game", "home", "poll"))
    if requests and stats.counts["healthz"] and play["server"]:
        per_request = play["server"] / requests * 1000
        per_trivial = trivial["server"] / stats.counts["healthz"] * 1000
        rows.append(
            (
                "gunicorn CPU/request",
                f"{per_request:.2f} ms while playing (+ PostgreSQL "
                f"{play['database'] / requests * 1000:.2f} ms), {per_trivial:.2f} ms for "
                f"/healthz/: {per_trivial / per_request:.1%}",
            )
        )
    for name, phase in (("players", play), ("trivial", trivial)):
        wall = phase["wall"]
        rows.append(
            (
                f"CPU, {name} phase",
                f"client {phase['client']:.1f} s ({phase['client'] / wall:.0%} of a core), "
                f"gunicorn {phase['server']:.1f} s, task workers {phase['tasks']:.1f} s, "
                + (f"HAProxy {phase['balancer']:.1f} s, " if args.cluster or args.balancer else "")
                + f"PostgreSQL {phase['database']:.1f} s, Redis {phase['redis']:.1f} s",
            )
        )
        rows.append(
            (
                "",
                f"others {phase['others']:.1f} s; the machine: "
                f"{phase['machine'] / wall:.2f} of {phase['cores']} cores busy over {wall:.1f} s",
            )
        )
    rows.append(("load average", f"before {loads['before']}, after {loads['after']}"))
    width = max(len(name) for name, _value in rows)
    print()
    print(title)
    print("-" * 78)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print("-" * 78)
    if stats.illegal:
        print(f"Illegal moves (the first {min(SHOWN_ERRORS, len(stats.illegal))}):")
        for text in stats.illegal[:SHOWN_ERRORS]:
            print(f"  {text}")
    if stats.errors:
        print(f"Errors (the first {min(SHOWN_ERRORS, len(stats.errors))}):")
        for text in stats.errors[:SHOWN_ERRORS]:
            print(f"  {text}")
    note = "" if args.players == TARGET_PLAYERS else f" (this run: {args.players} players)"
    print(
        f"target: no errors at {TARGET_PLAYERS} players, p95 move < {TARGET_P95_MS:.0f} ms, "
        f"moves/s ≥ {TARGET_SHARE:.0%} of trivial rps{note}"
    )
    checks = [
        (f"no errors at {args.players} players", not stats.errors),
        (f"p95 move {p95:.1f} ms < {TARGET_P95_MS:.0f} ms", p95 < TARGET_P95_MS),
        (
            f"moves/s {move_rate:.1f} ≥ {TARGET_SHARE:.0%} of {trivial_rate:.0f} "
            f"({share * 100:.1f} %)",
            share >= TARGET_SHARE,
        ),
    ]
    for text, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    if args.json:
        figures = {
            "players": args.players,
            "arrival": args.arrival,
            "moves_per_s": move_rate,
            "move_p50": p50,
            "move_p95": p95,
            "move_p99": p99,
            "page_p50": other_ms("page"),
            "new_game_p50": other_ms("new game"),
            "poll_per_page_s": poll_rate,
            "cpu_per_request": play["server"] / requests * 1000 if requests else 0.0,
            "cores_busy": play["machine"] / play["wall"] if play["wall"] else 0.0,
            "errors": len(stats.errors),
            "illegal": len(stats.illegal),
            "refused": sum(stats.refused.values()),
            "resent": sum(stats.resent.values()),
            "given_up": sum(stats.given_up.values()),
            "move_resent_p95": percentile([t * 1000 for t in stats.latencies["move resent"]], 0.95),
        }
        Path(args.json).write_text(json.dumps(figures))
    failed = bool(stats.errors or stats.illegal)
    if args.strict and not all(ok for _text, ok in checks):
        failed = True
    return 1 if failed else 0


# -- main -----------------------------------------------------------------------------------------


def _terminated(signum, frame) -> None:
    raise KeyboardInterrupt  # stopped by SIGTERM (e.g. a timeout): clean up as for Ctrl-C


def main() -> int:
    signal.signal(signal.SIGTERM, _terminated)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50, help="concurrent players (50)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play (30)")
    parser.add_argument(
        "--trivial-seconds", type=float, default=10.0, help="seconds of GET /healthz/ (10)"
    )
    parser.add_argument("--workers", type=int, help="gunicorn workers (the config's default)")
    parser.add_argument(
        "--threads", type=int, help="threads per worker (the config's default, 8: gthread workers)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="milliseconds a player pauses before each request, on average (0: none)",
    )
    parser.add_argument(
        "--arrival",
        type=float,
        default=0.0,
        help="seconds over which the players arrive, not counted (0: all at once, counted)",
    )
    parser.add_argument(
        "--balancer",
        action="store_true",
        help="HAProxy in front of gunicorn, as make serve runs it (deploy/haproxy.cfg)",
    )
    parser.add_argument(
        "--no-polls",
        action="store_true",
        help="the players' pages do not ask whether their game moved on",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=0,
        help="open game pages nobody plays on, besides the players (0)",
    )
    parser.add_argument(
        "--poll-every",
        type=float,
        default=0.0,
        help="seconds between a page's questions, fixed (3: the pages before catchup.js)",
    )
    parser.add_argument("--json", help="also write the main figures to this file (JSON)")
    parser.add_argument("--seed", type=int, default=20261129, help="the players' random seed")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--cluster", action="store_true", help="through the cluster's balancer (make cluster)"
    )
    parser.add_argument(
        "--app-servers",
        type=int,
        choices=(1, 2),
        default=2,
        help="with --cluster: the app servers the balancer uses (2)",
    )
    args = parser.parse_args()
    if args.players < 1 or args.seconds <= 0 or args.trivial_seconds <= 0:
        parser.error("--players, --seconds and --trivial-seconds must be positive")
    if args.cluster:
        return through_cluster(args)
    workers = args.workers or default_workers()

    with tempfile.TemporaryDirectory(prefix="loadtest-") as folder:
        port = free_port()
        print(f"Database {DB_NAME}: dropped and created afresh.", flush=True)
        fresh_database()
        server = Server(port, workers, args.threads, Path(folder))
        if args.balancer:
            server.behind_balancer()
        print(f"Starting bin/serve on 127.0.0.1:{port} with {workers} workers...", flush=True)
        server.start()
        try:
            server.wait_ready()
            ctx = Run("127.0.0.1", port, args.seed, args.think / 1000, **pages_of(args))
            loads = {"before": load()}
            print(f"Load average before: {loads['before']}", flush=True)
            print(
                f"Players: {args.players} for {args.seconds:g} s, in {SLICES} slices between "
                f"{SLICES + 1} slices of {args.players} clients on /healthz/, "
                f"{args.trivial_seconds:g} s in all"
                + (f", after {args.arrival:g} s of arrivals" if args.arrival else ""),
                flush=True,
            )
            play, trivial = asyncio.run(
                alternating(
                    ctx,
                    server.process.pid,
                    args.players,
                    args.seconds,
                    args.trivial_seconds,
                    SLICES,
                )
            )
            phases = {"players": play, "trivial": trivial}
            loads["after"] = load()
        except BaseException as e:
            server.stop()
            if isinstance(e, KeyboardInterrupt):
                print("\nInterrupted: the server is stopped.", file=sys.stderr, flush=True)
                return 130
            print(f"\nThe load test failed: {e}", file=sys.stderr)
            print(f"The server's log ({server.log_path}), its end:", file=sys.stderr)
            print(server.tail(), file=sys.stderr)
            if not isinstance(e, RuntimeError):
                traceback.print_exc()
            return 2
        exited = server.process.poll()
        if exited is not None:
            ctx.stats.error(f"the server (gunicorn's master) exited during the run: {exited}")
        server.stop()
        title = "Load test: bin/serve on loopback, PostgreSQL, Redis cache" + (
            ", HAProxy in front" if args.balancer else ""
        )
        status = report(args, workers, ctx.stats, phases, loads, title)
        if ctx.stats.errors:
            problems = server.problems()
            if problems:
                print("\nThe server's log: its errors and exceptions, by count")
                print(problems)
            print(f"\nThe server's log, its end (of {server.log_path}):")
            print(server.tail(25))
    return status


if __name__ == "__main__":
    sys.exit(main())
