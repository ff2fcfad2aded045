"""Two devices sending moves in one game at the same instant, in a process of its own.

The other web tests run on SQLite in memory, which cannot take two writers at once; this runs
on the database file that SQLITE_PATH names (migrated first), each device a thread with its own
connection, as two web processes would have. Each round both devices read the game, wait for
each other, and post a move made on that same board at once: exactly one may be played, the
other must get the current board back. Prints a JSON report that
tests/web/test_two_devices.py checks.

    SQLITE_PATH=/tmp/two.sqlite3 python -m tests.web.two_writers [ROUNDS]
"""

import json
import os
import sys
import threading


def outcome_of(response) -> str:
    """What became of a posted move: "played", "stale" (the board came back) or its status."""
    if response.status_code != 200:
        return f"status {response.status_code}"
    if "The game had moved on" in response.content.decode():
        return "stale"
    return "played"


def main(rounds: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "solitaire.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from games.models import Game
    from games.rules import Record, replay

    setup_test_environment()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    get_user_model().objects.create_user("alice", "", "a long pass phrase")
    devices = [Client(), Client()]
    for client in devices:
        client.post(reverse("login"), {"username": "alice", "password": "a long pass phrase"})
    response = devices[0].post(reverse("games:new"), {"variant": "forty-thieves", "deal": "2"})
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    move_url = reverse("games:move", args=[game.public_id])
    for client in devices:
        client.post(reverse("games:autoplay", args=[game.public_id]), {"autoplay": "off"})
    connection.close()

    together = threading.Barrier(2)
    outcomes: list[list[tuple[str, str]]] = [[], []]

    def device(n: int) -> None:
        client = devices[n]
        for _round in range(rounds):
            together.wait()  # the last round is over on both devices
            seen = Game.objects.get(pk=game.pk)
            moves = [str(m) for m in seen.position().legal_moves()]
            if not moves:
                break
            move = moves[0] if n == 0 else moves[-1]
            data = {"move": move, "ply": seen.ply, "version": seen.version}
            together.wait()  # both hold the same board: post at once
            response = client.post(move_url, data, headers={"HX-Request": "true"})
            outcomes[n].append((move, outcome_of(response)))
        connection.close()

    threads = [threading.Thread(target=device, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    game.refresh_from_db()
    log = list(game.log.order_by("ply").values_list("notation", flat=True))
    return {
        "outcomes": outcomes,
        "log": log,
        "plies": list(game.log.order_by("ply").values_list("ply", flat=True)),
        "ply": game.ply,
        "replays_to_snapshot": replay(Record(game.variant, game.deal_number, log)).text()
        == game.snapshot,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)))
