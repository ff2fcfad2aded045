"""The two crowds the daily deal and shared links bring, against the production server
(`bin/serve`, debug off) on loopback with PostgreSQL and Redis, each player from a loopback
address of its own (127.0.0.0/8 is all loopback), so that every per-address limit counts as it
would for people:

    .venv/bin/python tests/bench/crowds.py [--only rush,link] [--rush 2000] [--rush-arrival 30]
        [--rush-seconds 60] [--think 2000] [--opens 5000] [--link-seconds 60] [--addresses 500]
        [--balancer]

- **The midnight rush** (--rush players arriving evenly over --rush-arrival seconds): each opens
  /daily/, then today's game of one of the ten games (/daily/<game>/, which starts it and
  answers with its page; a server that redirects to it instead costs a request more), then
  plays it, a move every --think ms or so, until --rush-seconds from
  the first arrival. A refusal (429 or 503) on the way in is tried again after its Retry-After,
  as a person tapping again would. Printed: each kind of request's count, p50, p95 and p99;
  the answers by status; requests with no answer (a broken connection, or none in 30 s); moves
  a second; the share of players in their game within 10 s of arriving, retries included.
- **The shared link** (--opens page views of one shared game, its image with each, evenly over
  --link-seconds from --addresses addresses, a fresh browser each, as a busy chat's members
  open a link pasted there). Printed: the same figures for the page and the image, and how
  many images the server drew (files in its image folder).

``--balancer`` serves as `make serve` does, HAProxy (deploy/haproxy.cfg) in front of gunicorn;
its CPU counts with the server's. Each crowd runs on a server of its own with its own database
(``solitaire_crowds``, dropped and made afresh; Redis database 12). The server's CPU a request
and the cores busy (all processes; the client shares the machine's two cores) are printed too.
It prints figures and asserts nothing: docs/performance.md quotes them with the command.
"""

import argparse
import asyncio
import random
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.loadtest import (  # noqa: E402 (after the path is set)
    VARIANTS,
    CpuMeter,
    Http,
    HttpError,
    Server,
    default_workers,
    follow,
    free_port,
    fresh_database,
    opened_path,
    percentile,
    read_board,
)

DB_NAME = "solitaire_crowds"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/12"
HOST = "127.0.0.1"
#: Seconds a request may take before it counts as unanswered (gunicorn's own timeout is 30).
REQUEST_TIMEOUT = 30.0
#: A player is "in their game" when its page answered within this many seconds of arriving.
IN_GAME_SECONDS = 10.0
#: How long a player keeps trying to get in (refusals waited out) before it gives up.
PATIENCE = 30.0
#: How long the game page sends an action answered 503 again (static/js/game/queue.js).
RETRY_FOR = 15.0


def address(n: int) -> str:
    """The n-th client's own loopback address (127.2.0.1 and on: none the server uses)."""
    return f"127.{2 + ((n >> 16) & 127)}.{(n >> 8) & 255}.{(n & 255) or 1}"


