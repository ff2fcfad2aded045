"""Two web servers side by side, under the same players in turns: run it as
`.venv/bin/python tests/bench/servers.py [--before gunicorn] [--now granian] [--players 50]
[--think MS] [--seconds 60] [--slices 12] [--balancer]`.

``--before`` and ``--now`` each name a server (``WEB_SERVER``, which bin/web reads: gunicorn
or granian) and, after commas, settings of its environment: ``gunicorn,WEB_THREADS=4``.
Each server is started as
tests/bench/loadtest.py starts one (``bin/serve``: the release, the supervisor, the task
workers; PostgreSQL and Redis on this machine; no access log; with ``--balancer``, HAProxy in
front as ``make serve`` runs it), each with a database of its
own (``solitaire_servers_before``, ``solitaire_servers_now``, made afresh). Two crowds of the
same players (the same seeds: the same games, the same moves, as far as each server's
answers allow) play, one against each server, in turns: a slice against one while the other
crowd waits, then a slice against the other, ``--slices`` pairs in all, the first server of a
pair swapped each time. A busy moment of the machine (another job, the host) then falls on
both alike, which two runs minutes apart cannot promise on a machine whose speed drifts by a
tenth or more.

Printed for each: requests, moves a second, move p50 and p95, and the CPU its processes used
per request (the web server's master, workers and threads, with the supervisor; not the task
workers, nor PostgreSQL or Redis, which are counted apart); and the ratio of the two CPU
figures, now / before. docs/performance.md quotes it.
"""

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadtest import (
    DRAIN,
    CpuMeter,
    Player,
    Run,
    Server,
    free_port,
    fresh_database,
    percentile,
)


class NamedServer(Server):
    """loadtest.py's server, run by ``WEB_SERVER`` on a database of its own."""

    def __init__(
        self, spec: str, database: str, folder: Path, threads: int | None, balancer: bool
    ) -> None:
        workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
        super().__init__(free_port(), workers, threads, folder)
        if balancer:
            self.behind_balancer()
        server, *settings = spec.split(",")
        self.name = spec
        self.database = database
        self.env["WEB_SERVER"] = server
        self.env.update(setting.split("=", 1) for setting in settings)
        self.env["DATABASE_URL"] = fresh_database(database)


async def crowd(ctx: Run, players: int) -> list[asyncio.Task]:
    return [asyncio.create_task(Player(i, ctx).run()) for i in range(players)]


async def drain(ctx: Run) -> None:
    deadline = asyncio.get_running_loop().time() + DRAIN
    while ctx.in_flight and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.001)


async def measure(servers: list[NamedServer], args) -> dict[str, dict]:
    contexts = {}
    for server in servers:
        ctx = Run("127.0.0.1", server.port, args.seed, args.think / 1000)
        ctx.database = server.database
        contexts[server.name] = ctx
    tasks = [t for ctx in contexts.values() for t in await crowd(ctx, args.players)]
    # A first slice each, not counted: sessions, first games, the servers' caches.
    for server in servers:
        ctx = contexts[server.name]
        ctx.go.set()
        await asyncio.sleep(args.seconds / args.slices / 2)
        ctx.go.clear()
        await drain(ctx)
        ctx.stats.since_arrival()
    used = {server.name: {"server": 0.0, "wall": 0.0} for server in servers}
    for n in range(args.slices):
        for server in servers if n % 2 == 0 else servers[::-1]:
            ctx = contexts[server.name]
            meter = CpuMeter(server.process.pid, server.database)
            start = asyncio.get_running_loop().time()
            ctx.go.set()
            await asyncio.sleep(args.seconds / args.slices / 2)
            ctx.go.clear()
            await drain(ctx)
            spent = meter.stop()
            used[server.name]["server"] += spent["server"]
            used[server.name]["wall"] += asyncio.get_running_loop().time() - start
    for ctx in contexts.values():
        ctx.done = True
        ctx.go.set()
    await asyncio.wait(tasks, timeout=DRAIN)
    for task in tasks:
        task.cancel()
    figures = {}
    for name, ctx in contexts.items():
        stats = ctx.stats
        requests = sum(stats.counts.values())
        moves = stats.latencies.get("move", [])
        figures[name] = {
            "requests": requests,
            "moves/s": len(moves) / used[name]["wall"] if used[name]["wall"] else 0.0,
            "move p50": percentile(moves, 0.5) * 1000,
            "move p95": percentile(moves, 0.95) * 1000,
            "cpu/request": used[name]["server"] / requests * 1000 if requests else float("nan"),
            "errors": len(stats.errors),
        }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="gunicorn", help="a server and settings (gunicorn)")
    parser.add_argument("--now", default="granian", help="a server and settings (granian)")
    parser.add_argument("--players", type=int, default=50, help="players in each crowd (50)")
    parser.add_argument("--think", type=float, default=0.0, help="ms a player pauses (0)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play, both (60)")
    parser.add_argument("--slices", type=int, default=12, help="pairs of slices (12)")
    parser.add_argument("--threads", type=int, help="threads per worker (the default, 8)")
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument(
        "--balancer",
        action="store_true",
        help="HAProxy in front of each server, as make serve runs it (deploy/haproxy.cfg)",
    )
    args = parser.parse_args()
    if args.before == args.now:
        parser.error("--before and --now name the same server and settings")
    with tempfile.TemporaryDirectory() as folder:
        servers = []
        try:
            for label, name in (("before", args.before), ("now", args.now)):
                place = Path(folder) / label
                place.mkdir()
                server = NamedServer(
                    name, f"solitaire_servers_{label}", place, args.threads, args.balancer
                )
                server.start()
                server.wait_ready()
                servers.append(server)
            figures = asyncio.run(measure(servers, args))
        finally:
            for server in servers:
                server.stop()
    print(
        f"{args.players} players against each, {args.think:.0f} ms pauses, {args.slices} pairs"
        + (", each server behind HAProxy" if args.balancer else "")
    )
    for name, f in figures.items():
        print(
            f"  {name:20s} {f['requests']:7d} requests  {f['moves/s']:6.1f} moves/s  "
            f"move p50 {f['move p50']:7.1f} ms  p95 {f['move p95']:7.1f} ms  "
            f"CPU/request {f['cpu/request']:.3f} ms  errors {f['errors']}"
        )
    before, now = figures[args.before]["cpu/request"], figures[args.now]["cpu/request"]
    print(f"  CPU per request, now / before: {now / before:.3f}")
    return 1 if any(f["errors"] for f in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
