"""Benchmark of the solver, per game, beside an earlier version of it: `make bench-solver`, or

    .venv/bin/python tests/bench/solver.py --seconds 10 --count 30 --start 9001 \\
        [--games a,b] [--baseline REF | --no-baseline] [--only baseline|new] [--deals]

For each game, deals start..start+count-1 are solved at S seconds each, in a pool of worker
processes (2 by default, one per core: each deal still gets its own S seconds of one core), by
the solver of the working tree ("new") and by the solver of git revision REF ("base": its
``games/rules`` taken with ``git archive`` into test-artifacts/bench-solver/). The table gives
per game the won / lost / unknown counts, the median time to a win, the positions expanded per
second, the peak memory of a worker (its maximum resident set size; a pool is made afresh for
each game, so the figure is that game's), and the machine's load average when the game was
solved: the budget is wall-clock seconds, so a loaded machine gives fewer positions.

The earlier version's answers never change for the same deal and seconds: they are kept in
tests/bench/solver-baseline-<commit>.json, committed with the bench, and read back instead of
solved again (the output says how many). For another revision or other deals, run ``--only
baseline`` first (say with ``nice``) to fill that file, and the whole command later. Every win
either solver returns has been replayed by the engine.
"""

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "bench-solver"
#: The earlier solvers' answers, one file per commit, kept beside this script.
KEPT = Path(__file__).resolve().parent
#: The solver as it stood before the portfolio's depth-first line and the proofs of loss.
DEFAULT_BASELINE = "c118b78"


def _init_worker(root: str) -> None:
    sys.path.insert(0, root)


def solve_deal(args: tuple[str, int, float]) -> dict:
    """Solve one deal in this worker, with the solver on its sys.path."""
    from games.rules import VARIANTS, first_position
    from games.rules.solver import solve

    game, number, seconds = args
    result = solve(first_position(VARIANTS[game], number), seconds=seconds)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "game": game,
        "deal": number,
        "seconds_given": seconds,
        "status": result.status,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "peak_mb": peak_kb / 1024,
        "moves": len(result.moves),
    }


def baseline_tree(ref: str) -> tuple[str, Path]:
    """The full commit of ``ref`` and a directory holding its ``games`` package's rules."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = ARTIFACTS / f"tree-{commit[:12]}"
    if not (tree / "games" / "rules" / "solver").is_dir():
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit, "games/__init__.py", "games/rules"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        tree.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
    return commit, tree


class Store:
    """The earlier solver's answers, kept per (game, deal, seconds) in a JSON file."""

    def __init__(self, path: Path, read: bool = True):
        self.path = path
        self.read = read
        self.data: dict[str, dict] = {}
        if read and path.exists():
            self.data = json.loads(path.read_text())

    @staticmethod
    def key(game: str, deal: int, seconds: float) -> str:
        return f"{game}:{deal}:{seconds:g}"

    def get(self, game: str, deal: int, seconds: float) -> dict | None:
        return self.data.get(self.key(game, deal, seconds)) if self.read else None

    def put(self, row: dict) -> None:
        self.data[self.key(row["game"], row["deal"], row["seconds_given"])] = row
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=0, sort_keys=True))
        os.replace(tmp, self.path)


def run_game(
    game: str, deals: list[int], seconds: float, jobs: int, root: Path, store: Store | None
) -> tuple[list[dict], int]:
    """Every deal's answer for one game (from the store when it has it), and how many were
    read from the store."""
    rows = []
    todo = []
    for n in deals:
        kept = store.get(game, n, seconds) if store else None
        if kept is None:
            todo.append((game, n, seconds))
        else:
            rows.append(kept)
    reused = len(rows)
    if todo:
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs, initializer=_init_worker, initargs=(str(root),)) as pool:
            for row in pool.imap_unordered(solve_deal, todo):
                rows.append(row)
                if store is not None:
                    store.put(row)
    rows.sort(key=lambda r: r["deal"])
    return rows, reused