class Figures:
    """What a crowd's requests met: times by kind, answers by status, requests unanswered."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: Counter = Counter()
        self.unanswered: Counter = Counter()
        self.requests = 0
        #: Moves answered 503 and sent again, and moves given up after RETRY_FOR.
        self.retried = self.given_up = 0
        #: Whether each move sent (in the order of ``times["move"]``) was played (200).
        self.ok_moves: list[bool] = []

    async def ask(self, http: Http, kind: str, method: str, path: str, form=None, htmx=False):
        """One request, timed and counted; None when it got no answer."""
        headers = {"HX-Request": "true"} if htmx else {}
        if method == "POST" and "csrftoken" in http.cookies:
            headers["X-CSRFToken"] = http.cookies["csrftoken"]
        self.requests += 1
        start = time.perf_counter()
        try:
            response = await asyncio.wait_for(
                http.request(method, path, form, headers), REQUEST_TIMEOUT
            )
        except (HttpError, TimeoutError):
            http.close()
            self.unanswered[kind] += 1
            return None
        self.times[kind].append((time.perf_counter() - start) * 1000)
        if kind == "move":
            self.ok_moves.append(response.status == 200)
        self.statuses[(kind, response.status)] += 1
        return response

    def print(self, seconds: float) -> None:
        print(f"   {'request':<10} {'count':>7} {'p50 ms':>9} {'p95 ms':>9} {'p99 ms':>9}")
        for kind, times in self.times.items():
            figures = [percentile(times, share) for share in (0.5, 0.95, 0.99)]
            print(f"   {kind:<10} {len(times):>7} " + " ".join(f"{f:>9.1f}" for f in figures))
        by_status: dict[str, Counter] = defaultdict(Counter)
        for (kind, status), count in self.statuses.items():
            by_status[kind][status] = count
        for kind, counts in by_status.items():
            print(f"   {kind} answers: {dict(sorted(counts.items()))}")
        errors = sum(n for (_kind, status), n in self.statuses.items() if status >= 500)
        busy = sum(n for (_kind, status), n in self.statuses.items() if status == 503)
        print(f"   5xx: {errors} ({busy} of them 503); no answer: {dict(self.unanswered) or 0}")
        played = self.statuses.get(("move", 200), 0)
        if moves := len(self.times.get("move", [])):
            print(
                f"   moves played a second: {played / seconds:.1f} ({played} in {seconds:.0f} s;"
                f" {moves} sent, {self.retried} sent again after a 503, {self.given_up} given up)"
            )
        answered = [
            t for t, ok in zip(self.times.get("move", []), self.ok_moves, strict=True) if ok
        ]
        if answered:
            figures = [percentile(answered, share) for share in (0.5, 0.95, 0.99)]
            print(
                "   moves played without a refusal, p50/p95/p99 ms: "
                + " / ".join(f"{f:.1f}" for f in figures)
            )


def wait_of(response) -> float:
    """The seconds a refusal asks to wait (Retry-After), 1 if it does not say."""
    try:
        return max(0.5, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


async def get_in(figures: Figures, http: Http, kind: str, path: str, until: float):
    """GET ``path`` until it is answered other than 429 or 503, waiting as each refusal says
    (at most until ``until``); the last answer, or None."""
    while True:
        response = await figures.ask(http, kind, "GET", path)
        if response is None or response.status not in (429, 503):
            return response
        if time.monotonic() + wait_of(response) > until:
            return response
        await asyncio.sleep(wait_of(response))


# -- the midnight rush ----------------------------------------------------------------------


async def rush_player(n: int, start_at: float, end: float, think: float, figures, arrivals):
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    arrived = time.monotonic()
    until = arrived + PATIENCE
    http = Http(HOST, PORT, address(n))
    rng = random.Random(n)
    try:
        if (await get_in(figures, http, "daily", "/daily/", until)) is None:
            return
        variant = rng.choice(VARIANTS)
        page = await get_in(figures, http, "open", f"/daily/{variant}/", until)
        game = opened_path(page) if page is not None else ""
        if not game:
            return
        if page.status != 200:  # a server that answers with a redirect: two requests
            page = await get_in(figures, http, "page", game, until)
            if page is None or page.status != 200:
                return
        arrivals.append(time.monotonic() - arrived)
        seen = read_board(page.text)
        while time.monotonic() < end and seen.status == "playing":
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            moves = list(seen.moves or []) + (["deal"] if seen.stock == "deal" else [])
            if not moves:
                break
            form = {"move": rng.choice(moves), "ply": seen.ply, "version": seen.version}
            response = await played(figures, http, f"{game}move/", form)
            if response is None:
                continue
            follow(seen, response.text)
    finally:
        http.close()


async def played(figures: Figures, http: Http, path: str, form: dict):
    """A move sent as the game page sends it: answered 503, it goes again after Retry-After,
    for up to RETRY_FOR seconds from the first send (static/js/game/queue.js); the answer, or
    None when it got none or was given up (counted)."""
    first = time.monotonic()
    while True:
        response = await figures.ask(http, "move", "POST", path, form, htmx=True)
        if response is None or response.status != 503:
            return response
        if time.monotonic() + wait_of(response) > first + RETRY_FOR:
            figures.given_up += 1
            return None
        figures.retried += 1
        await asyncio.sleep(wait_of(response))


async def rush(args, folder: Path) -> None:
    print(
        f"\nThe midnight rush: {args.rush} players arrive over {args.rush_arrival:g} s, each opens"
        f" /daily/ and one of today's games, then plays a move every {args.think:g} ms or so"
        f" until {args.rush_seconds:g} s...",
        flush=True,
    )
    figures, arrivals = Figures(), []
    first = time.monotonic() + 1
    end = first + args.rush_seconds
    step = args.rush_arrival / max(1, args.rush)
    players = [
        rush_player(n, first + n * step, end, args.think / 1000, figures, arrivals)
        for n in range(args.rush)
    ]
    await asyncio.gather(*players)
    figures.print(time.monotonic() - first)
    quick = sum(1 for a in arrivals if a <= IN_GAME_SECONDS)
    print(
        f"   in their game within {IN_GAME_SECONDS:g} s of arriving: {quick} of {args.rush}"
        f" ({100 * quick / max(1, args.rush):.1f} %); in at all: {len(arrivals)}"
    )


# -- the shared link ------------------------------------------------------------------------


async def shared_game(figures: Figures) -> str:
    """A player starts a game, plays a few moves and shares it: the link's path."""
    http = Http(HOST, PORT, address(100_000))
    await figures.ask(http, "setup", "GET", "/en/")
    form = {"variant": "forty-thieves", "deal": "1"}
    response = await figures.ask(http, "setup", "POST", "/new/", form)
    game = opened_path(response)
    seen = read_board((await figures.ask(http, "setup", "GET", game)).text)
    for _ in range(5):
        moves = list(seen.moves or []) + (["deal"] if seen.stock == "deal" else [])
        form = {"move": moves[0], "ply": seen.ply, "version": seen.version}
        follow(seen, (await figures.ask(http, "setup", "POST", f"{game}move/", form)).text)
    response = await figures.ask(http, "setup", "POST", f"{game}share/")
    http.close()
    return urllib.parse.urlsplit(response.headers["location"]).path


