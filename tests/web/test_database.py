"""How the site talks to PostgreSQL: statements bound by the server and prepared once a
connection has run them a few times (DATABASE_PREPARED, on by default)."""

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"),
]


def test_a_statement_run_again_and_again_is_prepared_once():
    assert connection.features.uses_server_side_binding
    query = "SELECT count(*) FROM games_game WHERE ply > %s"
    with connection.cursor() as cursor:
        for ply in range(6):
            cursor.execute(query, [ply])
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FROM games_game WHERE ply > $1" in text for text in prepared)


def hot_updates_of_games() -> int:
    """The HOT updates of games_game in this transaction (the test's)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_get_xact_tuples_hot_updated('games_game'::regclass)")
        return cursor.fetchone()[0]


def test_a_move_updates_the_game_in_place_writing_no_index_entry(client):
    """No index holds a column a move changes, and the table leaves room on its pages: each
    move's update of the game is a HOT update (migration 0006)."""
    from .conftest import post_move, start

    game = start(client)
    before = hot_updates_of_games()
    for move in ("deal", "deal", "deal"):
        assert post_move(client, game, move).status_code == 200
    assert hot_updates_of_games() - before == 3


def test_no_index_of_the_games_holds_what_a_move_changes():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'games_game'")
        indexes = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_game'")
        options = cursor.fetchone()[0]
    changed = ("updated_at", "ply", "version", "snapshot", "milliseconds_played", "move_count")
    assert not [d for d in indexes if any(f"({c}" in d or f" {c}" in d for c in changed)]
    assert options == ["fillfactor=80"]


@pytest.mark.django_db(transaction=True)
def test_with_health_checks_a_move_survives_a_connection_the_server_dropped():
    """DATABASE_HEALTH_CHECKS: the connection is checked once a request before its first
    statement, the hot path's included (games/store.py: Django's cursors), and replaced if dead."""
    import psycopg

    from games import store
    from games.owners import Owner

    from . import services_support as services

    guest = Owner(session_key="a-guest-session")
    game = services.start_game(guest, "forty-thieves", 1)
    store.read_game(guest, game.public_id)
    enabled = connection.health_check_enabled
    connection.health_check_enabled = True
    try:
        pid = connection.connection.info.backend_pid
        with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        connection.health_check_done = False  # as at the start of the next request
        assert store.read_game(guest, game.public_id).pk == game.pk
        assert connection.connection.info.backend_pid != pid
    finally:
        connection.health_check_enabled = enabled
