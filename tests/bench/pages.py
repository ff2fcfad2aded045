"""The server's CPU for each page players open most, this checkout beside an earlier version,
in one run:

    .venv/bin/python tests/bench/pages.py REV [--steps 150] [--pairs 1] [--postgres]

REV is a git revision or a folder holding another checkout (as for tests/bench/side_by_side.py,
whose ``tree_of`` unpacks a revision). Two harness processes, one on each version, each on its
own SQLite file (``--postgres``: a PostgreSQL database of its own), set Django up as in
production (debug off) and make, at each step, one request of each kind below as one guest in
turn in the five languages, with Django's test Client; the two sides take their steps in
turn, the order swapped at each step, so that the machine's drift falls on both. Printed for
each kind: the median CPU time of the request thread (ms) on both sides, and their ratio.

The kinds: the home page, a new game (the form's POST, answered with a redirect), a game
opened as a page whose script runs opens it (the form's POST, and today's deal's link
``/daily/lucas/``, resumed: the answer, plus the game page when the answer is a redirect to
it, so that a version answering in one request and one answering in two compare), the game
page, its board alone (as htmx asks after a reload), the catch-up's question while nothing
changed, the daily page, a day's leaderboard, a game's rules, a shared game's page, and the
trivial ``/healthz/`` (what any request costs).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
LANGUAGES = ["en", "fr", "nl", "pl", "vi"]
KINDS = [
    "home",
    "new game",
    "game opened",
    "today's game",
    "game page",
    "board",
    "poll",
    "daily",
    "leaderboard",
    "rules",
    "shared page",
    "healthz",
]


def harness(root: Path) -> None:
    """One version's side: a request of each kind each time a line comes on standard input,
    and their CPU times (ms) as one line of JSON."""
    os.chdir(root)
    folder = Path(tempfile.mkdtemp(prefix="pages-bench-"))
    sys.path.insert(0, str(HERE.parent))
    sys.argv += ["--root", str(root)]  # move_request.py puts the checkout first on the path
    from move_request import setup_django, start, timed_client

    if "DATABASE_URL" not in os.environ:
        os.environ["SQLITE_PATH"] = str(folder / "bench.sqlite3")
    setup_django(folder / "bench.sqlite3")
    from django.conf import settings

    # One guest makes every request: the per-address limits would refuse most of them.
    settings.LIMITS = {name: (10**9, window) for name, (_n, window) in settings.LIMITS.items()}
    client = timed_client()
    import solitaire

    print("serving", Path(solitaire.__file__).parent.parent, file=sys.stderr)
    client.get("/en/")
    game = start(client, "forty-thieves", 7)
    shared = client.post(f"/g/{game.public_id}/share/")
    shared_url = shared["Location"]
    day = client.get("/daily/")
    leaderboard = f"/daily/streets/{time.strftime('%Y-%m-%d', time.gmtime())}/"
    assert day.status_code == 200, day.status_code
    urls = {
        "game page": f"/g/{game.public_id}/",
        "board": f"/g/{game.public_id}/",
        "poll": f"/g/{game.public_id}/poll/?ply={game.ply}&version={game.version}",
        "daily": "/daily/",
        "leaderboard": leaderboard,
        "shared page": shared_url,
        "healthz": "/healthz/",
    }

    # New games are another guest's: the first one's home page lists one game in progress.
    starter = timed_client()
    starter.get("/en/")

    def cpu(method, url, *args, **kwargs) -> float:
        response = method(url, *args, **kwargs)
        assert response.status_code in (200, 204, 302), (url, response.status_code)
        return method.__self__.handler.cpu * 1000

    def opened(method, url, *args) -> float:
        """A game opened: the answer, and the page a redirect leads to (a second request)."""
        response = method(url, *args)
        assert response.status_code in (200, 302), (url, response.status_code)
        spent = method.__self__.handler.cpu * 1000
        if response.status_code == 302:
            spent += cpu(method.__self__.get, response["Location"])
        return spent

    def step(n: int) -> dict[str, float]:
        lang = LANGUAGES[n % len(LANGUAGES)]
        client.cookies["django_language"] = starter.cookies["django_language"] = lang
        return {
            "home": cpu(client.get, f"/{lang}/"),
            "new game": cpu(starter.post, "/new/", {"variant": "maria", "deal": str(n + 1)}),
            "game opened": opened(
                starter.post, "/new/", {"variant": "maria", "deal": str(n + 1), "answer": "page"}
            ),
            "today's game": opened(client.get, "/daily/lucas/"),
            "game page": cpu(client.get, urls["game page"]),
            "board": cpu(client.get, urls["board"], headers={"HX-Request": "true"}),
            "poll": cpu(client.get, urls["poll"], headers={"HX-Request": "true"}),
            "daily": cpu(client.get, urls["daily"]),
            "leaderboard": cpu(client.get, urls["leaderboard"]),
            "rules": cpu(client.get, f"/{lang}/rules/streets/"),
            "shared page": cpu(client.get, urls["shared page"]),
            "healthz": cpu(client.get, urls["healthz"]),
        }

    for n in range(10):  # warm-up: imports, templates, caches, each language once
        step(n)
    print("ready", flush=True)
    for n, _line in enumerate(sys.stdin):
        print(json.dumps(step(n)), flush=True)


class Side:
    def __init__(self, name: str, root: Path, postgres: bool) -> None:
        self.name = name
        env = dict(os.environ)
        env.pop("DATABASE_URL", None)
        if postgres:
            sys.path.insert(0, str(HERE.parent))
            from loadtest import fresh_database

            env["DATABASE_URL"] = fresh_database(f"pages_bench_{name}")
        self.process = subprocess.Popen(
            [sys.executable, str(HERE), "--harness", str(root)],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
        while (line := self.process.stdout.readline()) and line.strip() != "ready":
            pass
        if not line:
            raise SystemExit(f"{name}: the harness stopped before it was ready")

    def step(self) -> None:
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        for kind, ms in json.loads(self.process.stdout.readline()).items():
            self.cpu[kind].append(ms)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def one_run(before: Path, now: Path, steps: int, postgres: bool) -> dict[str, float]:
    sides = [Side("now", now, postgres), Side("before", before, postgres)]
    for n in range(steps):
        for side in sides if n % 2 == 0 else reversed(sides):
            side.step()
    for side in sides:
        side.close()
    now_side, before_side = sides
    ratios = {}
    print(f"  {'request':12} {'before':>9} {'now':>9}   now / before (median CPU, ms)")
    for kind in KINDS:
        b = statistics.median(before_side.cpu[kind])
        n = statistics.median(now_side.cpu[kind])
        ratios[kind] = n / b
        print(f"  {kind:12} {b:9.3f} {n:9.3f}   {n / b:.3f}")
    return ratios


def main() -> None:
    if "--harness" in sys.argv:
        harness(Path(sys.argv[sys.argv.index("--harness") + 1]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="a git revision, or a folder holding another checkout")
    parser.add_argument("--now", default=str(ROOT), help="a folder in the place of this one")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--pairs", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    from side_by_side import tree_of

    before = Path(args.before) if Path(args.before).is_dir() else tree_of(args.before)
    runs = []
    for n in range(args.pairs):
        print(f"run {n + 1} of {args.pairs}: {before} against {args.now}")
        runs.append(one_run(before, Path(args.now), args.steps, args.postgres))
    if args.pairs > 1:
        print("median ratio of each request over the runs:")
        for kind in KINDS:
            ratios = [run[kind] for run in runs]
            each = ", ".join(f"{r:.3f}" for r in ratios)
            print(f"  {kind:12} {statistics.median(ratios):.3f}  ({each})")


if __name__ == "__main__":
    main()
