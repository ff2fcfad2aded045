"""Hints: the button queues a search in the background worker (the real one, run here), the
page asks for the answer until it is there, and the answer names a legal move in words and
marks it for the board, without playing it. Every hint asked for counts on the game; a hint
for a board that has changed since says it is out of date."""

import itertools
from pathlib import Path

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Analysis
from games.rules import Move

from .conftest import HTMX, board, log, post_move, replayed, start, url, version_of
from .solver_support import answer, ask, near_stuck, near_win, run_worker, said, shown_move

# The real worker closes a connection left in a transaction when it runs, as it should in a
# process of its own; so these tests run outside the test case's transaction.
pytestmark = pytest.mark.django_db(transaction=True)

#: The game page's script that hears the board's htmx events, and calls the hints' module.
BOARD_SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "game" / "board.js"


class TestHint:
    def test_following_the_hints_goes_on_along_one_win_to_the_end(self, client):
        """A player who plays every hinted move wins: once a search found a win, each next
        hint is that win's next move, answered at once, never a step back the other way."""
        game = near_win(client, 12)
        client.post(url("autoplay", game), {"autoplay": "off"})  # every move the player's
        ask(client, "hint", game)
        run_worker()
        played = []
        for _step in range(40):
            game.refresh_from_db()
            if game.status == "won":
                break
            response = answer(client, "hint", game, game.version)
            assert said(response).startswith("This move leads to a win: ")
            move = shown_move(response)["move"]
            assert post_move(client, game, move).status_code == 200
            played.append(move)
            game.refresh_from_db()
            if game.status != "won":
                ask(client, "hint", game)
                assert not DBTaskResult.objects.ready().exists()  # known: no search queued
        assert game.status == "won"
        assert len(played) <= 12
        for before, after in itertools.pairwise(played):
            source, _sep, target = before.partition("-")
            assert after != f"{target}-{source}", played  # never straight back

    def test_a_hint_shows_a_winning_move_without_playing_it(self, client):
        game = near_win(client, 5)
        before = (game.ply, game.version, log(game))
        asked = ask(client, "hint", game)
        assert asked.status_code == 200
        assert "Thinking" in said(asked)
        assert 'hx-trigger="load delay:500ms"' in asked.content.decode()
        run_worker()
        response = answer(client, "hint", game, game.version)
        text = said(response)
        assert text.startswith("This move leads to a win: ")
        shown = shown_move(response)
        move = Move.parse(shown["move"])
        position = game.position()
        assert move in position.legal_moves()
        # The move is named in words, and the board is told which card and pile to mark.
        source, _sep, target = shown["move"].partition("-")
        assert (shown["source"], shown["target"]) == (source, target)
        assert "from column" in text or "from the waste" in text
        assert " of " in text  # a card's name: "Queen of Spades"
        game.refresh_from_db()
        assert (game.ply, game.version, log(game)) == before

    def test_without_a_win_in_time_the_hint_is_the_best_guess(self, client, settings):
        settings.SOLVER_HINT_SECONDS = 0.05
        game = start(client, "streets", 1)  # far from decided in a twentieth of a second
        ask(client, "hint", game)
        run_worker()
        response = answer(client, "hint", game, game.version)
        assert said(response).startswith("Best guess: ")
        assert Move.parse(shown_move(response)["move"]) in game.position().legal_moves()

    def test_a_hint_on_a_board_that_cannot_be_won_says_so_and_still_guesses(self, client):
        game = near_stuck(client, 10)
        ask(client, "hint", game)
        run_worker()
        response = answer(client, "hint", game, game.version)
        assert said(response).startswith("No sequence of moves wins from here any more.")
        assert "Best guess: " in said(response)
        assert Move.parse(shown_move(response)["move"]) in game.position().legal_moves()

    def test_every_hint_asked_for_counts_once_and_one_search_serves_them(self, client):
        game = near_win(client, 5)
        assert game.hint_count == 0
        ask(client, "hint", game)
        ask(client, "hint", game)
        game.refresh_from_db()
        assert game.hint_count == 2
        assert DBTaskResult.objects.count() == 1
        run_worker()
        ask(client, "hint", game)
        game.refresh_from_db()
        assert game.hint_count == 3
        assert DBTaskResult.objects.count() == 1

    def test_the_game_page_has_the_hint_button_and_the_answer_region(self, client):
        game = near_win(client, 5)
        page = client.get(url("game", game)).content.decode()
        assert 'id="hint"' in page
        assert f'action="{url("hint", game)}"' in page
        assert 'id="assist"' in page
        assert "js/game.js" in page and 'from "./hints.js"' in BOARD_SCRIPT.read_text()


