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


def test_the_tables_a_move_writes_have_no_redundant_index():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename, indexdef FROM pg_indexes WHERE tablename IN "
            "('games_game', 'games_move') ORDER BY tablename, indexname"
        )
        indexes = cursor.fetchall()
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_game'")
        options = cursor.fetchone()[0]
    on_moves = [d for t, d in indexes if t == "games_move"]
    assert len(on_moves) == 2  # the key, and the unique (game_id, ply)
    on_games = [d for t, d in indexes if t == "games_game"]
    assert not any("updated_at" in d or "varchar_pattern_ops" in d for d in on_games)
    assert not any(d.endswith("(owner_id)") for d in on_games)
    assert options == ["fillfactor=80"]
