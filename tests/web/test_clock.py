"""The clock: every gap between two of the player's actions counted to the millisecond, at most
two minutes a gap, less the time the page said it was hidden; shown on the page with what the
page's script needs to tick on; kept in the record; the time games had before kept exactly."""

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game
from games.pace import IDLE, drawn_at
from solitaire import clock as site_clock

from .conftest import HTMX, board, log, post_move, url

pytestmark = pytest.mark.django_db


def ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


def last_action_ago(game: Game, delta: timedelta):
    """Make the game's last action ``delta`` ago; the moment it is now at."""
    back = site_clock.now() - delta
    Game.objects.filter(pk=game.pk).update(updated_at=back)
    return back


def counted(client, game, delta: timedelta, **extra) -> tuple[int, int]:
    """Play a deal ``delta`` after the last action: the time the clock added, and the most it
    may have added (the gap as it really was when the answer came)."""
    game.refresh_from_db()
    before = game.milliseconds_played
    back = last_action_ago(game, delta)
    data = {"move": "deal", **board(game), **extra}
    response = client.post(url("move", game), data, headers=HTMX)
    most = ms(site_clock.now() - back)
    assert response.status_code == 200, response.content[:300]
    game.refresh_from_db()
    return game.milliseconds_played - before, most


class TestGaps:
    def test_a_gap_counts_to_the_millisecond_not_rounded_down_to_seconds(self, client, game):
        added, most = counted(client, game, timedelta(milliseconds=1_999))
        assert 1_999 <= added <= most

    def test_twelve_gaps_of_a_second_and_a_half_make_eighteen_seconds(self, client, game):
        total = 0
        for _ in range(12):
            added, _most = counted(client, game, timedelta(milliseconds=1_500))
            total += added
        assert total >= 18_000
        game.refresh_from_db()
        assert game.milliseconds_played == total and game.clock.startswith("0:18")

    def test_a_gap_longer_than_two_minutes_counts_two_minutes(self, client, game):
        added, _most = counted(client, game, timedelta(hours=9))
        assert added == ms(IDLE) == 120_000

    def test_the_time_the_page_was_hidden_is_left_out(self, client, game):
        added, most = counted(client, game, timedelta(seconds=60), away="20000")
        assert 40_000 <= added <= most - 20_000

    def test_a_page_hidden_all_the_gap_adds_only_what_a_person_needs_to_act(
        self, client, game, settings
    ):
        added, _most = counted(client, game, timedelta(seconds=5), away="999999")
        assert added == settings.HUMAN_ACTION_MS == 250

    def test_a_gap_shorter_than_a_persons_action_counts_as_it_was(self, client, game):
        added, most = counted(client, game, timedelta(milliseconds=40), away="999999")
        assert 40 <= added <= most

    def test_the_time_before_the_page_was_drawn_does_not_count(self, client, game):
        post_move(client, game, "deal")
        last_action_ago(game, timedelta(seconds=90))  # the tab closed a minute and a half
        page = client.get(url("game", game)).content.decode()
        drawn = re.search(r'name="drawn" value="([^"]+)"', page).group(1)
        added, _most = counted(client, game, timedelta(seconds=90), drawn=drawn)
        assert added < 10_000

    def test_a_board_redrawn_in_place_keeps_the_pages_drawing(self, client, game):
        post_move(client, game, "deal")
        back = last_action_ago(game, timedelta(seconds=60))
        page = client.get(url("game", game)).content.decode()
        drawn = re.search(r'name="drawn" value="([^"]+)"', page).group(1)
        refused = client.post(
            url("move", game), {"move": "t1-t1", **board(game), "drawn": drawn}, headers=HTMX
        ).content.decode()
        again = re.search(r'name="drawn" value="([^"]+)"', refused).group(1)
        assert drawn_at(again) == drawn_at(drawn) > back + timedelta(seconds=59)

    @pytest.mark.parametrize("drawn", ["", "garbled", "1796324895327:forged-signature"])
    def test_a_drawing_the_server_cannot_vouch_for_counts_from_the_last_action(
        self, client, game, drawn
    ):
        added, most = counted(client, game, timedelta(seconds=30), drawn=drawn)
        assert 30_000 <= added <= most

    def test_a_long_gap_mostly_hidden_counts_what_was_seen_up_to_the_cap(self, client, game):
        added, _most = counted(client, game, timedelta(minutes=30), away=str(29 * 60 * 1000))
        assert 60_000 <= added <= 61_000

    @pytest.mark.parametrize("away", ["-5", "1e3", "soon", "1234567890123"])
    def test_a_garbled_away_is_400_and_changes_nothing(self, client, game, away):
        before = (game.milliseconds_played, game.version)
        response = client.post(url("move", game), {"move": "deal", **board(game), "away": away})
        assert response.status_code == 400
        game.refresh_from_db()
        assert (game.milliseconds_played, game.version) == before and log(game) == []

    def test_undo_redo_restart_and_giving_up_run_the_clock_too(self, client, game):
        post_move(client, game, "deal")
        for name in ("undo", "redo", "restart", "give_up"):
            game.refresh_from_db()
            before = game.milliseconds_played
            last_action_ago(game, timedelta(seconds=3))
            response = client.post(url(name, game), {**board(game), "away": "1000"}, headers=HTMX)
            assert response.status_code == 200
            game.refresh_from_db()
            assert 2_000 <= game.milliseconds_played - before < 3_000, name


