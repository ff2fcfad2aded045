"""A player never reaches another player's game: every URL with a game id is a 404 for anyone
but its owner (another guest, another account, the owner logged out), and changes nothing."""

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from games import urls as game_urls
from games.models import Game

from .conftest import HTMX, legal_move, log, post_move, start, url
from .test_accounts import log_in, make_user

#: Every URL of a game, with how it is asked for: (name, method, data).
REQUESTS = [
    ("game", "get", {}),
    ("game", "get", {"pick": "t1"}),
    ("record", "get", {}),
    ("replay", "get", {}),
    ("poll", "get", {"version": "0"}),
    ("move", "post", {"move": "deal", "ply": "0"}),
    ("to_foundation", "post", {"pick": "t1", "ply": "0"}),
    ("undo", "post", {"ply": "1"}),
    ("redo", "post", {"ply": "0"}),
    ("restart", "post", {}),
    ("give_up", "post", {}),
    ("autoplay", "post", {"autoplay": "off"}),
    ("hint", "post", {"ply": "1", "version": "1"}),
    ("hint", "get", {"version": "1"}),
    ("analysis", "post", {"ply": "1", "version": "1"}),
    ("analysis", "get", {"version": "1"}),
    ("finish", "post", {"ply": "1", "version": "1"}),
    ("share", "post", {}),
]


def test_every_url_with_a_game_id_is_checked_here():
    with_id = {
        p.name
        for p in game_urls.urlpatterns
        if isinstance(p, URLPattern) and "public_id" in p.pattern.converters
    }
    assert with_id == {name for name, _method, _data in REQUESTS}


@pytest.fixture
def owner_game(db) -> tuple[Client, Game]:
    """Alice's game, a move in."""
    make_user("alice")
    alice = Client()
    log_in(alice, "alice")
    game = start(alice, "forty-thieves", 1)
    post_move(alice, game, legal_move(game))
    game.refresh_from_db()
    return alice, game


def stranger(kind: str) -> Client:
    client = Client()
    if kind == "guest":
        start(client)  # a guest with a session and a game of their own
    elif kind == "account":
        make_user("mallory")
        log_in(client, "mallory")
        start(client)
    return client


@pytest.mark.parametrize("kind", ["guest", "account", "no session"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("name", "method", "data"), REQUESTS, ids=lambda v: str(v))
def test_someone_elses_game_is_404_and_unchanged(owner_game, kind, htmx, name, method, data):
    alice, game = owner_game
    before = (game.snapshot, game.version, game.status, log(game))
    client = stranger(kind)
    response = getattr(client, method)(url(name, game), data, headers=HTMX if htmx else {})
    assert response.status_code == 404
    assert game.public_id.encode() not in response.content
    game.refresh_from_db()
    assert (game.snapshot, game.version, game.status, log(game)) == before
    assert alice.get(url("game", game)).status_code == 200


@pytest.mark.parametrize(("name", "method", "data"), REQUESTS, ids=lambda v: str(v))
def test_the_owner_logged_out_is_a_stranger_too(owner_game, name, method, data):
    alice, game = owner_game
    alice.post(reverse("logout"))
    assert getattr(alice, method)(url(name, game), data).status_code == 404


def test_an_unknown_game_id_is_404(client):
    assert client.get(reverse("games:game", args=["no-such-game"])).status_code == 404


@pytest.mark.parametrize("name, method, data", REQUESTS)
@pytest.mark.parametrize("bad_id", ["%00abc", "abc%00", "%C2%99", "a.b", "x" * 23])
def test_an_id_no_game_can_have_is_404_on_every_game_url(client, name, method, data, bad_id):
    start(client, "forty-thieves", 1)
    path = url(name, Game.objects.get()).split("/")
    path[2] = bad_id  # /g/<id>/...
    response = getattr(client, method)("/".join(path), data)
    assert response.status_code == 404
