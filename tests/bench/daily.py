"""The day's leaderboard page and a shared game's image, one client and several at once: run it
as `.venv/bin/python tests/bench/daily.py [--wins N] [--requests N] [--threads N]`.

Django is set up as tests/bench/move_request.py does (a temporary SQLite file, debug off).
Today's Lucas deal gets ``--wins`` ranked wins (every tenth player with a public name), then:

- the leaderboard page (``/daily/lucas/<today>/``) read by a stranger and by the player ranked
  last (whose own row is shown apart, below the top 50): the server's time per request, one
  client, then ``--threads`` clients at once (each its own test client and connection);
- a shared game's board as a PNG (``/s/<token>/board.png``): drawn each time (the cache
  emptied before each request: the first request of a link or a new move), then from the cache,
  one client and several at once.

Printed: median and 90th percentile (ms) and, at once, requests per second overall. The rate
limits are raised for the run (one address asks everything).
"""

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import move_request  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def line(name: str, times: list[float], seconds: float | None = None) -> str:
    median, p90 = statistics.median(times), percentile(times, 0.9)
    shown = f"{name:44} median {median:6.2f} ms   p90 {p90:6.2f} ms"
    if seconds is not None:
        shown += f"   {len(times) / seconds:7.0f} requests/s"
    return shown


def fill_leaderboard(wins: int):
    """Today's Lucas deal with ``wins`` ranked wins; the last-ranked player's client."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.days import today
    from games.models import DailyGame, Game
    from games.rules import first_position, get_variant
    from games.services import daily
    from solitaire.accounts.models import Preferences

    deal = daily.daily_deal("lucas", today())
    snapshot = first_position(get_variant("lucas"), int(deal.deal)).text()
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"player{n}") for n in range(wins)]
    )
    Preferences.objects.bulk_create(
        [Preferences(user=u, public_name=f"Player {n}") for n, u in enumerate(users) if n % 10 == 0]
    )
    now = timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(
                owner=user,
                variant="lucas",
                deal=deal.deal,
                snapshot=snapshot,
                status=Game.Status.WON,
                ply=100 + n,
                milliseconds_played=60_000 + n,
                undo_count=n % 3,
                finished_at=now,
            )
            for n, user in enumerate(users)
        ]
    )
    DailyGame.objects.bulk_create([DailyGame(daily=deal, game=game) for game in games])
    last = users[-1]
    last.set_password("bench-password")
    last.save()
    return deal


def timed(client, path: str, before=None) -> float:
    if before is not None:
        before()
    client.get(path)
    return client.handler.seconds * 1000


def at_once(paths: list[str], threads: int, requests: int, make_client, before=None):
    """``requests`` GETs of each of ``threads`` clients at once; (times in ms, seconds)."""
    times: list[float] = []
    lock = threading.Lock()
    start_line = threading.Barrier(threads)

    def run(n: int) -> None:
        from django.db import connection

        client = make_client(n)
        start_line.wait()
        mine = [timed(client, paths[n % len(paths)], before) for _ in range(requests)]
        connection.close()
        with lock:
            times.extend(mine)

    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return times, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wins", type=int, default=500, help="ranked wins (500)")
    parser.add_argument("--requests", type=int, default=100, help="per client (100)")
    parser.add_argument("--threads", type=int, default=4, help="clients at once (4)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="daily-bench-") as folder:
        move_request.setup_django(Path(folder) / "bench.sqlite3")
        from django.conf import settings
        from django.core.cache import cache
        from django.urls import reverse

        from games.models import Game, SharedGame

        settings.LIMITS = {name: (10**9, 60) for name in settings.LIMITS}
        deal = fill_leaderboard(args.wins)
        board = reverse("games:daily_day", args=["lucas", deal.day])

        def client_of(n: int):
            client = move_request.timed_client()
            if n % 2:
                client.login(username=f"player{args.wins - 1}", password="bench-password")
            return client

        stranger, last = client_of(0), client_of(1)
        for client in (stranger, last):
            client.get(board)  # warm
        print(f"{args.wins} ranked wins, SQLite, {args.threads} clients at once")
        print(
            line("leaderboard, a stranger", [timed(stranger, board) for _ in range(args.requests)])
        )
        own = [timed(last, board) for _ in range(args.requests)]
        print(line("leaderboard, the last-ranked player", own))
        times, seconds = at_once([board], args.threads, args.requests, client_of)
        print(line("leaderboard, at once", times, seconds))

        game = Game.objects.filter(variant="lucas").first()
        link = SharedGame.objects.create(game=game)
        image = reverse("games:shared_image", args=[link.token])
        stranger.get(image)
        drawn = [timed(stranger, image, cache.clear) for _ in range(args.requests // 2)]
        print(line("share image, drawn (first request)", drawn))
        cached = [timed(stranger, image) for _ in range(args.requests)]
        print(line("share image, cached", cached))
        times, seconds = at_once([image], args.threads, args.requests, client_of)
        print(line("share image, cached, at once", times, seconds))
        times, seconds = at_once(
            [image], args.threads, args.requests // 4, client_of, before=cache.clear
        )
        print(line("share image, drawn, at once", times, seconds))
        size = len(stranger.get(image).content)
        print(f"image: {size} bytes")


if __name__ == "__main__":
    main()