class TestShown:
    def test_the_clock_carries_what_the_page_ticks_on(self, client, game):
        post_move(client, game, "deal")
        game.refresh_from_db()
        Game.objects.filter(pk=game.pk).update(milliseconds_played=75_250)
        last_action_ago(game, timedelta(seconds=4))
        html = client.get(url("game", game)).content.decode()
        clock = re.search(r"<time [^>]*data-clock[^>]*>([^<]*)</time>", html)
        assert clock.group(1) == "1:15"
        assert 'datetime="PT75.250S"' in clock.group(0) and 'data-ms="75250"' in clock.group(0)
        assert 'data-idle="120000"' in clock.group(0)
        # The page ticks on from its drawing, not from the action before it was drawn.
        since = int(re.search(r'data-since="(\d+)"', clock.group(0)).group(1))
        assert since < 1_000
        at = int(re.search(r'data-at="(\d+)"', clock.group(0)).group(1))
        game.refresh_from_db()
        assert at == int(game.updated_at.timestamp() * 1000)

    def test_a_finished_games_clock_stands_still(self, client, game):
        client.post(url("give_up", game), board(game))
        html = client.get(url("game", game)).content.decode()
        clock = re.search(r"<time [^>]*data-clock[^>]*>", html).group(0)
        assert "data-since" not in clock and "data-at" not in clock

    def test_the_record_keeps_the_time_to_the_millisecond(self, client, game):
        post_move(client, game, "deal")
        Game.objects.filter(pk=game.pk).update(milliseconds_played=61_007)
        record = json.loads(client.get(url("record", game)).content)
        assert record["milliseconds_played"] == 61_007

    def test_the_history_shows_the_clock(self, client, game):
        post_move(client, game, "deal")
        Game.objects.filter(pk=game.pk).update(milliseconds_played=3_725_900)
        html = client.get("/my/history/").content.decode()
        assert "1:02:05" in html


@pytest.mark.django_db(transaction=True)
class TestMigration:
    """games 0008: a game keeps the time it had, exactly; its automatic moves are counted from
    its log, which marks each of them."""

    def test_seconds_become_milliseconds_and_the_automatic_moves_are_counted(self):
        executor = MigrationExecutor(connection)
        leaves = [node for node in executor.loader.graph.leaf_nodes() if node[0] == "games"]
        executor.migrate([("games", "0007_move_checkpoints")])
        old = executor.loader.project_state(("games", "0007_move_checkpoints")).apps
        OldGame, OldMove = old.get_model("games", "Game"), old.get_model("games", "Move")
        played = OldGame.objects.create(
            session_key="k", variant="forty-thieves", deal="1", snapshot="", seconds_played=75
        )
        played.ply = 3
        played.save()
        for ply, automatic in ((1, False), (2, True), (3, True)):
            OldMove.objects.create(game=played, ply=ply, notation="deal", automatic=automatic)
        untouched = OldGame.objects.create(
            session_key="k", variant="lucas", deal="2", snapshot="", seconds_played=0
        )
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)
        played, untouched = (Game.objects.get(pk=g.pk) for g in (played, untouched))
        assert (played.milliseconds_played, played.automatic_ply) == (75_000, 2)
        assert played.player_moves == 1 and played.clock == "1:15" and played.finish == []
        assert (untouched.milliseconds_played, untouched.automatic_ply) == (0, 0)
