"""Benchmark of a move request, end to end through Django: run it as
`.venv/bin/python tests/bench/move_request.py [--root CHECKOUT]`.

It sets Django up on a temporary SQLite file (migrated here, deleted after) with DEBUG off, as
in production, and plays games with Django's test Client the way the page does: an htmx POST of
a legal move with the ply and version it was made on, URL-encoded as htmx sends it
(``--multipart``: as the test Client posts by default, a multipart form, which no browser
sends here). It prints
- the server time of a move request (median and 95th percentile, over 500 moves in ten games
  of all kinds): the time from the request entering Django's handler to the response leaving
  it, so the test client's own work is not counted. The same moves are played in three rounds
  and each move's best time counts, as in the engine's benchmark, so that a moment when another
  process had the CPU counts less; the figures over every request follow, for comparison;
- the server's CPU time of a move request (the thread's own time in the same span, best of the
  rounds): what the request cost the machine, which other processes on the same cores change
  less than the time it took (a database's writes to disk are in the time, not here);
- the size of the answer to a move (only what it changed: see games/web/draw.py, draw_changes);
- the bytes of a first visit to a game page: the HTML plus every stylesheet, script and image it
  references, read from our static files (as sent, and gzipped as a server would send them).
It exits with status 1 when a figure is over its budget.

``--no-autoplay`` turns the automatic moves to the foundations off (the player's switch, for
every game played) before the first game: each request then plays exactly the move it posts.
Two versions whose automatic moves differ play different games with them on (since the deal
sends aces home, say), and so do different work; with them off they play the same moves, which
tests/bench/side_by_side.py checks.

``--rounds N`` only plays (a warm-up, then N rounds) and prints nothing, for
tests/bench/instructions.py.

``--root CHECKOUT`` measures the site of another checkout of the project (say, an earlier
commit in a git worktree) with this same benchmark, so two versions can be compared side by
side, alternating runs in one sitting (docs/performance.md).
"""

import gzip
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
if "--root" in sys.argv:
    ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
sys.path.insert(0, str(ROOT))

#: Budgets: the median server time of a move (ms), the largest answer to a move and the first
#: visit (bytes, uncompressed).
MEDIAN_MS = 15
PARTIAL_BYTES = 20 * 1024
FIRST_VISIT_BYTES = 150 * 1024
#: The games played: (game, deal); each for up to MOVES_PER_GAME moves.
GAMES = [
    ("forty-thieves", 1),
    ("forty-thieves", 123456),
    ("lucas", 7),
    ("limited", 11),
    ("number-ten", 42),
    ("rank-and-file", 5),
    ("little-forty", 9),
    ("forty-devils", 3),
    ("maria", 8),
    ("indian", 13),
]
MOVES_PER_GAME = 50
#: Each move is timed in this many rounds (of new games, the same moves), and its best counts.
ROUNDS = 3
#: The game page and its poll are timed this many times on each game, in each round.
PAGE_REPEATS = 5
SEED = 20261129
HTMX = {"HX-Request": "true"}


def setup_django(database: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "solitaire.settings"
    os.environ["SQLITE_PATH"] = str(database)
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-" + "x" * 40)
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DJANGO_HTTPS"] = "0"
    os.environ["DJANGO_STATIC_ROOT"] = str(database.parent / "static")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)


def timed_client():
    """A test Client whose handler notes how long Django took over each request."""
    from django.test import Client
    from django.test.client import ClientHandler

    class TimedHandler(ClientHandler):
        seconds = 0.0
        cpu = 0.0

        def __call__(self, environ):
            start, start_cpu = time.perf_counter(), time.thread_time()
            response = super().__call__(environ)
            self.seconds = time.perf_counter() - start
            self.cpu = time.thread_time() - start_cpu
            return response

    client = Client()
    client.handler = TimedHandler(enforce_csrf_checks=False)
    return client


def autoplay_off(client) -> None:
    """The player's switch of automatic moves set to off for every game type played: one game
    of each started and switched (the switch is kept per game type, in the session)."""
    for variant in dict.fromkeys(variant for variant, _deal in GAMES):
        game = start(client, variant, 1)
        response = client.post(f"/g/{game.public_id}/autoplay/", {"autoplay": "off"})
        assert response.status_code in (200, 302), response.status_code


