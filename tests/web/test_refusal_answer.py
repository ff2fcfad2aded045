"""A refused move asked for by the game page's script comes as an answer like any other: 200,
the refusal's status in X-Refused, the same board and words; without the script's header (or
without htmx) it keeps its 4xx."""

from games.models import Game

from .conftest import HTMX, start, url


def refused_move(client, game: Game, headers: dict):
    game.refresh_from_db()
    data = {"move": "t1-t2", "ply": game.ply, "version": game.version}
    return client.post(url("move", game), data, headers=headers)


def test_the_pages_script_gets_a_refusal_as_an_answer_with_its_status_in_a_header(client):
    game = start(client, "forty-thieves", 1)
    plain = refused_move(client, game, HTMX)
    asked = refused_move(client, game, {**HTMX, "X-Refusal-As-Answer": "yes"})
    assert plain.status_code == 422 and "X-Refused" not in plain
    assert asked.status_code == 200 and asked["X-Refused"] == "422"
    said = "That move is not allowed"
    assert said in plain.content.decode() and said in asked.content.decode()
    game.refresh_from_db()
    assert game.ply == 0


def test_a_page_load_keeps_its_status_whatever_it_asks(client):
    game = start(client, "forty-thieves", 1)
    response = refused_move(client, game, {"X-Refusal-As-Answer": "yes"})
    assert response.status_code == 422 and "X-Refused" not in response
