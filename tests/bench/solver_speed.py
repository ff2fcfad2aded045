"""Positions per second of the solver, the working tree's beside an earlier revision's, on the
same deals with the same number of positions:

    .venv/bin/python tests/bench/solver_speed.py [--ref REF] [--games a,b] [--deals 9001,9002]
        [--nodes 20000]

Each deal is solved with ``max_nodes`` and no time limit, so both solvers search the same
positions when they order them alike: the answers (status, positions, moves) are compared and
any difference is printed. For each game the earlier solver and then the working tree's solve
the deals in one worker process each (one core), and the table gives positions per second and
the wall seconds. Run it under the lock when the figures are to be quoted.
"""

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _init_worker(root: str) -> None:
    sys.path.insert(0, root)


def solve_deal(args: tuple[str, int, int]) -> dict:
    from games.rules import VARIANTS, first_position
    from games.rules.solver import solve

    game, number, nodes = args
    position = first_position(VARIANTS[game], number)
    began = time.perf_counter()
    result = solve(position, seconds=None, max_nodes=nodes)
    return {
        "deal": number,
        "status": result.status,
        "nodes": result.nodes,
        "moves": [str(m) for m in result.moves],
        "seconds": time.perf_counter() - began,
    }


def run(root: Path, game: str, deals: list[int], nodes: int) -> list[dict]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1, initializer=_init_worker, initargs=(str(root),)) as pool:
        # A first small solve loads the modules before the clock starts.
        pool.map(solve_deal, [(game, deals[0], 100)])
        return pool.map(solve_deal, [(game, n, nodes) for n in deals])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="the git revision to compare with")
    parser.add_argument("--games", default="")
    parser.add_argument("--deals", default="9001,9002,9003")
    parser.add_argument("--nodes", type=int, default=20000)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from games.rules import VARIANTS
    from tests.bench.solver import baseline_tree

    games = [g.strip() for g in args.games.split(",") if g.strip()] or list(VARIANTS)
    deals = [int(d) for d in args.deals.split(",")]
    commit, tree = baseline_tree(args.ref)
    print(f"base: the solver of commit {commit[:12]}; new: the working tree's")
    print(f"deals {', '.join(map(str, deals))}, {args.nodes} positions each, one process")
    header = f"{'game':<15}{'base pos/s':>11}{'new pos/s':>11}{'ratio':>7}{'base s':>8}{'new s':>8}"
    print(header)
    print("-" * len(header), flush=True)
    totals = [0, 0.0, 0, 0.0]
    differ = []
    for game in games:
        base = run(tree, game, deals, args.nodes)
        new = run(ROOT, game, deals, args.nodes)
        bn, bs = sum(r["nodes"] for r in base), sum(r["seconds"] for r in base)
        nn, ns = sum(r["nodes"] for r in new), sum(r["seconds"] for r in new)
        totals = [totals[0] + bn, totals[1] + bs, totals[2] + nn, totals[3] + ns]
        print(
            f"{game:<15}{bn / bs:>11.0f}{nn / ns:>11.0f}{(nn / ns) / (bn / bs):>7.2f}"
            f"{bs:>8.1f}{ns:>8.1f}",
            flush=True,
        )
        for b, n in zip(base, new, strict=True):
            if (b["status"], b["nodes"], b["moves"]) != (n["status"], n["nodes"], n["moves"]):
                differ.append(
                    f"{game} {b['deal']}: base {b['status']} in {b['nodes']}, "
                    f"new {n['status']} in {n['nodes']}"
                )
    print("-" * len(header))
    bn, bs, nn, ns = totals
    print(
        f"{'all':<15}{bn / bs:>11.0f}{nn / ns:>11.0f}{(nn / ns) / (bn / bs):>7.2f}"
        f"{bs:>8.1f}{ns:>8.1f}"
    )
    print("answers differ:" if differ else "the answers are the same")
    for line in differ:
        print("  " + line)


if __name__ == "__main__":
    main()
