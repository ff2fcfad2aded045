"""Several devices posting moves to one game at the same instant, on PostgreSQL.

Each device is a thread with its own database connection, as separate web processes would
be. Each round every device reads the game, all wait for one another, and each posts a
different legal move made on that same board at once: exactly one is applied, every other
device gets the current board back with a note, and the log has no gap and no duplicate.

SQLite in memory cannot hold several connections; on SQLite the same race runs in a process
of its own on a database file (test_two_devices.py).
"""

import threading

import pytest
from django.db import connection
from django.test import Client

from games.models import Game

from .conftest import HTMX, log, replayed, start, url
from .test_accounts import log_in, make_user
from .two_writers import outcome_of

DEVICES = 6
ROUNDS = 12

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL); on SQLite test_two_devices.py races two writers",
    ),
]


def test_many_devices_posting_on_one_board_at_once_play_exactly_one_move_each_round():
    make_user("alice")
    devices = [Client() for _ in range(DEVICES)]
    for client in devices:
        log_in(client)
    game = start(devices[0], "forty-thieves", 5)
    dealt = log(game)  # the cards the deal sent home by themselves
    for client in devices:
        client.post(url("autoplay", game), {"autoplay": "off"})
    connection.close()

    together = threading.Barrier(DEVICES)
    outcomes: list[list[tuple[int, str, str]]] = [[] for _ in range(DEVICES)]
    errors: list[BaseException] = []

    def device(n: int) -> None:
        client = devices[n]
        try:
            for round_ in range(ROUNDS):
                together.wait(timeout=60)  # the last round is over everywhere
                seen = Game.objects.get(pk=game.pk)
                moves = [str(m) for m in seen.position().legal_moves()]
                move = moves[n % len(moves)]
                data = {"move": move, "ply": seen.ply, "version": seen.version}
                together.wait(timeout=60)  # every device holds the same board: post at once
                response = client.post(url("move", game), data, headers=HTMX)
                outcomes[n].append((round_, move, outcome_of(response)))
        except BaseException as e:  # reported below: a thread's failure must fail the test
            errors.append(e)
            together.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=device, args=(n,)) for n in range(DEVICES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors

    winners = []
    for round_ in range(ROUNDS):
        results = [outcomes[n][round_] for n in range(DEVICES)]
        played = [move for _, move, outcome in results if outcome == "played"]
        assert len(played) == 1, results
        assert sorted(outcome for _, _, outcome in results).count("stale") == DEVICES - 1
        winners.append(played[0])

    game.refresh_from_db()
    assert log(game) == dealt + winners
    plies = list(game.log.order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(1, len(dealt) + ROUNDS + 1)) and game.ply == len(dealt) + ROUNDS
    assert replayed(game) == game.snapshot
