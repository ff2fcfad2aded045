"""Can this still be won? A bounded search in the background worker (the real one, run
here) answers yes (with the next move, and "Finish" to play the win out), no, or not sure; one
search per board, however often it is asked. "Finish" plays every move through the services:
the game ends won, its log replays to its board, and it counts as a win with help."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Analysis, Game
from games.rules import Move
from solitaire import clock as site_clock

from .conftest import HTMX, log, post_move, replayed, start, url
from .solver_support import answer, ask, near_stuck, near_win, run_worker, said, shown_move

# The real worker closes a connection left in a transaction when it runs, as it should in a
# process of its own; so these tests run outside the test case's transaction.
pytestmark = pytest.mark.django_db(transaction=True)


def analysed(client, game):
    """Ask whether ``game`` can still be won, let the worker answer, and read the answer."""
    ask(client, "analysis", game)
    run_worker()
    game.refresh_from_db()
    return answer(client, "analysis", game, game.version)


def finish(client, game, *, ply=None, version=None, htmx=True, away=None):
    # As the answer's Finish button posts: the win the search found.
    data = {
        "ply": game.ply if ply is None else ply,
        "version": game.version if version is None else version,
        "win": "found",
    }
    if away is not None:
        data["away"] = away
    return client.post(url("finish", game), data, headers=HTMX if htmx else {})


class TestCanThisStillBeWon:
    def test_yes_with_the_next_move_and_a_finish_button(self, client):
        game = near_win(client, 20)
        response = analysed(client, game)
        text = said(response)
        assert text.startswith("Yes — next move: ")
        assert Move.parse(shown_move(response)["move"]) in game.position().legal_moves()
        finish_button = re.search(r'id="finish">Finish: play the (\d+) moves', response.text)
        assert finish_button
        assert int(finish_button.group(1)) == len(Analysis.objects.get().moves)

    def test_no_when_no_sequence_of_moves_wins(self, client):
        game = near_stuck(client, 10)
        assert game.status == "playing"
        response = analysed(client, game)
        assert said(response) == "No: no sequence of moves wins from here."
        assert shown_move(response) == {}
        assert 'id="finish"' not in response.text

    def test_not_sure_when_the_search_runs_out_of_time(self, client, settings):
        settings.SOLVER_ANALYSIS_SECONDS = 0.05
        game = start(client, "streets", 1)
        response = analysed(client, game)
        assert said(response) == "Not sure: no win found in 1 second."
        assert 'id="finish"' not in response.text
        stored = Analysis.objects.get()
        assert stored.status == "unknown" and stored.nodes > 0

    def test_the_answer_arrives_by_polling(self, client):
        game = near_win(client, 20)
        first = ask(client, "analysis", game)
        assert "Thinking" in said(first)
        poll = re.search(r'hx-get="([^"]+)" hx-trigger="load delay:500ms"', first.text).group(1)
        assert "Thinking" in said(client.get(poll, headers=HTMX))
        run_worker()
        assert said(client.get(poll, headers=HTMX)).startswith("Yes")

    def test_asking_again_about_the_same_board_reuses_the_search(self, client):
        game = near_win(client, 20)
        ask(client, "analysis", game)
        ask(client, "analysis", game)
        run_worker()
        ask(client, "analysis", game)
        assert Analysis.objects.filter(kind="analysis").count() == 1
        assert DBTaskResult.objects.count() == 1
        game.refresh_from_db()
        assert game.hint_count == 3

    def test_a_new_board_gets_a_new_search_and_the_old_one_is_skipped(self, client):
        game = near_win(client, 20)
        ask(client, "analysis", game)
        post_move(client, game, str(game.position().legal_moves()[0]))
        ask(client, "analysis", game)
        run_worker()
        statuses = sorted(Analysis.objects.values_list("status", flat=True))
        assert statuses == ["stale", "won"]

    def test_a_hint_after_a_yes_needs_no_search(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        ask(client, "hint", game)
        response = answer(client, "hint", game, game.version)
        assert said(response).startswith("This move leads to a win: ")
        assert DBTaskResult.objects.count() == 1


class TestFinish:
    def test_finish_plays_the_win_out_every_move_logged(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        game.refresh_from_db()
        start_ply, hints = game.ply, game.hint_count
        response = finish(client, game)
        assert response.status_code == 200
        assert "You won!" in response.text
        game.refresh_from_db()
        assert game.status == "won"
        win = Analysis.objects.get().moves
        assert game.ply == start_ply + len(win)
        assert log(game)[start_ply:] == win
        assert game.snapshot == replayed(game)
        assert game.hint_count == hints + 1

    def test_finish_leaves_the_time_the_page_was_hidden_off_the_clock(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        game.refresh_from_db()
        before = game.milliseconds_played
        Game.objects.filter(pk=game.pk).update(updated_at=site_clock.now() - timedelta(seconds=60))
        assert finish(client, game, away="50000").status_code == 200
        game.refresh_from_db()
        assert game.status == "won" and 10_000 <= game.milliseconds_played - before < 11_000

    def test_a_garbled_away_on_finish_is_400_and_changes_nothing(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        game.refresh_from_db()
        before = (game.version, game.hint_count, game.milliseconds_played)
        assert finish(client, game, away="soon").status_code == 400
        game.refresh_from_db()
        assert (game.version, game.hint_count, game.milliseconds_played) == before

    def test_a_finished_win_is_not_a_win_without_hints(self, client):
        game = near_win(client, 5)
        analysed(client, game)
        game.refresh_from_db()
        finish(client, game, htmx=False)
        page = client.get(reverse("games:statistics")).text
        assert re.search(r'data-figure="won">1<', page)
        assert re.search(r'data-figure="clean-wins">0<', page)

    def test_finish_without_javascript_comes_back_to_the_won_game(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        game.refresh_from_db()
        response = finish(client, game, htmx=False)
        assert response.status_code == 302
        assert "You won!" in client.get(response["Location"]).text

    def test_finish_on_a_stale_board_is_refused_and_changes_nothing(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        game.refresh_from_db()
        old_ply, old_version = game.ply, game.version
        post_move(client, game, str(game.position().legal_moves()[0]))
        game.refresh_from_db()
        before = (game.ply, game.version, game.snapshot, log(game), game.hint_count)
        response = finish(client, game, ply=old_ply, version=old_version)
        assert "moved on" in response.text
        assert f'data-version="{game.version}"' in response.text
        game.refresh_from_db()
        assert (game.ply, game.version, game.snapshot, log(game), game.hint_count) == before
        assert game.status == "playing"

    def test_finish_without_a_known_win_is_refused(self, client):
        game = near_stuck(client, 10)
        analysed(client, game)
        game.refresh_from_db()
        before = (game.ply, game.version, log(game))
        response = finish(client, game)
        assert response.status_code == 409
        assert "No win is known from this board" in response.text
        game.refresh_from_db()
        assert (game.ply, game.version, log(game)) == before

    def test_the_yes_for_an_old_board_offers_no_finish(self, client):
        game = near_win(client, 20)
        analysed(client, game)
        asked_at = game.version
        post_move(client, game, str(game.position().legal_moves()[0]))
        response = answer(client, "analysis", game, asked_at)
        assert "out of date" in said(response)
        assert 'id="finish"' not in response.text
