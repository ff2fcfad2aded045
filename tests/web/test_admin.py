"""The staff's admin at /admin/: an account made by create_staff sees the players, the games
(read-only, each with a replay), analyses, winnable deals and the task queue; players do not
get in."""

import os
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from games.models import Analysis, Game, WinnableDeal
from games.tasks import find_winnable_deals

from .conftest import legal_move, log, post_move, start
from .test_accounts import log_in, make_user

User = get_user_model()
STAFF_PASSWORD = "staff pass phrase 42"


def create_staff(*args: str, password: str = STAFF_PASSWORD) -> str:
    out = StringIO()
    os.environ["STAFF_PASSWORD"] = password
    try:
        call_command("create_staff", *args, stdout=out)
    finally:
        del os.environ["STAFF_PASSWORD"]
    return out.getvalue()


@pytest.fixture
def staff_client(db) -> Client:
    create_staff("sam")
    client = Client()
    assert log_in(client, "sam", STAFF_PASSWORD).status_code == 302
    return client


@pytest.mark.django_db
class TestCreateStaff:
    def test_it_makes_a_staff_account_from_the_environments_password(self):
        out = create_staff("sam", "--email", "sam@example.org")
        sam = User.objects.get(username="sam")
        assert sam.is_staff and not sam.is_superuser and sam.check_password(STAFF_PASSWORD)
        assert sam.email == "sam@example.org"
        assert "staff account sam created" in out

    def test_an_existing_player_becomes_staff_with_the_new_password(self):
        make_user("alice")
        assert "staff account alice updated" in create_staff("alice")
        alice = User.objects.get(username="alice")
        assert alice.is_staff and alice.check_password(STAFF_PASSWORD)

    def test_a_superuser_if_asked(self):
        create_staff("root", "--superuser")
        assert User.objects.get(username="root").is_superuser

    def test_a_weak_password_is_refused_and_nothing_made(self):
        with pytest.raises(CommandError, match=r"too common|too short"):
            create_staff("sam", password="password")
        assert not User.objects.filter(username="sam").exists()

    def test_without_a_password_or_a_terminal_it_says_what_to_do(self):
        with pytest.raises(CommandError, match="STAFF_PASSWORD"):
            call_command("create_staff", "sam", stdout=StringIO())


@pytest.mark.django_db
class TestWhoGetsIn:
    def test_a_guest_is_sent_to_the_admins_log_in(self, client):
        response = client.get("/admin/")
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")

    def test_a_player_who_is_not_staff_does_not_see_the_admin(self, client):
        make_user("alice")
        log_in(client, "alice")
        assert client.get("/admin/games/game/").status_code == 302

    def test_the_admin_is_not_under_a_language_prefix(self, staff_client):
        assert staff_client.get("/fr/admin/").status_code == 404
        assert staff_client.get("/admin/").status_code == 200


@pytest.mark.django_db
class TestWhatStaffSee:
    def test_the_index_lists_players_games_analyses_winnable_deals_and_tasks(self, staff_client):
        page = staff_client.get("/admin/").content.decode()
        for url in (
            "/admin/auth/user/",
            "/admin/games/game/",
            "/admin/games/analysis/",
            "/admin/games/winnabledeal/",
            "/admin/django_tasks_database/dbtaskresult/",
        ):
            assert url in page, url

    def test_a_player_with_their_preferences(self, staff_client):
        alice = make_user("alice")
        alice_client = Client()
        log_in(alice_client, "alice")
        alice_client.post("/i18n/language/", {"language": "fr", "next": "/"})
        page = staff_client.get(f"/admin/auth/user/{alice.pk}/change/").content.decode()
        assert "alice" in page
        assert 'name="preferences-0-language"' in page
        assert '<option value="fr" selected>' in page

    def test_games_are_listed_and_shown_read_only(self, staff_client, client):
        game = start(client)
        listing = staff_client.get("/admin/games/game/").content.decode()
        assert game.public_id in listing
        page = staff_client.get(f"/admin/games/game/{game.pk}/change/")
        assert page.status_code == 200
        assert b'name="_save"' not in page.content
        assert staff_client.get("/admin/games/game/add/").status_code == 403
        response = staff_client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"})
        assert response.status_code == 403
        assert Game.objects.filter(pk=game.pk).exists()

    def test_a_game_replays_move_by_move(self, staff_client, client):
        game = start(client)
        first = legal_move(game)
        post_move(client, game, first)
        game.refresh_from_db()
        listing = staff_client.get("/admin/games/game/").content.decode()
        replay = f"/admin/games/game/{game.pk}/replay/{game.ply}/"
        assert replay in listing
        at_deal = staff_client.get(f"/admin/games/game/{game.pk}/replay/0/").content.decode()
        assert "moves: 0" in at_deal
        after = staff_client.get(f"/admin/games/game/{game.pk}/replay/1/").content.decode()
        assert f"<code>{log(game)[0]}</code>" in after
        # Past the end: the last position.
        assert staff_client.get(f"/admin/games/game/{game.pk}/replay/99/").status_code == 200

    def test_the_replay_of_no_game_is_404(self, staff_client):
        assert staff_client.get("/admin/games/game/999999/replay/0/").status_code == 404

    def test_analyses_winnable_deals_and_tasks_are_listed(self, staff_client, client):
        game = start(client)
        Analysis.objects.create(game=game, kind="hint", ply=0, version=game.version)
        WinnableDeal.objects.create(variant="forty-thieves", deal="12345", moves=["t1-f1"])
        find_winnable_deals.enqueue("forty-thieves", 1, 1, 0.1)
        analyses = staff_client.get("/admin/games/analysis/").content.decode()
        assert game.public_id in analyses
        assert "12345" in staff_client.get("/admin/games/winnabledeal/").content.decode()
        tasks = staff_client.get("/admin/django_tasks_database/dbtaskresult/").content.decode()
        assert "find_winnable_deals" in tasks
