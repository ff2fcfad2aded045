"""Imports keep the record: a game exported and imported again comes back as it was, its
automatic moves still automatic, Finish's moves still Finish's, its clock, hints and undos
kept (docs/notation.md, "What a record keeps"); a record without those keys imports as before,
and one whose keys are garbled imports with them left out, never refused. Importing the record
of a game the player has opens that game instead of making a second one."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import integrity
from games.models import Game
from games.rules import Record, parse_record

from .conftest import HTMX, board, legal_move, post_move, url, won_record
from .test_counts import counters, near_win

pytestmark = pytest.mark.django_db


def exported(client, game: Game) -> str:
    response = client.get(url("record", game))
    assert response.status_code == 200
    return response.content.decode()


def imported(client, text: str) -> tuple[Game, object]:
    """The game the import page opens for ``text``, and its answer."""
    response = client.post(reverse("games:import"), {"text": text})
    assert response.status_code == 302, response.content[:500]
    game = Game.objects.get(public_id=response["Location"].split("/")[2])
    return game, response


def figures_of(game: Game) -> tuple:
    game.refresh_from_db()
    log = list(game.log.order_by("ply").values_list("notation", "automatic"))
    return (
        game.status,
        game.ply,
        game.player_moves,
        game.automatic_ply,
        game.finish_ply,
        game.milliseconds_played,
        game.hint_count,
        game.undo_count,
        log,
    )


def won_with_automatic_moves_and_finish(client) -> Game:
    """Indian deal 1 played on from 40 moves before its end, the automatic moves on, then
    Finish: a win with moves of the player's, of the automatic moves and of Finish."""
    game = near_win(client, 40)
    for move in won_record().moves[-40:]:
        post_move(client, game, move)
        game.refresh_from_db()
        if game.finish:
            break
    client.post(url("finish", game), board(game), headers=HTMX)
    Game.objects.filter(pk=game.pk).update(milliseconds_played=754_321, undo_count=2, version=99)
    game.refresh_from_db()
    assert game.status == "won" and game.automatic_ply and game.finish_ply
    return game


class TestRoundTrip:
    def test_a_game_comes_back_with_its_automatic_moves_finish_and_time(self, client, other_client):
        game = won_with_automatic_moves_and_finish(client)
        text = exported(client, game)
        copy, _response = imported(other_client, text)
        assert copy.pk != game.pk
        assert figures_of(copy) == figures_of(game)
        # What the player reads: the same counts and the same time.
        page = other_client.get(url("game", copy)).text
        assert counters(page) == counters(client.get(url("game", game)).text)
        assert counters(page) == (
            f"{game.player_moves} + {game.automatic_ply} automatic + {game.finish_ply} by Finish"
        )
        assert 'data-ms="754321"' in page and ">12:34<" in page
        assert 'data-win="helped"' in page

    def test_a_game_in_play_comes_back_as_it_was_and_checks_against_its_log(
        self, client, other_client
    ):
        game = near_win(client, 40)
        for move in won_record().moves[-40:-30]:
            post_move(client, game, move)
        game.refresh_from_db()
        assert game.status == "playing" and game.automatic_ply
        copy, _response = imported(other_client, exported(client, game))
        assert figures_of(copy) == figures_of(game)
        log = list(copy.log.order_by("ply").values_list("ply", "notation", "automatic"))
        assert integrity.check_game(copy, log) == []
        # Undo takes back the player's last move with the automatic moves after it, as it
        # would have in the game exported.
        response = other_client.post(url("undo", copy), board(copy), headers=HTMX)
        assert response.status_code == 200
        client.post(url("undo", game), board(game), headers=HTMX)
        assert figures_of(copy)[1:5] == figures_of(game)[1:5]

    def test_the_record_says_what_it_keeps_in_keys_of_its_own(self, client):
        game = won_with_automatic_moves_and_finish(client)
        data = json.loads(exported(client, game))
        log = list(game.log.order_by("ply").values_list("automatic", flat=True))
        assert data["automatic_moves"] == [n for n, auto in enumerate(log, 1) if auto]
        assert data["finish_moves"] == game.finish_ply
        assert data["milliseconds_played"] == 754_321 and data["undos"] == 2
        # Still a record by NOTATION.md: its moves alone make it valid.
        assert parse_record(json.dumps(data)).moves == data["moves"]

    def test_every_record_of_my_records_keeps_its_game_too(self, client, other_client):
        game = won_with_automatic_moves_and_finish(client)
        bundle = json.loads(client.get(reverse("games:my_records")).content)
        mine = next(r for r in bundle["games"] if r["game"] == game.public_id)
        copy, _response = imported(other_client, json.dumps(mine))
        assert figures_of(copy) == figures_of(game)


