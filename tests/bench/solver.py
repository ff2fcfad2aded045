"""Benchmark of the solver, per game: `make bench-solver`, or by hand

    .venv/bin/python tests/bench/solver.py --seconds 2 --count 50 --start 1 [--games a,b]

For each game, deals start..start+count-1 are solved at S seconds each, in a pool of worker
processes (2 by default, one per core: each deal still gets its own S seconds of one core).
The table gives the won / lost / unknown counts, the median time to a win, the nodes expanded
per second, and the peak memory of a worker (its maximum resident set size; the pool is made
afresh for each game, so the figure is that game's).
"""

import argparse
import resource
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules import VARIANTS, first_position
from games.rules.solver import solve


def solve_deal(args: tuple[str, int, float]) -> tuple[int, str, int, float, float, int]:
    game, number, seconds = args
    result = solve(first_position(VARIANTS[game], number), seconds=seconds)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return number, result.status, result.nodes, result.seconds, peak_kb / 1024, len(result.moves)


def bench_game(game: str, start: int, count: int, seconds: float, jobs: int) -> dict:
    work = [(game, n, seconds) for n in range(start, start + count)]
    began = time.perf_counter()
    with Pool(jobs) as pool:
        results = pool.map(solve_deal, work, chunksize=1)
    wall = time.perf_counter() - began
    wins = [r for r in results if r[1] == "won"]
    nodes = sum(r[2] for r in results)
    busy = sum(r[3] for r in results)
    return {
        "game": game,
        "won": len(wins),
        "lost": sum(1 for r in results if r[1] == "lost"),
        "unknown": sum(1 for r in results if r[1] == "unknown"),
        "median_win": statistics.median(r[3] for r in wins) if wins else None,
        "nps": nodes / busy if busy else 0.0,
        "peak_mb": max(r[4] for r in results),
        "wall": wall,
        "won_deals": [r[0] for r in wins],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--games", default=",".join(VARIANTS))
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--deals", action="store_true", help="also list the deals won")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in VARIANTS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    print(
        f"solver: deals {args.start}..{args.start + args.count - 1}, "
        f"{args.seconds:g} s each, {args.jobs} processes"
    )
    header = (
        f"{'game':<15}{'won':>5}{'lost':>6}{'unknown':>9}{'win %':>7}"
        f"{'median s/win':>14}{'nodes/s':>10}{'peak MB':>9}{'wall s':>8}"
    )
    print(header)
    print("-" * len(header))
    totals = [0, 0, 0]
    for game in games:
        row = bench_game(game, args.start, args.count, args.seconds, args.jobs)
        totals[0] += row["won"]
        totals[1] += row["lost"]
        totals[2] += row["unknown"]
        median = "-" if row["median_win"] is None else f"{row['median_win']:.2f}"
        print(
            f"{game:<15}{row['won']:>5}{row['lost']:>6}{row['unknown']:>9}"
            f"{100 * row['won'] / args.count:>6.0f}%{median:>14}{row['nps']:>10.0f}"
            f"{row['peak_mb']:>9.0f}{row['wall']:>8.0f}",
            flush=True,
        )
        if args.deals and row["won_deals"]:
            print(f"{'':<15}won: {' '.join(map(str, row['won_deals']))}", flush=True)
    print("-" * len(header))
    print(f"{'all':<15}{totals[0]:>5}{totals[1]:>6}{totals[2]:>9}")


if __name__ == "__main__":
    main()
