"""The staff's admin at /admin/: an account made by create_staff sees the players, the games
(read-only, each with a replay), analyses, winnable deals and the task queue; players do not
get in."""

import os
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from games.admin import guest_code
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

    def test_a_guests_session_key_is_not_shown_only_a_code_for_the_guest(
        self, staff_client, client
    ):
        first, second = start(client), start(client, deal=2)
        key = client.session.session_key
        pages = [
            staff_client.get(reverse("admin:games_game_changelist")).content.decode(),
            staff_client.get(reverse("admin:games_game_change", args=[first.pk])).content.decode(),
        ]
        assert all(key not in page for page in pages)
        code = guest_code(key)
        assert len(code) == 8 and all(f"guest {code}" in page for page in pages)
        assert guest_code(Client().session.session_key or "other") != code
        assert second.session_key == key

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


class FormFields(HTMLParser):
    """The fields a browser would send back from the page's form, as posted data."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button"):
            checkable = attrs.get("type") in ("checkbox", "radio")
            if checkable and "checked" not in attrs:
                return
            self.data.setdefault(name, []).append(attrs.get("value") or ("on" if checkable else ""))
        elif tag == "select":
            self.select = name
        elif tag == "option" and self.select and "selected" in attrs:
            self.data.setdefault(self.select, []).append(attrs.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


def change_form(client: Client, account) -> dict[str, list[str]]:
    """The fields of ``account``'s change form in the admin, as the page shows them."""
    parser = FormFields()
    page = client.get(f"/admin/auth/user/{account.pk}/change/")
    assert page.status_code == 200
    parser.feed(page.content.decode())
    return parser.data


def change_password(client: Client, account, password: str = "a new pass phrase 77"):
    return client.post(
        f"/admin/auth/user/{account.pk}/password/",
        {"password1": password, "password2": password, "usable_password": "true"},
    )


@pytest.fixture
def superuser_client(db) -> Client:
    create_staff("root", "--superuser")
    client = Client()
    assert log_in(client, "root", STAFF_PASSWORD).status_code == 302
    return client


@pytest.mark.django_db
class TestLeastPrivilege:
    """Staff look after players; who may do what is for superusers alone, in the form and on
    the server."""

    @pytest.mark.parametrize(
        "privilege, value",
        [
            ("is_superuser", "on"),
            ("is_staff", "on"),
            ("groups", "STAFF_GROUP"),
            ("user_permissions", "A_PERMISSION"),
        ],
    )
    def test_staff_posting_a_players_form_with_a_privilege_changes_none(
        self, staff_client, privilege, value
    ):
        alice = make_user("alice")
        form = change_form(staff_client, alice)
        assert privilege not in form  # not offered
        form[privilege] = [posted(value)]
        response = staff_client.post(f"/admin/auth/user/{alice.pk}/change/", form)
        assert response.status_code == 302  # the rest of the form is saved
        alice.refresh_from_db()
        assert not (alice.is_superuser or alice.is_staff)
        assert not alice.groups.exists() and not alice.user_permissions.exists()

    def test_staff_cannot_raise_their_own_account(self, staff_client):
        sam = User.objects.get(username="sam")
        form = change_form(staff_client, sam)
        assert (
            'name="_save"'
            not in staff_client.get(f"/admin/auth/user/{sam.pk}/change/").content.decode()
        )
        form["is_superuser"] = ["on"]
        form["user_permissions"] = [posted("A_PERMISSION")]
        response = staff_client.post(f"/admin/auth/user/{sam.pk}/change/", form)
        assert response.status_code == 403
        sam.refresh_from_db()
        assert not sam.is_superuser and not sam.user_permissions.exists()

    def test_staff_can_still_deactivate_a_player(self, staff_client):
        alice = make_user("alice")
        form = change_form(staff_client, alice)
        del form["is_active"]
        assert staff_client.post(f"/admin/auth/user/{alice.pk}/change/", form).status_code == 302
        alice.refresh_from_db()
        assert not alice.is_active

    def test_staff_cannot_change_a_superusers_or_another_staff_accounts_password(
        self, staff_client
    ):
        create_staff("root", "--superuser")
        create_staff("kim")
        for name in ("root", "kim", "sam"):
            account = User.objects.get(username=name)
            assert change_password(staff_client, account).status_code == 403
            account.refresh_from_db()
            assert account.check_password(STAFF_PASSWORD), name

    def test_staff_cannot_change_a_superusers_email(self, staff_client):
        create_staff("root", "--superuser", "--email", "root@example.org")
        root = User.objects.get(username="root")
        form = change_form(staff_client, root)
        form["email"] = ["sam@example.org"]
        response = staff_client.post(f"/admin/auth/user/{root.pk}/change/", form)
        assert response.status_code == 403
        root.refresh_from_db()
        assert root.email == "root@example.org"

    def test_a_superuser_can_change_privileges_and_passwords(self, superuser_client):
        create_staff("sam")
        sam = User.objects.get(username="sam")
        form = change_form(superuser_client, sam)
        assert "is_superuser" not in form  # offered, unticked
        form["is_superuser"] = ["on"]
        response = superuser_client.post(f"/admin/auth/user/{sam.pk}/change/", form)
        assert response.status_code == 302
        assert change_password(superuser_client, sam).status_code == 302
        sam.refresh_from_db()
        assert sam.is_superuser and sam.check_password("a new pass phrase 77")


def posted(value: str) -> str:
    """A value to post: the primary key of the group or a permission where the test names one."""
    if value == "STAFF_GROUP":
        return str(Group.objects.get(name="Staff").pk)
    if value == "A_PERMISSION":
        return str(Permission.objects.get(codename="delete_user").pk)
    return value
