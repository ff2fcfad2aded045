"""Honest counts: the moves Finish plays (a certain win's or a search's) are counted apart from
the player's own, like the automatic moves; a win with a hint, an analysis or Finish is "won
with help" on the won panel, in the history, in My games and in the statistics, is never a
best nor the fewest moves, and never ranks on a daily leaderboard."""

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from games import days, integrity
from games.models import Analysis, DailyDeal, Game
from games.owners import Owner
from games.rules import Move
from games.rules.solver.grading import measure
from games.selectors.leaderboards import HELPED_WORDS, leaderboard
from games.selectors.stats import deal_record, statistics
from games.services import assist, daily, play

from .conftest import HTMX, board, post_move, url, won_record
from .test_counts import counters, near_win, win_by_hand

pytestmark = pytest.mark.django_db

#: The moves before the end of the Indian win that the tests start from: a certain win.
LEFT = 12


def figures(html: str) -> dict[str, str]:
    """The won panel's figures, as read."""
    found = re.findall(r'<dd data-win="(\w+)">(.*?)</dd>', html)
    return {name: re.sub(r"<[^>]+>", "", text) for name, text in found}


def finish_certain_win(client, game: Game):
    response = client.post(url("finish", game), board(game), headers=HTMX)
    assert response.status_code == 200, response.content[:300]
    game.refresh_from_db()
    return response


def found_win(game: Game, kind: str, left: int = LEFT) -> Analysis:
    """What the worker writes once a search of ``kind`` found the win from ``game``'s board,
    ``left`` moves from the end of the Indian win."""
    return Analysis.objects.create(
        game=game,
        kind=kind,
        ply=game.ply,
        version=game.version,
        status=Analysis.Status.WON,
        moves=won_record().moves[-left:],
    )


def owner_of(client) -> Owner:
    return Owner(session_key=client.session.session_key)


class TestFinishCountedApart:
    def test_a_certain_win_s_finish_is_counted_apart_on_the_won_panel(self, client):
        game = near_win(client, LEFT)
        own = game.player_moves
        response = finish_certain_win(client, game)
        assert game.status == "won"
        assert (game.finish_ply, game.player_moves, game.ply) == (LEFT, own, own + LEFT)
        shown = figures(response.text)
        assert shown["moves"] == f"{own} + {LEFT} by Finish"
        assert counters(response.text) == f"{own} + {LEFT} by Finish"
        assert 'data-win="helped"' in response.text
        assert "Won with help" in response.text
        # The sentence above the figures does not call Finish's moves the player's either.
        assert f"in {game.clock}: Finish played the last moves." in response.text
        assert f"in {own} moves" not in response.text

    def test_a_search_s_finish_is_counted_apart_and_counts_a_hint(self, client):
        game = near_win(client, 60)
        assert not game.finish  # too far from the end for a certain win
        own = game.player_moves
        found_win(game, Analysis.Kind.ANALYSIS, 60)
        response = client.post(url("finish", game), board(game), headers=HTMX)
        assert response.status_code == 200
        game.refresh_from_db()
        assert (game.status, game.finish_ply, game.player_moves) == ("won", 60, own)
        assert game.hint_count == 1 and game.helped
        assert figures(response.text)["moves"] == f"{own} + 60 by Finish"

    def test_the_board_s_finish_plays_the_certain_win_when_a_search_s_is_known_too(self, client):
        # The board's Finish plays the certain win, which costs no hint; the answer's button
        # (win=found, test_analysis.py) plays the search's, as it says.
        game = near_win(client, LEFT)
        certain = list(game.finish)
        found_win(game, Analysis.Kind.ANALYSIS)
        response = client.post(url("finish", game), board(game), headers=HTMX)
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.status == "won" and game.hint_count == 0
        played = list(game.log.order_by("ply").values_list("notation", flat=True))
        assert played[-len(certain) :] == certain

    def test_automatic_moves_and_finish_are_both_apart(self, client):
        game = near_win(client, 40)
        # A few moves of the player's, with the automatic moves on, then Finish.
        for move in won_record().moves[-40:-LEFT]:
            post_move(client, game, move)
            game.refresh_from_db()
            if game.finish:
                break
        assert game.finish and game.automatic_ply > 0
        automatic, before = game.automatic_ply, game.ply
        finish_certain_win(client, game)
        assert game.finish_ply == game.ply - before
        assert game.player_moves == before - automatic
        moves = figures(client.get(url("game", game)).text)["moves"]
        assert moves == (
            f"{game.player_moves} + {automatic} automatic + {game.finish_ply} by Finish"
        )

    def test_the_stored_game_still_checks_against_its_log(self, client):
        game = near_win(client, LEFT)
        finish_certain_win(client, game)
        log = list(game.log.order_by("ply").values_list("ply", "notation", "automatic"))
        assert integrity.check_game(game, log) == []
        game.status = Game.Status.PLAYING
        assert any("finish_ply" in line for line in integrity.check_game(game, log))

    def test_a_win_played_by_hand_has_no_help(self, client):
        game = near_win(client, LEFT)
        html = win_by_hand(client, game).text
        assert game.finish_ply == 0 and not game.helped
        assert "by Finish" not in figures(html)["moves"]
        assert 'data-win="helped"' not in html


