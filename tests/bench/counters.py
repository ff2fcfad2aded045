"""A rate limit's counter, counted as before (``add`` then ``incr``: three round trips to Redis,
Django's ``incr`` asking first whether the key exists) and as now (``incr`` first, ``add`` only
for a window's first request: two), alternated in one process on Redis:

    .venv/bin/python tests/bench/counters.py [--redis redis://127.0.0.1:6379/6] [--rounds 7]

Prints each way's median microseconds per count over the rounds (2,000 counts each, 50 keys).
A catch-up poll counts twice (per address, per game), a new game once.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def before(scope: str, key: str, per: int, now: float) -> int:
    from django.core.cache import cache

    from solitaire import limits

    name = limits.counter_key(scope, key, int(now // per))
    cache.add(name, 0, per + 5)
    try:
        return cache.incr(name)
    except ValueError:
        cache.add(name, 1, per + 5)
        return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.environ["DJANGO_SETTINGS_MODULE"] = "solitaire.settings"
    os.environ["REDIS_URL"] = args.redis
    import django

    django.setup()
    from solitaire import limits

    ways = {"before": before, "now": limits.count}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for r in range(args.rounds):
        order = list(ways.items()) if r % 2 else list(reversed(ways.items()))
        for name, count in order:
            start = time.perf_counter()
            for i in range(2000):
                count(f"bench-{name}", f"k{i % 50}", 60, time.time())
            times[name].append((time.perf_counter() - start) / 2000 * 1e6)
    for name, values in times.items():
        rounds = ", ".join(f"{v:.0f}" for v in values)
        print(f"{name:7} median {statistics.median(values):6.1f} µs per count ({rounds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