def start(client, variant: str, deal: int):
    from games.models import Game

    response = client.post("/new/", {"variant": variant, "deal": str(deal)})
    assert response.status_code == 302, response.status_code
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def form(data: dict) -> tuple:
    """A POST body as the page sends it: htmx and a plain form both send
    application/x-www-form-urlencoded (Django's test Client sends multipart/form-data unless
    told, whose parsing costs a request more than a third of a millisecond). ``--multipart``
    keeps the test Client's way, as this benchmark posted until December 2026."""
    if "--multipart" in sys.argv:
        return (data,)
    return urlencode(data), "application/x-www-form-urlencoded"


def choose(game, rng: random.Random) -> str | None:
    """A legal move in the game now, dealing only now and then so the games last."""
    game.refresh_from_db()
    if game.status != "playing":
        return None
    moves = [str(m) for m in game.position().legal_moves()]
    others = [m for m in moves if m not in ("deal", "redeal")]
    if others and (rng.random() < 0.8 or len(others) == len(moves)):
        return rng.choice(others)
    return rng.choice(moves) if moves else None


def round_moves(client, seed: int) -> Iterator[tuple[float, int, float, str]]:
    """Play the games afresh, one move at a time: the server time (s), response size (bytes),
    server CPU time (s) and notation of each move, as it is played."""
    rng = random.Random(seed)
    for variant, deal in GAMES:
        game = start(client, variant, deal)
        url = f"/g/{game.public_id}/move/"
        for _ in range(MOVES_PER_GAME):
            move = choose(game, rng)
            if move is None:
                break
            data = {"move": move, "ply": game.ply, "version": game.version}
            response = client.post(url, *form(data), headers=HTMX)
            assert response.status_code == 200, (variant, move, response.status_code)
            yield client.handler.seconds, len(response.content), client.handler.cpu, move


def play_round(client, seed: int) -> tuple[list[float], list[int], list[float]]:
    """Play the games afresh; the server time (s), response size (bytes) and server CPU time
    (s) of each move."""
    played = list(round_moves(client, seed))
    return [p[0] for p in played], [p[1] for p in played], [p[2] for p in played]


def warm_up(client) -> None:
    """A round of other games first: imports, caches, the first queries. On PostgreSQL the
    tables' statistics are then gathered (``ANALYZE``), as the server's autovacuum keeps them on
    a database in use: on a table it never analysed, the planner may read a move's game through
    the guest's index rather than its key."""
    play_round(client, seed=1)
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def lockstep(client) -> None:
    """Play one move each time a line comes on standard input, and write its server time and
    CPU time (ms) and the move: tests/bench/side_by_side.py drives two of these in turn."""
    warm_up(client)
    moves = (m for _ in range(ROUNDS) for m in round_moves(client, SEED))
    print("ready", flush=True)
    for _line in sys.stdin:
        played = next(moves, None)
        if played is None:
            print("done", flush=True)
            return
        print(f"{played[0] * 1000:.4f} {played[2] * 1000:.4f} {played[3]}", flush=True)


def play(client) -> tuple[list[float], list[float], list[int], list[float]]:
    """The same moves in every round: each move's best time, every time, the sizes, and each
    move's best CPU time.

    The best of a few rounds, as in the engine's benchmark, so that a busy moment on the
    machine (another process on the same core) counts less than the work itself.
    """
    warm_up(client)
    rounds = [play_round(client, SEED) for _ in range(ROUNDS)]
    assert len({len(seconds) for seconds, _sizes, _cpu in rounds}) == 1, "the rounds differ"
    every = [seconds for round_seconds, _sizes, _cpu in rounds for seconds in round_seconds]
    best = [min(times) for times in zip(*(r[0] for r in rounds), strict=True)]
    best_cpu = [min(times) for times in zip(*(r[2] for r in rounds), strict=True)]
    return best, every, rounds[0][1], best_cpu


def pages(client) -> dict[str, list[float]]:
    """The server time (s) of the other requests an open game brings, on the games the moves
    were played in: the game page (opened or come back to) and its catch-up poll when nothing
    changed (the page asks every few seconds while it is in sight), each request's best of
    ``ROUNDS``."""
    from games.models import Game

    games = list(Game.objects.filter(status="playing").order_by("-pk")[: len(GAMES)])
    kinds = {
        "page": lambda game: client.get(f"/g/{game.public_id}/"),
        "poll": lambda game: client.get(
            f"/g/{game.public_id}/poll/", {"version": game.version}, headers=HTMX
        ),
    }
    times: dict[str, list[float]] = {}
    for kind, request in kinds.items():
        request(games[0])  # the first of its kind, out of the count
        rounds = []
        for _ in range(ROUNDS):
            seconds = []
            for _ in range(PAGE_REPEATS):
                for game in games:
                    response = request(game)
                    assert response.status_code in (200, 204), (kind, response.status_code)
                    seconds.append(client.handler.seconds)
            rounds.append(seconds)
        times[kind] = [min(best) for best in zip(*rounds, strict=True)]
    return times