class TestOldAndGarbledRecords:
    def test_a_record_without_the_keys_imports_as_before(self, client):
        record = won_record()
        game, _response = imported(client, Record(record.variant, 1, record.moves[:-5]).to_json())
        assert (game.automatic_ply, game.finish_ply, game.milliseconds_played) == (0, 0, 0)
        assert game.player_moves == len(record.moves) - 5

    @pytest.mark.parametrize(
        "keys",
        [
            {"automatic_moves": "1,2"},
            {"automatic_moves": [0]},
            {"automatic_moves": [3, 2]},
            {"automatic_moves": [2, 2]},
            {"automatic_moves": [True]},
            {"automatic_moves": [10**6]},
            {"finish_moves": 3},  # a game not won
            {"finish_moves": -1},
            {"finish_moves": 10**6},
            {"milliseconds_played": -5},
            {"milliseconds_played": "754321"},
            {"milliseconds_played": 1.5},
            {"milliseconds_played": 10**30},
            {"hints": None, "undos": [1]},
        ],
    )
    def test_a_garbled_key_is_left_out_never_a_refusal(self, client, keys):
        record = won_record()
        data = {"version": 1, "variant": "indian", "deal": 1, "moves": record.moves[:-5]}
        game, _response = imported(client, json.dumps(data | keys))
        assert game.player_moves == game.ply == len(record.moves) - 5
        assert (game.automatic_ply, game.finish_ply, game.milliseconds_played) == (0, 0, 0)
        assert (game.hint_count, game.undo_count) == (0, 0)

    @pytest.mark.parametrize("keys", [{"undos": 2**31 - 1}, {"hints": 2**31 - 1, "undos": 10**9}])
    def test_counts_no_game_could_reach_are_left_out_and_the_game_plays_on(self, client, keys):
        data = {"version": 1, "variant": "indian", "deal": 1, "moves": won_record().moves[:-60]}
        game, _response = imported(client, json.dumps(data | keys))
        assert (game.hint_count, game.undo_count) == (0, 0)
        # The board the page sends back is the game's: a move, a hint and an undo are answered.
        assert client.post(url("hint", game), board(game), headers=HTMX).status_code == 200
        assert post_move(client, game, legal_move(game)).status_code == 200
        assert client.post(url("undo", game), board(game), headers=HTMX).status_code == 200

    def test_a_move_marked_automatic_that_does_not_go_home_is_the_player_s(self, client):
        data = json.loads(Record("indian", 1, won_record().moves[:-5]).to_json())
        away = next(n for n, move in enumerate(data["moves"], 1) if "-f" not in move)
        home = next(n for n, move in enumerate(data["moves"], 1) if "-f" in move)
        game, _response = imported(client, json.dumps(data | {"automatic_moves": [home, away]}))
        assert game.automatic_ply == 0 and game.player_moves == game.ply

    def test_finish_moves_that_overlap_automatic_ones_are_both_left_out(self, client):
        data = json.loads(won_record().to_json())
        home = [n for n, move in enumerate(data["moves"], 1) if "-f" in move]
        data |= {"automatic_moves": home[-3:], "finish_moves": 2}
        game, _response = imported(client, json.dumps(data))
        assert (game.automatic_ply, game.finish_ply) == (0, 0)


class TestTheSameGame:
    def test_importing_a_game_you_have_opens_it(self, client):
        game = won_with_automatic_moves_and_finish(client)
        before = Game.objects.count()
        again, response = imported(client, exported(client, game))
        assert again.pk == game.pk and Game.objects.count() == before
        page = client.get(response["Location"]).text
        assert "You have this game already" in page

    def test_importing_it_twice_makes_one_game(self, client):
        text = Record("indian", 1, won_record().moves[:-20]).to_json()
        first, _response = imported(client, text)
        second, _response = imported(client, text)
        assert first.pk == second.pk
        page = client.get(reverse("games:my_games")).text
        assert len(re.findall(r"Resume Indian, deal 1", page)) == 1

    def test_an_account_s_game_opens_on_another_device(self, client, other_client):
        user = get_user_model().objects.create_user("ann", password="pw")
        client.force_login(user)
        other_client.force_login(user)
        game = won_with_automatic_moves_and_finish(client)
        again, _response = imported(other_client, exported(client, game))
        assert again.pk == game.pk

    def test_another_player_gets_a_game_of_their_own(self, client, other_client):
        game = won_with_automatic_moves_and_finish(client)
        copy, _response = imported(other_client, exported(client, game))
        assert copy.pk != game.pk and copy.session_key != game.session_key

    def test_the_record_of_an_earlier_board_makes_a_new_game(self, client):
        game = near_win(client, 30)
        earlier = exported(client, game)
        post_move(client, game, won_record().moves[-30])
        copy, _response = imported(client, earlier)
        assert copy.pk != game.pk and copy.ply < Game.objects.get(pk=game.pk).ply
