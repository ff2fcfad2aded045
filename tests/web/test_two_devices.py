"""One game open on two devices: moves are applied in the order they reach the server, each
against the board it was made on; a device that is behind gets the current board; an open game
page catches up by asking, cheaply, whether the game moved on."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game

from .conftest import HTMX, board, legal_move, log, post_move, start, url, version_of
from .test_accounts import log_in, make_user
from .test_game_page import board_html

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def devices(db) -> tuple[Client, Client]:
    """Alice's laptop and phone, both logged in."""
    make_user("alice")
    laptop, phone = Client(), Client()
    log_in(laptop)
    log_in(phone)
    return laptop, phone


@pytest.fixture
def game(devices) -> Game:
    """Forty Thieves deal 1 (t8-t4 is a move), without automatic moves: one move, one ply."""
    laptop, _phone = devices
    game = start(laptop, "forty-thieves", 1)
    laptop.post(url("autoplay", game), {"autoplay": "off"})
    return game


def poll(client: Client, game: Game, version, htmx=True):
    return client.get(url("poll", game), {"version": version}, headers=HTMX if htmx else {})


def post(client: Client, name: str, game: Game, **data):
    return client.post(url(name, game), data, headers=HTMX)


class TestStaleBoard:
    def test_a_move_made_on_an_older_ply_gets_the_current_board(self, devices, game):
        laptop, phone = devices
        post_move(laptop, game, "deal")
        response = post_move(phone, game, legal_move(game), ply=0)
        assert response.status_code == 200
        html = response.content.decode()
        assert "The game had moved on" in html and 'data-ply="1"' in html
        assert log(game) == ["deal"]

    def test_the_same_ply_after_an_undo_and_another_move_is_another_board(self, devices, game):
        laptop, phone = devices
        post_move(laptop, game, "t8-t4")
        game.refresh_from_db()
        seen = game.version  # the phone's board: t8-t4 played
        post(laptop, "undo", game, ply=1, version=version_of(game))
        post_move(laptop, game, "deal")
        game.refresh_from_db()
        assert game.ply == 1 and game.version != seen
        response = post(phone, "move", game, move=legal_move(game), ply=1, version=seen)
        assert "The game had moved on" in response.content.decode()
        assert log(game) == ["deal"]

    def test_a_move_on_the_current_version_is_played(self, devices, game):
        _laptop, phone = devices
        response = post(phone, "move", game, move="deal", ply=0, version=game.version)
        assert response.status_code == 200 and log(game) == ["deal"]

    @pytest.mark.parametrize("name", ["undo", "redo", "to_foundation"])
    def test_every_action_with_a_ply_checks_the_version(self, devices, game, name):
        laptop, phone = devices
        post_move(laptop, game, "t8-t4")
        post(laptop, "undo", game, ply=1, version=version_of(game))
        post_move(laptop, game, "t8-t4")
        game.refresh_from_db()
        before = (game.version, log(game))
        data = {"ply": game.ply, "version": game.version - 1, "pick": "t1"}
        response = post(phone, name, game, **data)
        assert "The game had moved on" in response.content.decode()
        game.refresh_from_db()
        assert (game.version, log(game)) == before

    @pytest.mark.parametrize("version", ["", "x", "-1", "1.5", "9" * 12])
    def test_a_garbled_version_is_400(self, devices, game, version):
        _laptop, phone = devices
        response = post(phone, "move", game, move="deal", ply=0, version=version)
        assert response.status_code == 400
        assert "The request was incomplete" in response.content.decode()
        assert log(game) == []

    def test_every_change_counts_in_the_version(self, devices, game):
        laptop, _phone = devices
        changes = [
            lambda: post_move(laptop, game, "deal"),
            lambda: post(laptop, "undo", game, ply=1, version=version_of(game)),
            lambda: post(laptop, "redo", game, ply=0, version=version_of(game)),
            lambda: post(laptop, "restart", game, **board(game)),
            lambda: post(laptop, "give_up", game, **board(game)),
        ]
        versions = [game.version]
        for change in changes:
            change()
            game.refresh_from_db()
            versions.append(game.version)
        assert versions == [0, 1, 2, 3, 4, 5]