class TestStaleHints:
    def test_a_hint_answered_after_a_move_says_it_is_out_of_date(self, client):
        game = near_win(client, 20)
        asked_at = game.version
        ask(client, "hint", game)
        post_move(client, game, str(game.position().legal_moves()[0]))
        run_worker()
        response = answer(client, "hint", game, asked_at)
        assert "out of date" in said(response)
        assert shown_move(response) == {}
        assert Analysis.objects.get().status == Analysis.Status.STALE

    def test_a_hint_answered_then_overtaken_by_a_move_is_out_of_date(self, client):
        game = near_win(client, 20)
        asked_at = game.version
        ask(client, "hint", game)
        run_worker()
        assert said(answer(client, "hint", game, asked_at)).startswith("This move leads")
        post_move(client, game, str(game.position().legal_moves()[0]))
        response = answer(client, "hint", game, asked_at)
        assert "out of date" in said(response)
        assert shown_move(response) == {}

    def test_asking_on_an_old_board_is_refused_and_not_counted(self, client):
        game = near_win(client, 20)
        old_ply, old_version = game.ply, game.version
        post_move(client, game, str(game.position().legal_moves()[0]))
        response = ask(client, "hint", game, ply=old_ply, version=old_version)
        assert "moved on" in said(response)
        game.refresh_from_db()
        assert game.hint_count == 0
        assert not Analysis.objects.exists()

    def test_no_hint_for_a_finished_game(self, client):
        game = near_win(client, 5)
        client.post(url("give_up", game), board(game))
        response = ask(client, "hint", game)
        assert response.status_code == 409
        assert "This game is over." in said(response)

    def test_a_garbled_request_is_refused(self, client):
        game = near_win(client, 5)
        response = client.post(
            url("hint", game), {"version": version_of(game), "ply": "x"}, headers=HTMX
        )
        assert response.status_code == 400
        assert client.get(url("hint", game), {"version": "-1"}).status_code == 400


class TestWithoutJavaScript:
    def test_the_hint_form_leads_to_a_page_that_reloads_until_the_answer(self, client):
        game = near_win(client, 5)
        response = ask(client, "hint", game, htmx=False)
        assert response.status_code == 302
        waiting = client.get(response["Location"])
        assert waiting.status_code == 200
        page = waiting.content.decode()
        assert "Thinking" in page
        assert '<meta http-equiv="refresh" content="1">' in page
        run_worker()
        done = client.get(response["Location"]).content.decode()
        assert "This move leads to a win: " in done
        assert "http-equiv" not in done
        assert f'href="{url("game", game)}"' in done


class TestOneSearchAtATime:
    def test_a_newer_search_replaces_the_older_one_still_waiting(self, client):
        first = near_win(client, 20)
        second = start(client, "forty-thieves", 2)
        ask(client, "analysis", first)
        response = ask(client, "hint", second)
        assert response.status_code == 200
        assert "Thinking" in said(response)
        # The older search is stopped: its page says so, quietly, and stops asking.
        older = answer(client, "analysis", first, first.version)
        assert older.status_code == 200
        assert said(older) == "You asked for another search since: this one was stopped."
        assert "hx-trigger" not in older.content.decode()
        # Only the newer one is left for the worker.
        assert DBTaskResult.objects.count() == 1
        run_worker()
        assert Move.parse(shown_move(answer(client, "hint", second, second.version))["move"])
        assert "stopped" in said(answer(client, "analysis", first, first.version))

    def test_asking_again_where_a_search_was_replaced_searches_again(self, client):
        first = near_win(client, 20)
        second = start(client, "forty-thieves", 2)
        ask(client, "analysis", first)
        ask(client, "hint", second)
        again = ask(client, "analysis", first)
        assert "Thinking" in said(again)
        # The hint on the second game is the one replaced now.
        assert "stopped" in said(answer(client, "hint", second, second.version))
        run_worker()
        assert said(answer(client, "analysis", first, first.version)).startswith("Yes")

    def test_a_search_already_running_is_replaced_too(self, client):
        first = near_win(client, 20)
        second = start(client, "forty-thieves", 2)
        ask(client, "analysis", first)
        Analysis.objects.update(status=Analysis.Status.RUNNING)  # a worker has it
        assert ask(client, "hint", second).status_code == 200
        assert "stopped" in said(answer(client, "analysis", first, first.version))

    def test_another_players_search_does_not_hold_one_up(self, client, other_client):
        ask(client, "analysis", near_win(client, 20))
        assert ask(other_client, "hint", near_win(other_client, 20)).status_code == 200
        assert Analysis.objects.pending().count() == 2


@pytest.mark.parametrize("moves_left", [1, 3])
def test_hints_followed_to_the_end_win_the_game(client, moves_left):
    """Playing what each hint shows wins a game a few moves from the end."""
    game = near_win(client, moves_left)
    for _n in range(moves_left * 2):
        game.refresh_from_db()
        if game.status == "won":
            break
        ask(client, "hint", game)
        run_worker()
        move = shown_move(answer(client, "hint", game, game.version))["move"]
        post_move(client, game, move)
    game.refresh_from_db()
    assert game.status == "won"
    assert game.snapshot == replayed(game)
    assert client.get(reverse("games:statistics")).status_code == 200
