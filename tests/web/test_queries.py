"""A move costs the same number of database queries however long the game has grown."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.owners import Owner
from games.rules import Record

from . import services_support as services
from .conftest import HTMX, long_moves, start, url, version_of


def queries_for_a_move(client, game, move: str) -> int:
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url("move", game),
            {"move": move, "version": version_of(game), "ply": game.ply},
            headers=HTMX,
        )
    assert response.status_code == 200, response.content[:300]
    return len(queries)


def queries_for_an_undo(client, game) -> int:
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url("undo", game), {"version": version_of(game), "ply": game.ply}, headers=HTMX
        )
    assert response.status_code == 200
    return len(queries)


class TestQueryCount:
    def test_a_move_costs_the_same_in_a_short_and_a_long_game(self, client):
        short = start(client, "forty-thieves", 3)
        owner = Owner(session_key=client.session.session_key)
        long = services.start_from_record(owner, Record("forty-thieves", 3, long_moves(200)))
        client.post(url("autoplay", short), {"autoplay": "off"}, headers=HTMX)
        assert long.position().stock, "the long game needs a card left to deal"
        counts = [
            queries_for_a_move(client, short, "deal"),
            queries_for_a_move(client, long, "deal"),
        ]
        assert counts[0] == counts[1]
        assert counts[0] <= 8

    def test_automatic_moves_cost_no_more_queries(self, client):
        game = start(client, "forty-thieves", 3)
        plain = queries_for_a_move(client, game, "deal")
        client.post(url("autoplay", game), {"autoplay": "off"}, headers=HTMX)
        assert queries_for_a_move(client, game, "deal") == plain

    def test_an_undo_costs_the_same_in_a_short_and_a_long_game(self, client):
        short = start(client, "forty-thieves", 3)
        client.post(
            url("move", short),
            {"move": "deal", "version": version_of(short), "ply": short.ply},
            headers=HTMX,
        )
        owner = Owner(session_key=client.session.session_key)
        long = services.start_from_record(owner, Record("forty-thieves", 3, long_moves(200)))
        assert queries_for_an_undo(client, short) == queries_for_an_undo(client, long)
