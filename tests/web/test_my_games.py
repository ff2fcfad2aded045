"""My games: the list to resume from on any device, guest games adopted on signing up or
logging in, and all of a player's games as records in one file."""

import io
import json
import re
from datetime import timedelta

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.rules import parse_record, replay
from solitaire import clock as site_clock

from .conftest import HTMX, board, legal_move, log, post_move, start, url
from .test_accounts import LOGIN, MY_GAMES, PASSWORD, SIGNUP, log_in, make_user
from .test_game_page import board_html

RECORDS = reverse("games:my_records")


def play_some(client: Client, game: Game, moves: int) -> None:
    for _ in range(moves):
        post_move(client, game, legal_move(game))
    game.refresh_from_db()


def without_tokens(html: str) -> str:
    """The HTML without its CSRF tokens and when the board was drawn, which differ from one
    response to the next."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r' data-since="\d+"|name="drawn" value="[^"]*"', "", html)


def sign_up(client: Client, username: str = "alice"):
    return client.post(SIGNUP, {"username": username, "password1": PASSWORD, "password2": PASSWORD})


class TestMyGames:
    def test_games_in_progress_newest_first_with_deal_moves_and_when(self, client):
        older = start(client, "indian", 12)
        play_some(client, older, 3)
        newer = start(client, "lucas", 34)
        Game.objects.filter(pk=older.pk).update(updated_at=older.updated_at - timedelta(hours=3))
        response = client.get(MY_GAMES)
        assert response.status_code == 200
        html = response.content.decode()
        playing = html[html.index("In progress") : html.index("Recently finished")]
        assert playing.index(url("game", newer)) < playing.index(url("game", older))
        assert "Resume Indian, deal 12" in playing and "Resume Lucas, deal 34" in playing
        assert f"{older.player_moves} moves" in playing
        assert "played 3\xa0hours ago" in playing
        # The newer game was dealt and opened, no move made: it says so, not "0 moves, played".
        newer_line = playing[playing.index(url("game", newer)) : playing.index(url("game", older))]
        assert "no move yet, opened" in newer_line
        assert "0 moves" not in playing and "played" not in newer_line

    def test_finished_games_are_listed_apart_with_their_outcome(self, client):
        game = start(client, "indian", 12)
        play_some(client, game, 2)
        client.post(url("give_up", game), board(game))
        html = client.get(MY_GAMES).content.decode()
        finished = html[html.index("Recently finished") :]
        assert "Gave up Indian, deal 12" in finished
        assert url("game", game) in finished and url("record", game) in finished
        assert "Resume Indian" not in html

    def test_finished_games_newest_finished_first(self, client):
        first, second = start(client, "indian", 12), start(client, "lucas", 34)
        for game in (first, second):
            play_some(client, game, 1)
            client.post(url("give_up", game), board(game))
        html = client.get(MY_GAMES).content.decode()
        finished = html[html.index("Recently finished") :]
        assert finished.index(url("game", second)) < finished.index(url("game", first))
        Game.objects.filter(pk=second.pk).update(finished_at=site_clock.now() - timedelta(hours=3))
        html = client.get(MY_GAMES).content.decode()
        finished = html[html.index("Recently finished") :]
        assert finished.index(url("game", first)) < finished.index(url("game", second))

    def test_a_guest_is_told_that_an_account_keeps_the_games(self, client):
        start(client)
        html = client.get(MY_GAMES).content.decode()
        assert "You are playing as a guest" in html
        assert f'href="{SIGNUP}"' in html and f'href="{LOGIN}"' in html

    def test_a_guest_without_a_session_has_no_games(self, client):
        html = client.get(MY_GAMES).content.decode()
        assert "No game in progress." in html and "No finished game yet." in html

    def test_someone_elses_games_are_not_listed(self, client, other_client):
        mine = start(client, "indian", 12)
        theirs = start(other_client, "lucas", 34)
        html = client.get(MY_GAMES).content.decode()
        assert url("game", mine) in html and url("game", theirs) not in html

    def test_the_home_page_lists_the_same_games_in_progress(self, client):
        game = start(client, "indian", 12)
        play_some(client, game, 1)
        html = client.get("/en/").content.decode()
        assert url("game", game) in html and "Resume Indian, deal 12" in html
        assert f"{game.player_moves} move" in html
        assert f'href="{MY_GAMES}"' in html


class TestGuestGamesComeAlong:
    def test_signing_up_adopts_the_guest_games_with_their_move_logs(self, client):
        game = start(client, "forty-thieves", 5)
        play_some(client, game, 6)
        moves = log(game)
        finished = start(client, "indian", 7)
        client.post(url("give_up", finished), board(finished))
        game.refresh_from_db()
        guest_board = board(game)
        sign_up(client)
        html = client.get(MY_GAMES).content.decode()
        assert url("game", game) in html and url("game", finished) in html
        assert "The 2 games you played as a guest are now in your account." in html
        game.refresh_from_db()
        finished.refresh_from_db()
        alice = game.owner
        assert alice is not None and alice.username == "alice"
        assert finished.owner == alice
        assert game.session_key == "" and finished.session_key == ""
        assert log(game) == moves and game.ply == len(moves)
        assert replay(parse_record(client.get(url("record", game)).content)).text() == (
            game.snapshot
        )
        assert client.get(url("game", game)).status_code == 200
        # A board drawn before the adoption is stale after it: the account's game moved on.
        assert game.version == guest_board["version"] + 1
        response = client.post(url("move", game), {**guest_board, "move": "deal"}, headers=HTMX)
        assert response.status_code == 200 and "moved on" in response.content.decode()
        game.refresh_from_db()
        assert log(game) == moves

    def test_logging_in_adopts_the_guest_games_into_the_existing_account(self, client):
        alice = make_user()
        phone = Client()
        log_in(phone)
        old = start(phone, "lucas", 1)
        guest_game = start(client, "indian", 2)
        play_some(client, guest_game, 2)
        moves = log(guest_game)
        log_in(client)
        guest_game.refresh_from_db()
        assert guest_game.owner == alice and log(guest_game) == moves
        assert set(Game.objects.filter(owner=alice)) == {old, guest_game}
        html = client.get(MY_GAMES).content.decode()
        assert "The game you played as a guest is now in your account." in html
        assert url("game", old) in html and url("game", guest_game) in html

    def test_another_guests_games_stay_theirs(self, client, other_client):
        start(client)
        theirs = start(other_client)
        sign_up(client)
        theirs.refresh_from_db()
        assert theirs.owner is None and theirs.session_key == other_client.session.session_key
        assert other_client.get(url("game", theirs)).status_code == 200

    def test_after_logging_out_the_games_stay_with_the_account(self, client):
        game = start(client)
        sign_up(client)
        client.post(reverse("logout"))
        assert client.get(url("game", game)).status_code == 404
        log_in(client)
        assert client.get(url("game", game)).status_code == 200

    def test_a_game_played_logged_in_belongs_to_the_account(self, client):
        sign_up(client)
        game = start(client)
        assert game.owner.username == "alice" and game.session_key == ""


class TestAnyDevice:
    def test_a_second_device_sees_the_same_list_and_the_same_board(self, client):
        sign_up(client)
        game = start(client, "forty-thieves", 9)
        play_some(client, game, 5)
        phone = Client()
        log_in(phone)
        mine = client.get(MY_GAMES).content.decode()
        theirs = phone.get(MY_GAMES).content.decode()
        assert url("game", game) in theirs
        assert mine[mine.index("<h1>") :] == theirs[theirs.index("<h1>") :]
        laptop_board = board_html(client.get(url("game", game)).content.decode())
        phone_board = board_html(phone.get(url("game", game)).content.decode())
        assert f'data-ply="{game.ply}"' in phone_board
        assert without_tokens(laptop_board) == without_tokens(phone_board)

    def test_playing_on_on_the_second_device_moves_the_first(self, client):
        sign_up(client)
        game = start(client)
        phone = Client()
        log_in(phone)
        post_move(phone, game, legal_move(game))
        game.refresh_from_db()
        assert f'data-ply="{game.ply}"' in client.get(url("game", game)).content.decode()


class TestAllRecords:
    def test_every_game_is_a_record_that_replays(self, client):
        sign_up(client)
        first = start(client, "forty-thieves", 3)
        play_some(client, first, 8)
        second = start(client, "indian", 4)
        play_some(client, second, 2)
        client.post(url("give_up", second), board(second))
        response = client.get(RECORDS)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"].startswith('attachment; filename="patience-games-')
        data = json.loads(response.content)
        assert data["version"] == 1 and data["player"] == "alice"
        assert [r["game"] for r in data["games"]] == [first.public_id, second.public_id]
        for game, record in zip([first, second], data["games"], strict=True):
            game.refresh_from_db()
            assert record["moves"] == log(game)
            assert record["status"] == game.status and record["player"] == "alice"
            assert replay(parse_record(json.dumps(record))).text() == game.snapshot
            assert record == json.loads(client.get(url("record", game)).content)
        assert "finished" in data["games"][1]

    def test_a_record_taken_out_of_the_file_replays_with_the_command(self, client, tmp_path):
        game = start(client, "forty-thieves", 3)
        play_some(client, game, 4)
        record = json.loads(client.get(RECORDS).content)["games"][0]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        out = io.StringIO()
        call_command("replay", str(path), stdout=out)
        game.refresh_from_db()
        assert out.getvalue().strip() == game.snapshot.strip()

    def test_only_the_players_own_games_are_in_it(self, client, other_client):
        mine = start(client)
        start(other_client)
        data = json.loads(client.get(RECORDS).content)
        assert [r["game"] for r in data["games"]] == [mine.public_id]
        assert data["player"] is None

    def test_no_games_is_an_empty_list(self, client):
        data = json.loads(client.get(RECORDS).content)
        assert data["games"] == []

    def test_it_costs_the_same_few_queries_however_many_games(
        self, client, django_assert_max_num_queries
    ):
        for deal in range(1, 6):
            play_some(client, start(client, "forty-thieves", deal), 2)
        with django_assert_max_num_queries(3):
            client.get(RECORDS)

    def test_my_games_links_to_it(self, client):
        assert f'href="{RECORDS}"' in client.get(MY_GAMES).content.decode()


def test_a_game_played_a_moment_ago_does_not_say_zero_minutes(client):
    game = start(client, "streets", 4)
    post_move(client, game, "deal")
    html = client.get("/my/").content.decode()
    assert "0\xa0minutes" not in html
    assert "played now" in html or "seconds ago" in html or "a second ago" in html