async def opener(n: int, at: float, addresses: int, link: str, figures: Figures) -> None:
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    http = Http(HOST, PORT, address(n % addresses))
    try:
        page = await figures.ask(http, "shared", "GET", link)
        if page is not None and page.status == 200:
            await figures.ask(http, "image", "GET", f"{link}board.png")
    finally:
        http.close()


async def link_crowd(args, folder: Path) -> None:
    print(
        f"\nThe shared link: {args.opens} opens of one shared game's page and its image over"
        f" {args.link_seconds:g} s, from {args.addresses} addresses...",
        flush=True,
    )
    setup = Figures()
    link = await shared_game(setup)
    figures = Figures()
    first = time.monotonic() + 1
    step = args.link_seconds / max(1, args.opens)
    await asyncio.gather(
        *(opener(n, first + n * step, args.addresses, link, figures) for n in range(args.opens))
    )
    figures.print(time.monotonic() - first)
    drawn = [f for f in (folder / "images").rglob("*") if f.is_file()]
    print(f"   images drawn (files in the server's image folder): {len(drawn)}")


# -- the run --------------------------------------------------------------------------------


#: The server of the crowd running now: its port and its process (bin/serve).
PORT = 0
SERVER_PID: int | None = None


async def measured(crowd, args, folder: Path) -> None:
    meter = CpuMeter(SERVER_PID, DB_NAME)
    began = time.monotonic()
    requests_before = Http.sent
    await crowd(args, folder)
    used = meter.stop()
    requests = Http.sent - requests_before
    wall = time.monotonic() - began
    print(
        f"   server CPU: {used['server']:.1f} s, {1000 * used['server'] / max(1, requests):.2f} ms"
        f" a request ({requests} sent); task workers {used['tasks']:.1f} s, PostgreSQL"
        f" {used['database']:.1f} s, Redis {used['redis']:.1f} s, this client {used['client']:.1f}"
        f" s; cores busy {used['machine'] / wall:.2f} of {used['cores']}"
    )


def serve(args, crowd) -> None:
    global PORT, SERVER_PID
    fresh_database(DB_NAME)
    PORT = free_port()
    with tempfile.TemporaryDirectory(prefix="crowds-") as folder:
        server = Server(PORT, args.workers or default_workers(), None, Path(folder))
        server.env |= {
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "IMAGE_CACHE_DIR": str(Path(folder) / "images"),
            # Moves at a person's pace: the site's own limit on actions per game.
            "ACTIONS_PER_GAME": "60",
        }
        if args.balancer:
            # As `make serve` runs it: HAProxy on the port the players use, gunicorn behind it.
            server.env |= {"BALANCER_BIND": f"{HOST}:{PORT}", "BIND": f"{HOST}:{free_port()}"}
        print(f"Starting bin/serve on {HOST}:{PORT}...", flush=True)
        server.start()
        try:
            server.wait_ready()
            SERVER_PID = server.process.pid
            asyncio.run(measured(crowd, args, Path(folder)))
            problems = server.problems()
            if problems:
                print("   The server's log has errors:\n" + problems)
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="rush,link", help="rush, link or both")
    parser.add_argument("--rush", type=int, default=2000)
    parser.add_argument("--rush-arrival", type=float, default=30.0)
    parser.add_argument("--rush-seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=2000.0)
    parser.add_argument("--opens", type=int, default=5000)
    parser.add_argument("--link-seconds", type=float, default=60.0)
    parser.add_argument("--addresses", type=int, default=500)
    parser.add_argument("--workers", type=int, help="gunicorn workers (the config's default)")
    parser.add_argument(
        "--balancer", action="store_true", help="HAProxy in front, as make serve runs it"
    )
    args = parser.parse_args()
    crowds = set(args.only.split(","))
    if "rush" in crowds:
        serve(args, rush)
    if "link" in crowds:
        serve(args, link_crowd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