def summary(rows: list[dict]) -> dict:
    wins = [r for r in rows if r["status"] == "won"]
    nodes = sum(r["nodes"] for r in rows)
    busy = sum(r["seconds"] for r in rows)
    return {
        "won": len(wins),
        "lost": sum(1 for r in rows if r["status"] == "lost"),
        "unknown": sum(1 for r in rows if r["status"] == "unknown"),
        "median_win": statistics.median(r["seconds"] for r in wins) if wins else None,
        "nps": nodes / busy if busy else 0.0,
        "peak_mb": max((r["peak_mb"] for r in rows), default=0.0),
        "won_deals": [r["deal"] for r in wins],
        "lost_deals": [r["deal"] for r in rows if r["status"] == "lost"],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--start", type=int, default=9001)
    parser.add_argument("--games", default="")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--deals", action="store_true", help="also list the deals won and lost")
    parser.add_argument(
        "--baseline", default=DEFAULT_BASELINE, help="the git revision to compare with"
    )
    parser.add_argument("--no-baseline", action="store_true", help="the working tree alone")
    parser.add_argument("--only", choices=("baseline", "new"), help="run one of the two only")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from games.rules import VARIANTS

    games = [g.strip() for g in args.games.split(",") if g.strip()] or list(VARIANTS)
    unknown = [g for g in games if g not in VARIANTS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    deals = list(range(args.start, args.start + args.count))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    lines = []  # (label, root, store)
    if not args.no_baseline and args.only != "new":
        commit, tree = baseline_tree(args.baseline)
        store = Store(KEPT / f"solver-baseline-{commit[:12]}.json")
        lines.append((f"base {commit[:7]}", tree, store))
        print(f"base: the solver of commit {commit[:12]}, answers kept in {store.path}")
    if args.only != "baseline":
        # The working tree's answers are written out for a look, never read back.
        latest = Store(ARTIFACTS / "results-working-tree.json", read=False)
        lines.append(("new", ROOT, latest))
        print(f"new: the solver of the working tree, answers written to {latest.path}")
    print(
        f"deals {args.start}..{args.start + args.count - 1}, "
        f"{args.seconds:g} s each, {args.jobs} processes"
    )
    header = (
        f"{'game':<15}{'solver':<13}{'won':>4}{'lost':>5}{'unkn':>5}{'win %':>7}"
        f"{'median s/win':>13}{'pos/s':>8}{'peak MB':>8}{'wall s':>7}{'load':>6}"
    )
    print(header)
    print("-" * len(header), flush=True)
    totals = {label: [0, 0, 0] for label, _, _ in lines}
    for game in games:
        for label, root, store in lines:
            began = time.perf_counter()
            rows, reused = run_game(game, deals, args.seconds, args.jobs, root, store)
            wall = time.perf_counter() - began
            # The machine's load over the last minute (when solved here): the seconds per deal
            # are wall-clock seconds, so other work on the machine costs positions.
            load = f"{os.getloadavg()[0]:>6.1f}" if reused < len(deals) else f"{'-':>6}"
            row = summary(rows)
            for i, k in enumerate(("won", "lost", "unknown")):
                totals[label][i] += row[k]
            median = "-" if row["median_win"] is None else f"{row['median_win']:.2f}"
            kept = f"  ({reused} kept)" if reused else ""
            print(
                f"{game:<15}{label:<13}{row['won']:>4}{row['lost']:>5}{row['unknown']:>5}"
                f"{100 * row['won'] / len(deals):>6.0f}%{median:>13}{row['nps']:>8.0f}"
                f"{row['peak_mb']:>8.0f}{wall:>7.0f}{load}{kept}",
                flush=True,
            )
            if args.deals:
                if row["won_deals"]:
                    print(f"{'':<28}won: {' '.join(map(str, row['won_deals']))}")
                if row["lost_deals"]:
                    print(f"{'':<28}lost: {' '.join(map(str, row['lost_deals']))}")
    print("-" * len(header))
    for label, (won, lost, unknown_) in totals.items():
        print(f"{'all':<15}{label:<13}{won:>4}{lost:>5}{unknown_:>5}")


if __name__ == "__main__":
    main()