def first_visit(client) -> list[tuple[str, int, int]]:
    """What a first visit to a game page fetches: (what, bytes, gzipped bytes) for each."""
    from django.conf import settings

    fresh = type(client)()
    game = start(fresh, "lucas", 1)
    html = fresh.get(f"/g/{game.public_id}/").content
    fetched = [("the game page (Lucas, 13 columns)", html)]
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    links = re.findall(rb'(?:src|href)="([^"]+)"', html)
    seen = set()
    while links:
        link = links.pop(0).decode()
        if not link.startswith(prefix) or link in seen:
            continue
        seen.add(link)
        # Debug is off: the page names the collected files (hashed names) in STATIC_ROOT.
        path = Path(settings.STATIC_ROOT) / link[len(prefix) :].split("?")[0]
        assert path.is_file(), f"{link} is not in the static files"
        content = Path(path).read_bytes()
        fetched.append((link, content))
        if link.endswith(".css"):
            # Images and fonts the stylesheet asks for come on the first visit too.
            base = link.rsplit("/", 1)[0]
            for url in re.findall(rb"url\(\s*['\"]?([^'\")]+)", content):
                url = url.decode()
                if not url.startswith("data:"):
                    links.append((url if url.startswith("/") else f"{base}/{url}").encode())
    return [(what, len(body), len(gzip.compress(body))) for what, body in fetched]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="move-bench-") as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        client = timed_client()
        if "--no-autoplay" in sys.argv:
            autoplay_off(client)
        if "--lockstep" in sys.argv:
            lockstep(client)
            return 0
        if "--rounds" in sys.argv:
            # Only play: tests/bench/instructions.py counts what this costs.
            warm_up(client)
            for _ in range(int(sys.argv[sys.argv.index("--rounds") + 1])):
                play_round(client, SEED)
            return 0
        seconds, every, sizes, cpu = play(client)
        others = pages(client)
        visit = first_visit(client)
        from django.db import connection

        connection.close()

    ms = [s * 1000 for s in seconds]
    median = statistics.median(ms)
    print(f"Move requests: {len(ms)} moves in {len(GAMES)} games, the best of {ROUNDS} rounds each")
    if "--no-autoplay" in sys.argv:
        print("  automatic moves off")
    p95 = percentile(ms, 0.95)
    print(f"  server time   median {median:6.2f} ms   95th percentile {p95:6.2f} ms")
    print(f"                fastest {min(ms):5.2f} ms   slowest {max(ms):6.2f} ms")
    cpu_ms = [s * 1000 for s in cpu]
    print(
        f"  server CPU    median {statistics.median(cpu_ms):6.2f} ms   "
        f"95th percentile {percentile(cpu_ms, 0.95):6.2f} ms"
    )
    all_ms = [s * 1000 for s in every]
    print(
        f"  every request median {statistics.median(all_ms):6.2f} ms   "
        f"95th percentile {percentile(all_ms, 0.95):6.2f} ms (all {len(all_ms)}, busy moments too)"
    )
    print(
        f"Move answer:    median {statistics.median(sizes) / 1024:5.1f} KB   "
        f"largest {max(sizes) / 1024:5.1f} KB"
    )
    page, poll = (statistics.median(others[kind]) * 1000 for kind in ("page", "poll"))
    print(f"Game page:      median {page:6.2f} ms (the whole page, as opened or come back to)")
    print(f"Poll, no news:  median {poll:6.2f} ms (the open page's catch-up, every few seconds)")
    total = sum(size for _what, size, _zipped in visit)
    zipped = sum(z for _what, _size, z in visit)
    print(f"First visit:    {total / 1024:5.1f} KB ({zipped / 1024:.1f} KB gzipped)")
    for what, size, z in visit:
        print(f"  {size / 1024:6.1f} KB ({z / 1024:5.1f} KB gzipped)  {what}")

    over = []
    if median > MEDIAN_MS:
        over.append(f"the median move takes {median:.1f} ms (budget {MEDIAN_MS} ms)")
    if max(sizes) > PARTIAL_BYTES:
        over.append(f"an answer to a move is {max(sizes)} bytes (budget {PARTIAL_BYTES})")
    if total > FIRST_VISIT_BYTES:
        over.append(f"a first visit is {total} bytes (budget {FIRST_VISIT_BYTES})")
    for problem in over:
        print(f"OVER BUDGET: {problem}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
