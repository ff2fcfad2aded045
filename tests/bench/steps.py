"""Where a move request's time goes: run it as
`.venv/bin/python tests/bench/steps.py [--root CHECKOUT] [MODULE:FUNCTION ...]`.

It plays tests/bench/move_request.py's moves (automatic moves off, a warm-up round, then three
rounds) and times, besides the whole request in Django's handler, each function named: each
is wrapped where its module holds it, so a function that another module imported by name
(``from .store import read_game``) is timed only where it is looked up on its module. Printed
for each: the median of its calls and its time per move (every call, over the moves).

Without names, today's steps are timed: the view, the service, the game's read and write, the
session's read and the answer. ``--root CHECKOUT`` measures another checkout (name its own
functions: those of commit 0d81277 were ``games.views:move games.services:play
games.views:_render_changes games.store:read_game_and_session games.store:save_play``).
With DATABASE_URL set, the moves are played on that database instead of SQLite (an empty
PostgreSQL database: it is migrated first).
"""

import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import move_request  # noqa: E402 (sets the checkout's path from --root)

#: What is timed when nothing is named.
STEPS = [
    "games.web.play:move",
    "games.services.play:play",
    "games.store:read_game",
    "games.store:save_play",
    "solitaire.sessions:SessionStore.load",
    "games.web.draw:draw_changes",
]


def wrap(target: str, calls: dict[str, list[int]]) -> None:
    """Time every call of ``target`` ("module:function" or "module:Class.method")."""
    module_name, attribute = target.split(":")
    holder = importlib.import_module(module_name)
    *path, name = attribute.split(".")
    for part in path:
        holder = getattr(holder, part)
    function = getattr(holder, name)
    times = calls.setdefault(target, [])

    def timed(*args, **kwargs):
        start = time.perf_counter_ns()
        try:
            return function(*args, **kwargs)
        finally:
            times.append(time.perf_counter_ns() - start)

    setattr(holder, name, timed)


def main() -> None:
    args = sys.argv[1:]
    if "--root" in args:
        at = args.index("--root")
        del args[at : at + 2]
    targets = args or STEPS
    with tempfile.TemporaryDirectory(prefix="steps-bench-") as folder:
        move_request.setup_django(Path(folder) / "bench.sqlite3")
        calls: dict[str, list[int]] = {}
        for target in targets:
            wrap(target, calls)
        client = move_request.timed_client()
        move_request.autoplay_off(client)
        move_request.warm_up(client)
        for times in calls.values():
            times.clear()
        handler: list[float] = []
        for _ in range(move_request.ROUNDS):
            seconds, _sizes, _cpu = move_request.play_round(client, move_request.SEED)
            handler += seconds
    moves = len(handler)
    print(f"{moves} move requests, automatic moves off")
    print(f"  {statistics.median(handler) * 1e6:7.0f} µs median  the request in Django's handler")
    for target, times in calls.items():
        if times:
            median = statistics.median(times) / 1000
            per_move = sum(times) / moves / 1000
            print(f"  {median:7.0f} µs median  {per_move:7.0f} µs a move  {target}")
        else:
            print(f"        (never called)  {target}")


if __name__ == "__main__":
    main()
