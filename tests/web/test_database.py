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