class TestPoll:
    def test_the_board_carries_its_version_and_sends_it_with_every_move(self, devices, game):
        laptop, _phone = devices
        post_move(laptop, game, "deal")
        pages = [
            lambda: board_html(laptop.get(url("game", game)).content.decode()),
            lambda: post_move(laptop, game, "deal").content.decode(),
        ]
        for page in pages:
            html = page()
            game.refresh_from_db()
            assert f'data-version="{game.version}"' in html
            assert 'id="poll"' not in html or f'hx-get="{url("poll", game)}"' in html
            # One element says which board every action (a move, undo, redo, hint, ...) is
            # made on, its ply and its version: #table-state, in the table's form.
            forms = html.count('name="ply"')
            assert forms >= 1
            assert html.count(f'name="version" value="{game.version}"') == forms
            assert "{#" not in html and "{%" not in html

    def test_a_finished_game_no_longer_asks(self, devices, game):
        laptop, _phone = devices
        post(laptop, "give_up", game, **board(game))
        assert "data-poll" not in laptop.get(url("game", game)).content.decode()

    def test_nothing_changed_is_204_with_nothing(self, devices, game):
        _laptop, phone = devices
        response = poll(phone, game, game.version)
        assert response.status_code == 204 and response.content == b""
        assert "no-cache" in response["Cache-Control"]

    def test_a_move_elsewhere_brings_the_current_board(self, devices, game):
        laptop, phone = devices
        seen = game.version
        post_move(laptop, game, "t8-t4")
        response = poll(phone, game, seen)
        assert response.status_code == 200
        html = response.content.decode()
        assert html.lstrip().startswith('<section id="board"')
        assert "Caught up with moves made elsewhere." in html
        game.refresh_from_db()
        assert f'data-ply="{game.ply}"' in html
        page = laptop.get(url("game", game)).content.decode()
        assert board_html(html).count("data-card") == board_html(page).count("data-card")

    def test_an_undo_and_another_move_at_the_same_ply_is_a_change(self, devices, game):
        laptop, phone = devices
        post_move(laptop, game, "t8-t4")
        game.refresh_from_db()
        seen = game.version
        post(laptop, "undo", game, ply=1, version=version_of(game))
        post_move(laptop, game, "deal")
        assert poll(phone, game, seen).status_code == 200

    def test_giving_up_elsewhere_is_a_change(self, devices, game):
        laptop, phone = devices
        seen = game.version
        post(laptop, "give_up", game, **board(game))
        response = poll(phone, game, seen)
        assert response.status_code == 200
        assert "You gave up this game." in response.content.decode()

    def test_without_htmx_a_change_is_the_game_page(self, devices, game):
        laptop, phone = devices
        post_move(laptop, game, "deal")
        response = poll(phone, game, 0, htmx=False)
        assert response.status_code == 302 and response["Location"] == url("game", game)

    @pytest.mark.parametrize("version", [None, "", "x", "-3", "9" * 12])
    def test_a_missing_or_garbled_version_is_400(self, devices, game, version):
        _laptop, phone = devices
        data = {} if version is None else {"version": version}
        response = phone.get(url("poll", game), data, headers=HTMX)
        assert response.status_code == 400
        assert "The request was incomplete" in response.content.decode()

    def test_nothing_changed_costs_one_query_on_the_games_version_and_writes_nothing(
        self, devices, game
    ):
        _laptop, phone = devices
        poll(phone, game, game.version)  # the day's first request renews the session, once
        with CaptureQueriesContext(connection) as queries:
            assert poll(phone, game, game.version).status_code == 204
        sql = [q["sql"] for q in queries.captured_queries]
        on_games = [q for q in sql if "games_" in q]
        assert len(on_games) == 1 and "games_move" not in on_games[0]
        # Only the version is read: not the snapshot, the redo stack or anything else a page
        # would draw.
        selected = on_games[0].split(" FROM ")[0]
        assert "version" in selected and "snapshot" not in selected and "redo" not in selected
        # The rest is the request's session and its user, as for every page.
        others = [q for q in sql if "games_" not in q]
        assert len(others) <= 2
        assert all(q.lstrip().upper().startswith("SELECT") for q in sql)

    def test_a_guests_session_is_renewed_once_a_day_as_they_play(self, client):
        """A guest's games hang on their session: each day they play it is saved again (its
        expiry a year from then), and no more than once that day."""
        game = start(client)
        key = client.session.session_key
        Session.objects.filter(pk=key).update(expire_date=timezone.now() + timedelta(days=3))
        session = client.session
        session["renewed"] = "2000-01-01"
        session.save()
        assert poll(client, game, game.version).status_code == 204
        expires = Session.objects.get(pk=key).expire_date
        assert expires > timezone.now() + timedelta(days=360)
        with CaptureQueriesContext(connection) as queries:
            assert poll(client, game, game.version).status_code == 204
        assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries)
        assert Session.objects.get(pk=key).expire_date == expires


class TestMovesAtTheSameInstant:
    def test_two_devices_posting_on_one_board_at_once_play_exactly_one_move(self, tmp_path):
        rounds = 20
        env = {**os.environ, "SQLITE_PATH": str(tmp_path / "two.sqlite3"), "DJANGO_DEBUG": "1"}
        # SQLite's own way of taking two writers at once, whatever database the suite runs on
        # (test_concurrency.py runs threads against PostgreSQL).
        env.pop("DATABASE_URL", None)
        result = subprocess.run(
            [sys.executable, "-m", "tests.web.two_writers", str(rounds)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        report = json.loads(result.stdout)
        laptop, phone = report["outcomes"]
        assert len(laptop) == len(phone) == rounds
        winners = []
        for mine, theirs in zip(laptop, phone, strict=True):
            assert sorted([mine[1], theirs[1]]) == ["played", "stale"], (mine, theirs)
            winners.append(mine[0] if mine[1] == "played" else theirs[0])
        assert report["log"] == winners
        assert report["plies"] == list(range(1, rounds + 1)) and report["ply"] == rounds
        assert report["replays_to_snapshot"]
