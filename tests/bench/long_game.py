"""Benchmark of a long game: run it as `.venv/bin/python tests/bench/long_game.py`.

A game of 10,000 moves (the longest a game may have) is started from a record, on a temporary
SQLite file with debug off, as tests/bench/move_request.py sets Django up. It prints the server
time (the best of several tries, and the median) of:
- an undo at ply 10,000 (then redone, so that each try undoes the same move);
- the replay viewer's page at ply 10,000, and at ply 5,000;
- the same undo in a game stored without checkpoints (its whole log read and replayed), for
  comparison.
The undo and the replay start from the nearest checkpoint, so these should cost about what
they cost at ply 100. Exits with status 1 when a median is over 15 ms.
"""

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import move_request

BUDGET_MS = 15
TRIES = 15


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    move_request.setup_django(folder / "db.sqlite3")
    from games.models import Game
    from games.models import Move as MoveRow
    from games.rules import Record
    from games.rules.turn import MAX_PLY
    from tests.web.conftest import endless_moves

    client = move_request.timed_client()
    client.get("/")
    moves = endless_moves(MAX_PLY)

    def imported() -> Game:
        response = client.post("/import/", {"text": Record("forty-thieves", 3, moves).to_json()})
        assert response.status_code == 302, response.status_code
        return Game.objects.get(public_id=response["Location"].split("/")[2])

    def undo_times(game: Game) -> list[float]:
        times = []
        for _ in range(TRIES):
            game.refresh_from_db()
            board = {"ply": game.ply, "version": game.version}
            response = client.post(f"/g/{game.public_id}/undo/", board, headers=move_request.HTMX)
            assert response.status_code == 200, response.status_code
            times.append(client.handler.seconds * 1000)
            game.refresh_from_db()
            board = {"ply": game.ply, "version": game.version}
            client.post(f"/g/{game.public_id}/redo/", board, headers=move_request.HTMX)
        return times

    def page_times(game: Game, ply: int) -> list[float]:
        times = []
        for _ in range(TRIES):
            response = client.get(f"/g/{game.public_id}/replay/{ply}/")
            assert response.status_code == 200, response.status_code
            times.append(client.handler.seconds * 1000)
        return times

    game = imported()
    figures = {
        f"undo at ply {MAX_PLY:,}": undo_times(game),
        f"replay page at ply {MAX_PLY:,}": page_times(game, MAX_PLY),
        "replay page at ply 5,000": page_times(game, 5000),
    }
    bare = imported()
    MoveRow.objects.filter(game=bare).update(checkpoint="")
    figures[f"undo at ply {MAX_PLY:,}, no checkpoints"] = undo_times(bare)

    print(f"A game of {MAX_PLY:,} moves (SQLite, debug off), server time over {TRIES} tries")
    over = False
    for label, times in figures.items():
        median = statistics.median(times)
        print(f"  {label:38s} best {min(times):6.2f} ms   median {median:6.2f} ms")
        over |= "no checkpoints" not in label and median > BUDGET_MS
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
