"""manage.py housekeeping: expired sessions cleared, the games of guests whose session expired
deleted (never an account's), old task results pruned; each part said in its output."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django_tasks_db.models import DBTaskResult

from games.models import Analysis, Game, Move
from games.tasks import find_winnable_deals
from solitaire import clock as site_clock

from .conftest import legal_move, post_move, start
from .test_accounts import log_in, make_user


def housekeeping(*args: str) -> str:
    out = StringIO()
    call_command("housekeeping", *args, stdout=out)
    return out.getvalue()


def expire(client: Client, days: int = 1) -> None:
    """The client's session ran out ``days`` ago."""
    Session.objects.filter(session_key=client.session.session_key).update(
        expire_date=site_clock.now() - timedelta(days=days)
    )


def game_ids(*games: Game) -> set[int]:
    return set(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", flat=True))


@pytest.mark.django_db
class TestGuestsGames:
    def test_the_games_of_a_guest_whose_session_expired_go_with_their_moves(self, client):
        game = start(client)
        assert post_move(client, game, legal_move(game)).status_code == 200
        expire(client)
        out = housekeeping()
        assert not Game.objects.filter(pk=game.pk).exists()
        assert not Move.objects.filter(game_id=game.pk).exists()
        assert not Session.objects.filter(session_key=client.session.session_key).exists()
        assert "guest games: 1 deleted, of 1 guests whose session expired" in out
        assert "expired sessions: 1 cleared" in out

    def test_a_guest_with_a_live_session_keeps_their_games_and_plays_on(self, client):
        game = start(client)
        other = Client()
        gone = start(other, deal=2)
        expire(other)
        housekeeping()
        assert game_ids(game, gone) == {game.pk}
        assert client.get(f"/g/{game.public_id}/").status_code == 200
        assert post_move(client, game, legal_move(game)).status_code == 200

    def test_an_accounts_games_stay_even_when_its_sessions_expired(self, client, db):
        make_user("bob")
        assert log_in(client, "bob").status_code == 302
        game = start(client)
        expire(client, days=400)
        out = housekeeping()
        assert game_ids(game) == {game.pk}
        assert "guest games: 0 deleted" in out
        # A new session, the same account: the game is there.
        fresh = Client()
        assert log_in(fresh, "bob").status_code == 302
        assert fresh.get(f"/g/{game.public_id}/").status_code == 200

    def test_a_guest_who_signed_up_keeps_the_games_of_their_guest_days(self, client):
        game = start(client)
        response = client.post(
            "/account/signup/",
            {
                "username": "carol",
                "password1": "a long pass phrase",
                "password2": "a long pass phrase",
            },
        )
        assert response.status_code == 302
        expire(client)
        housekeeping()
        game.refresh_from_db()
        assert game.owner is not None and game.owner.username == "carol"

    def test_an_analysis_of_a_deleted_game_goes_too(self, client):
        game = start(client)
        Analysis.objects.create(game=game, kind="hint", ply=0, version=game.version)
        expire(client)
        housekeeping()
        assert not Analysis.objects.filter(game_id=game.pk).exists()

    def test_a_second_run_finds_nothing_more(self, client):
        start(client)
        expire(client)
        housekeeping()
        out = housekeeping()
        assert "expired sessions: 0 cleared" in out
        assert "guest games: 0 deleted" in out


def finished_task(days_ago: float, status: str = "SUCCESSFUL") -> DBTaskResult:
    result = find_winnable_deals.enqueue("forty-thieves", 1, 1, 0.1)
    when = site_clock.now() - timedelta(days=days_ago)
    DBTaskResult.objects.filter(pk=result.id).update(status=status, finished_at=when)
    return DBTaskResult.objects.get(pk=result.id)


@pytest.mark.django_db
class TestTaskResults:
    def test_results_finished_long_ago_are_pruned_recent_and_waiting_ones_kept(self):
        old = finished_task(10)
        old_failure = finished_task(30, status="FAILED")
        recent = finished_task(1)
        waiting = DBTaskResult.objects.get(
            pk=find_winnable_deals.enqueue("forty-thieves", 2, 1, 0.1).id
        )
        out = housekeeping()
        left = set(DBTaskResult.objects.values_list("pk", flat=True))
        assert left == {recent.pk, waiting.pk}
        assert old.pk not in left and old_failure.pk not in left
        assert "task results: 2 pruned (finished more than 7 days ago)" in out

    def test_the_age_is_an_option(self):
        finished_task(2)
        assert "task results: 1 pruned (finished more than 1 day ago)" in housekeeping(
            "--task-days", "1"
        )
