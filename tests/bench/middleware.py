"""What each middleware costs a request: run it as
`.venv/bin/python tests/bench/middleware.py [--root CHECKOUT] [--requests N] [--reps N]`.

Every request pays for the whole middleware stack before its view runs; a move pays it too.
This sets Django up as tests/bench/move_request.py does (a temporary SQLite file, debug off)
and times GET /healthz/ (a view that reads nothing) through Django's handler, the test
client's own work left out, with settings.MIDDLEWARE as it is, then without each middleware
in turn (the session's is kept: authentication needs it), then with none. The variants are
measured in turns, ``--reps`` times over, and each one's best median counts, so that the
machine's drift falls on all alike. Printed: each variant's median (µs) and what taking that
middleware out saves.

``--root CHECKOUT`` measures another checkout (an earlier commit's tree, as
tests/bench/side_by_side.py unpacks them): the stack of 0d81277 had five middlewares fewer.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import move_request  # noqa: E402 (sets the checkout's path from --root)

#: A middleware the others need: never taken out.
KEPT = "django.contrib.sessions.middleware.SessionMiddleware"


def median_us(stack: list[str], requests: int) -> float:
    """The median server time (µs) of GET /healthz/ with ``stack`` as the middleware, after a
    fifth of ``requests`` as a warm-up."""
    from django.conf import settings

    settings.MIDDLEWARE = stack
    client = move_request.timed_client()  # loads the middleware on its first request
    times = []
    for _ in range(requests):
        response = client.get("/healthz/")
        assert response.status_code == 200, response.status_code
        times.append(client.handler.seconds)
    return statistics.median(times[requests // 5 :]) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="another checkout to measure (see above)")
    parser.add_argument("--requests", type=int, default=2500, help="per variant and rep (2500)")
    parser.add_argument("--reps", type=int, default=3, help="turns over all variants (3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="middleware-bench-") as folder:
        move_request.setup_django(Path(folder) / "bench.sqlite3")
        from django.conf import settings

        full = list(settings.MIDDLEWARE)
        variants = {"all of them": full}
        for name in full:
            if name != KEPT:
                variants[f"without {name.rsplit('.', 1)[-1]}"] = [m for m in full if m != name]
        variants["none"] = []
        median_us(full, args.requests)  # warm-up: imports, the first queries, caches
        best: dict[str, float] = {}
        for _ in range(args.reps):
            for label, stack in variants.items():
                figure = median_us(stack, args.requests)
                best[label] = min(best.get(label, figure), figure)
    whole = best["all of them"]
    print(f"GET /healthz/ through Django's handler, {len(full)} middlewares (best of {args.reps})")
    for label, figure in best.items():
        saved = "" if label == "all of them" else f"   saves {whole - figure:6.1f} µs"
        print(f"  {figure:7.1f} µs  {label}{saved}")


if __name__ == "__main__":
    main()
