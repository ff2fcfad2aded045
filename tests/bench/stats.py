"""Benchmark of the statistics and history pages for a player with many games: run it as
`.venv/bin/python tests/bench/stats.py`.

It sets Django up on a temporary SQLite file (migrated here, deleted after) with DEBUG off, as
in production, and bulk-creates one player with 10,000 finished games (won, given up and
stuck) across the ten game types, finished over the last year, plus a few games in progress.
The games carry no move rows: neither page reads them. With Django's test Client, logged in as
that player, it times
- the statistics page (all games, and one game type),
- the first page of the history, a page in the middle, and a filtered page,
and prints for each the median server time (from the request entering Django's handler to the
response leaving it) over a number of requests, and the number of database queries.
It exits with status 1 when a median is over its budget.
"""

import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.move_request import setup_django, timed_client  # noqa: E402

GAMES = 10_000
PLAYING = 20
#: Each page is requested this many times (after one warm-up request); the median counts.
REQUESTS = 15
#: Budget of each page's median server time (ms).
BUDGET_MS = 300
SEED = 20261129


def fill(rng: random.Random):
    """One player with GAMES finished games and PLAYING in progress; the player."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Game
    from games.rules import VARIANTS, first_position

    user = get_user_model().objects.create_user("bench", password="bench-only-password")
    snapshots = {v: first_position(variant, 1).text() for v, variant in VARIANTS.items()}
    kinds = list(VARIANTS)
    now = timezone.now()
    games = []
    for n in range(GAMES + PLAYING):
        variant = kinds[n % len(kinds)]
        finished = n < GAMES
        status = rng.choices(["won", "given-up", "stuck"], [4, 4, 2])[0] if finished else "playing"
        begun = now - timedelta(days=365) * (1 - n / (GAMES + PLAYING)) - timedelta(minutes=30)
        seconds = rng.randrange(60, 3600)
        games.append(
            Game(
                owner=user,
                variant=variant,
                deal=str(rng.randrange(1, 1_000_000)),
                status=status,
                created_at=begun,
                first_move_at=begun,
                finished_at=begun + timedelta(seconds=seconds) if finished else None,
                updated_at=begun + timedelta(seconds=seconds),
                milliseconds_played=seconds * 1000,
                move_count=rng.randrange(50, 900),
                ply=rng.randrange(50, 600),
                undo_count=rng.choice([0, 0, 0, 1, 5]),
                snapshot=snapshots[variant],
            )
        )
    Game.objects.bulk_create(games, batch_size=1000)
    return user


def measure(client, path: str) -> tuple[float, int, int]:
    """The median server time (ms), the queries and the status code of GET ``path``."""
    from django.db import connection

    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        status = client.get(path).status_code
    times = []
    for _ in range(REQUESTS):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        times.append(client.handler.seconds * 1000)
    return statistics.median(times), len(queries), status


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="stats-bench-") as folder:
        setup_django(Path(folder) / "bench.sqlite3")
        start = time.perf_counter()
        user = fill(random.Random(SEED))
        took = time.perf_counter() - start
        print(f"Filled one player with {GAMES:,} finished games in {took:.1f} s")
        client = timed_client()
        client.force_login(user)
        middle = (GAMES + PLAYING) // 50 // 2
        pages = [
            ("statistics, all games", "/my/statistics/"),
            ("statistics, Lucas", "/my/statistics/lucas/"),
            ("history, first page", "/my/history/"),
            (f"history, page {middle}", f"/my/history/?page={middle}"),
            ("history, Maria, won, page 5", "/my/history/?game=maria&result=won&page=5"),
        ]
        over = False
        print(f"Median server time of {REQUESTS} requests each:")
        for name, path in pages:
            median, queries, status = measure(client, path)
            over |= median > BUDGET_MS
            print(f"  {name:30} {median:7.1f} ms   {queries:2} queries   (status {status})")
        from django.db import connection

        connection.close()
    if over:
        print(f"Over budget: a page took more than {BUDGET_MS} ms (median).")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
