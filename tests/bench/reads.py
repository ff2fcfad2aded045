"""A game read whole against its version alone, alternated in one process: run it as
`.venv/bin/python tests/bench/reads.py [--runs N]`.

An open game page polls every few seconds, and while nothing changed the poll needs only the
game's version (games/web/play.py, ``poll``). This sets Django up as
tests/bench/move_request.py does (a temporary SQLite file, debug off), plays its warm-up games,
then times ``game_of`` of games/selectors/games.py (the game read whole through the ORM, as a
page reads it) and ``version_of`` (its version alone) on those games, in turns, with a request
to ``/healthz/`` between any two reads so that each read finds the caches as a request leaves
them. Printed for each run: both medians (µs) and their ratio.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import move_request  # noqa: E402

#: Each run reads each game this many times each way.
READS = 60


def one_run(client, games) -> tuple[float, float]:
    from games.owners import Owner
    from games.selectors.games import game_of, version_of

    whole: list[int] = []
    version: list[int] = []
    for turn in range(READS):
        for game in games:
            owner = Owner(None, game.session_key)
            reads = [(whole, game_of), (version, version_of)]
            if turn % 2:
                reads.reverse()
            for times, read in reads:
                client.get("/healthz/")
                start = time.perf_counter_ns()
                read(owner, game.public_id)
                times.append(time.perf_counter_ns() - start)
    return statistics.median(whole) / 1000, statistics.median(version) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs in turn (3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reads-bench-") as folder:
        move_request.setup_django(Path(folder) / "bench.sqlite3")
        client = move_request.timed_client()
        move_request.warm_up(client)
        from games.models import Game

        games = list(Game.objects.order_by("pk")[: len(move_request.GAMES)])
        for run in range(1, args.runs + 1):
            whole, version = one_run(client, games)
            print(
                f"run {run}: the game whole {whole:6.0f} µs   its version {version:6.0f} µs   "
                f"ratio {version / whole:.2f}"
            )


if __name__ == "__main__":
    main()