class TestWonWithHelp:
    def test_statistics_count_wins_with_help_apart_and_never_as_the_best(self, client):
        helped = near_win(client, LEFT)
        finish_certain_win(client, helped)
        overall = statistics(owner_of(client)).overall
        assert (overall.won, overall.won_with_help, overall.won_without_help) == (1, 1, 0)
        assert overall.fewest is None and overall.fastest is None
        assert overall.average_moves is None and overall.clean_wins == 0
        page = client.get(reverse("games:statistics")).text
        assert 'data-figure="won-with-help">1<' in page
        assert 'data-figure="won-without-help">0<' in page
        assert 'data-figure="fewest">—<' in page and 'data-figure="fastest">—<' in page

        alone = near_win(client, LEFT)
        win_by_hand(client, alone)
        overall = statistics(owner_of(client)).overall
        assert (overall.won, overall.won_with_help, overall.won_without_help) == (2, 1, 1)
        assert overall.fewest.public_id == alone.public_id
        assert overall.fewest.moves == len(won_record().moves)
        assert overall.fastest.public_id == alone.public_id

    def test_a_hint_alone_makes_a_win_one_with_help(self, client):
        game = near_win(client, LEFT)
        Game.objects.filter(pk=game.pk).update(hint_count=1)
        html = win_by_hand(client, game).text
        assert 'data-win="helped"' in html
        assert statistics(owner_of(client)).overall.won_with_help == 1

    def test_a_win_with_help_is_not_the_best_on_its_deal(self, client):
        alone = near_win(client, LEFT)
        win_by_hand(client, alone)
        helped = near_win(client, LEFT)
        response = finish_certain_win(client, helped)
        # Fewer moves of the player's own, but Finish played the rest: no new best.
        assert helped.player_moves < alone.player_moves
        shown = figures(response.text)
        assert shown["best"] == f"{alone.player_moves} moves, {alone.clock}"
        record = deal_record(owner_of(client), near_win(client, 30))
        assert record.best.public_id == alone.public_id

    def test_the_first_win_of_a_deal_with_help_is_no_best(self, client):
        response = finish_certain_win(client, game := near_win(client, LEFT))
        assert figures(response.text)["best"] == "No win without help yet"
        assert deal_record(owner_of(client), near_win(client, 30)).best is None
        assert game.helped

    def test_history_and_my_games_say_won_with_help(self, client):
        helped = near_win(client, LEFT)
        finish_certain_win(client, helped)
        history = client.get(reverse("games:history")).text
        assert re.search(r'<span class="result won helped">won with help</span>', history)
        mine = client.get(reverse("games:my_games")).text
        assert "Won with help: Indian, deal 1" in mine

        alone = near_win(client, LEFT)
        win_by_hand(client, alone)
        history = client.get(reverse("games:history")).text
        assert history.count('<span class="result won">won</span>') == 1
        assert "Won Indian, deal 1" in client.get(reverse("games:my_games")).text

    def test_the_history_shows_wins_with_and_without_help_apart(self, client):
        helped = near_win(client, LEFT)
        finish_certain_win(client, helped)
        alone = near_win(client, LEFT)
        win_by_hand(client, alone)
        for result, shown, hidden in (
            ("won-with-help", helped, alone),
            ("won-without-help", alone, helped),
        ):
            page = client.get(reverse("games:history"), {"result": result}).text
            assert shown.public_id in page and hidden.public_id not in page, result
        both = client.get(reverse("games:history"), {"result": "won"}).text
        assert helped.public_id in both and alone.public_id in both

    def test_a_shared_win_with_help_says_so_not_the_moves_alone(self, client, other_client):
        game = near_win(client, LEFT)
        finish_certain_win(client, game)
        response = client.post(url("share", game))
        assert response.status_code == 302
        page = other_client.get(response["Location"]).text
        assert f"Won with help, {game.clock}." in page
        assert f"Won in {game.player_moves} moves" not in page
        assert f'content="Won with help, {game.clock}."' in page


#: The automatic moves off in Lucas: every move of a win is played as the player's.
OFF = {"lucas": False}


class TestDailyRanking:
    def test_a_daily_win_finished_by_a_certain_win_does_not_rank(self, db):
        owner = Owner(session_key="a-player")
        game = daily.find_or_start_daily_game(owner, "lucas", days.today())
        graded = measure("lucas", game.deal_number)
        for ply, text in enumerate(graded.moves):
            outcome = play.play_move(owner, game.public_id, ply, None, Move.parse(text), OFF)
            if outcome.game.finish:
                break
        game = outcome.game
        assert game.status == "playing" and game.finish and game.hint_count == 0
        won = assist.finish(owner, game.public_id, game.ply, game.version).game
        assert won.status == "won" and won.finish_ply == len(game.finish)
        deal = DailyDeal.objects.get()
        board = leaderboard(deal, owner)
        assert board.rows == [] and board.unranked == str(HELPED_WORDS)


class TestMigration:
    def test_a_search_s_finish_is_found_again_in_the_games_stored_before(self, client):
        found = near_win(client, 60)
        found_win(found, Analysis.Kind.HINT, 60)
        assist.finish(owner_of(client), found.public_id, found.ply, found.version)
        certain = near_win(client, LEFT)
        finish_certain_win(client, certain)
        Game.objects.update(finish_ply=0)  # as stored before the migration
        migration = importlib.import_module("games.migrations.0013_finish_moves")
        migration.count_finished_wins(apps, None)
        found.refresh_from_db()
        certain.refresh_from_db()
        # The search's win is found in the log; the certain win left no trace.
        assert (found.finish_ply, certain.finish_ply) == (60, 0)
