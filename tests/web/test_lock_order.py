"""One lock order for a game and its searches: the game's row first, then its analyses', in the
web's actions and in the worker's search alike. In the opposite orders a player asking for
hints and taking moves back while the worker picked up their searches deadlocked PostgreSQL:
the search failed and the site logged an error and mailed the admins.

PostgreSQL only: SQLite takes one lock for the whole database and has no row locks to order."""

import threading
import time

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Analysis, Game
from games.owners import Owner
from games.services import assist, searches

from .conftest import HTMX, board, legal_move, post_move, start, url
from .solver_support import ask

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def locks_of(statements: list[str]) -> list[str]:
    """The tables each statement of ``statements`` locks rows of, in order: an UPDATE of the
    games' or the analyses' table, or a SELECT ... FOR UPDATE (of the table it names, or of
    every table it reads)."""
    locked = []
    for sql in statements:
        if " FOR UPDATE OF " in sql:
            named = sql.rsplit(" FOR UPDATE OF ", 1)[1]
            locked += [t for t in ("games_game", "games_analysis") if f'"{t}"' in named]
            continue
        head = sql.split(" WHERE ")[0]
        if sql.startswith("UPDATE") or " FOR UPDATE" in sql:
            locked += [t for t in ("games_game", "games_analysis") if f'"{t}"' in head]
    return locked


def test_the_worker_locks_the_game_before_its_search(client, settings):
    settings.SOLVER_HINT_SECONDS = 0.05
    game = start(client, "forty-thieves", 5)
    ask(client, "hint", game)
    analysis = Analysis.objects.get(game=game)
    with CaptureQueriesContext(connection) as seen:
        searches.run_search(analysis.pk)
    locks = locks_of([q["sql"] for q in seen.captured_queries])
    assert locks[:2] == ["games_game", "games_analysis"], locks
    # No statement locks both at once, in an order of the planner's choosing.
    joined = [
        q["sql"]
        for q in seen.captured_queries
        if " FOR UPDATE" in q["sql"]
        and " FOR UPDATE OF " not in q["sql"]
        and "JOIN" in q["sql"].split(" WHERE ")[0]
    ]
    assert joined == []


def test_asking_locks_the_game_before_its_searches(client):
    game = start(client, "forty-thieves", 5)
    with CaptureQueriesContext(connection) as seen:
        ask(client, "hint", game)
    locks = locks_of([q["sql"] for q in seen.captured_queries])
    assert "games_analysis" in locks or locks == ["games_game"], locks
    assert locks[0] == "games_game", locks


def test_a_search_taken_while_its_player_asks_again_waits_for_the_game_without_a_deadlock(
    client, settings
):
    """The player asked for a hint, took a move back and asks again: the web's action holds
    the game's row and is about to set the first search aside, as the worker takes that search.
    The worker must wait for the game before it holds the search; holding the search first, it
    held what the action needed while waiting for what the action held."""
    settings.SOLVER_HINT_SECONDS = 0.02
    game = start(client, "forty-thieves", 5)
    client.post(url("autoplay", game), {"autoplay": "off"})
    post_move(client, game, legal_move(game, besides_deal=True))
    ask(client, "hint", game)
    first = Analysis.objects.get(game=game)
    assert first.status == Analysis.Status.QUEUED
    client.post(url("undo", game), board(game), headers=HTMX)
    game.refresh_from_db()
    owner = Owner(session_key=client.session.session_key)
    connection.close()

    answers: list[object] = []

    def worker() -> None:
        try:
            answers.append(searches.run_search(first.pk))
        except BaseException as error:
            answers.append(error)
        finally:
            connection.close()

    taken = threading.Thread(target=worker)
    with transaction.atomic():
        # The action's first step, as a web process takes it: the game's row, held.
        Game.objects.filter(pk=game.pk).select_for_update().get()
        taken.start()
        waiting_for_a_lock(2)
        try:
            asked = assist.ask_in_transaction(
                owner, game.public_id, game.ply, game.version, "hint", "a-client"
            )
        except OperationalError as error:
            answers.append(error)
            asked = None
    taken.join(timeout=30)
    assert not [a for a in answers if isinstance(a, BaseException)], answers
    assert asked is not None and asked.version == game.version
    first.refresh_from_db()
    assert first.status == Analysis.Status.STALE  # set aside: the board changed
    assert answers == [Analysis.Status.STALE]


def waiting_for_a_lock(timeout: float) -> None:
    """Come back once another connection waits for a row lock (or after ``timeout``)."""
    end = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < end:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
