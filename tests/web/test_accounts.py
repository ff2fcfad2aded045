"""Accounts: signing up, logging in and out, the account page, changing and resetting the
password, deleting the account."""

import html
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Game, Move

from .conftest import board, legal_move, post_move, start, url
from .solver_support import run_worker

User = get_user_model()
PASSWORD = "green felt 40 thieves"
SIGNUP = reverse("signup")
LOGIN = reverse("login")
LOGOUT = reverse("logout")
ACCOUNT = reverse("account")
DELETE = reverse("delete_account")
PASSWORD_CHANGE = reverse("password_change")
PASSWORD_RESET = reverse("password_reset")
MY_GAMES = reverse("games:my_games")


def make_user(username: str = "alice", password: str = PASSWORD, email: str = "") -> User:
    return User.objects.create_user(username, email, password)


def logged_in_as(client: Client) -> str | None:
    """The id of the user the client's session is logged in as, or None."""
    return client.session.get(SESSION_KEY)


def log_in(client: Client, username: str = "alice", password: str = PASSWORD, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


@pytest.fixture
def alice(db) -> User:
    return make_user()


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    assert log_in(client).status_code == 302
    return client


class TestSignUp:
    def test_the_form_asks_for_a_username_a_password_twice_and_maybe_an_email(self, client):
        response = client.get(SIGNUP)
        assert response.status_code == 200
        html = response.content.decode()
        for name in ("username", "email", "password1", "password2"):
            assert f'name="{name}"' in html
        assert "Email (optional)" in html

    def test_signing_up_makes_the_account_logs_in_and_goes_to_my_games(self, client):
        response = client.post(
            SIGNUP, {"username": "bob", "password1": PASSWORD, "password2": PASSWORD}
        )
        assert response.status_code == 302 and response["Location"] == MY_GAMES
        bob = User.objects.get(username="bob")
        assert bob.email == "" and bob.check_password(PASSWORD)
        assert logged_in_as(client) == str(bob.pk)
        assert "Welcome, bob" in client.get(MY_GAMES).content.decode()

    def test_the_email_is_kept_when_given(self, client):
        client.post(
            SIGNUP,
            {
                "username": "bob",
                "email": "bob@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert User.objects.get().email == "bob@example.org"

    def test_signing_up_gives_the_session_a_new_key(self, client):
        start(client)
        guest_key = client.session.session_key
        client.post(SIGNUP, {"username": "bob", "password1": PASSWORD, "password2": PASSWORD})
        assert client.session.session_key != guest_key

    @pytest.mark.parametrize(
        ("password", "complaint"),
        [
            ("short1", "too short"),
            ("password123", "too common"),
            ("4018273645", "entirely numeric"),
            ("bobbybobby", "too similar to the username"),
        ],
    )
    def test_djangos_password_validators_refuse_a_weak_password(self, client, password, complaint):
        response = client.post(
            SIGNUP, {"username": "bobbybobby", "password1": password, "password2": password}
        )
        assert response.status_code == 400
        assert complaint in response.content.decode()
        assert not User.objects.exists() and logged_in_as(client) is None

    @pytest.mark.parametrize(
        ("language", "complaint"),
        [
            ("en", "too short: it needs at least 8 characters"),
            ("fr", "trop court\u00a0: il lui faut au moins 8 caractères"),
            ("nl", "te kort: het moet minstens 8 tekens lang zijn"),
            ("pl", "za krótkie: musi mieć co najmniej 8 znaków"),
            ("vi", "quá ngắn: cần có ít nhất 8 ký tự"),
        ],
    )
    def test_a_short_password_is_refused_in_the_players_language(self, client, language, complaint):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = client.post(
            SIGNUP, {"username": "bob", "password1": "x7#kq", "password2": "x7#kq"}
        )
        assert response.status_code == 400
        assert complaint in html.unescape(response.content.decode())
        assert not User.objects.exists()

    def test_the_two_passwords_must_match(self, client):
        response = client.post(
            SIGNUP, {"username": "bob", "password1": PASSWORD, "password2": PASSWORD + "!"}
        )
        assert response.status_code == 400
        assert "fields didn\N{RIGHT SINGLE QUOTATION MARK}t match" in response.content.decode()

    def test_a_username_taken_in_another_case_is_refused(self, client, alice):
        response = client.post(
            SIGNUP, {"username": "ALICE", "password1": PASSWORD, "password2": PASSWORD}
        )
        assert response.status_code == 400
        assert "A user with that username already exists." in response.content.decode()
        assert User.objects.count() == 1

    def test_an_empty_form_is_400(self, client):
        assert client.post(SIGNUP, {}).status_code == 400

    def test_a_logged_in_player_is_sent_to_their_account(self, alice_client):
        response = alice_client.get(SIGNUP)
        assert response.status_code == 302 and response["Location"] == ACCOUNT

    def test_next_is_followed_on_this_site_only(self, client):
        data = {"username": "bob", "password1": PASSWORD, "password2": PASSWORD}
        response = client.post(SIGNUP + "?next=/en/rules/indian/", data)
        assert response["Location"] == "/en/rules/indian/"
        other = Client()
        data["username"] = "carol"
        response = other.post(SIGNUP + "?next=https://evil.example/", data)
        assert response["Location"] == MY_GAMES


class TestLogIn:
    def test_the_form_is_there_with_links_to_reset_and_sign_up(self, client):
        html = client.get(LOGIN).content.decode()
        assert 'name="username"' in html and 'name="password"' in html
        assert PASSWORD_RESET in html and SIGNUP in html

    def test_logging_in_goes_to_my_games_with_a_new_session_key(self, client, alice):
        start(client)
        guest_key = client.session.session_key
        response = log_in(client)
        assert response.status_code == 302 and response["Location"] == MY_GAMES
        assert logged_in_as(client) == str(alice.pk)
        assert client.session.session_key != guest_key

    def test_a_wrong_password_is_400_with_a_message(self, client, alice):
        response = log_in(client, password="not it")
        assert response.status_code == 400
        assert "Please enter a correct username and password" in response.content.decode()
        assert logged_in_as(client) is None

    def test_an_unknown_username_reads_the_same(self, client, alice):
        response = log_in(client, username="nobody")
        assert response.status_code == 400
        assert "Please enter a correct username and password" in response.content.decode()

    def test_an_empty_form_is_400(self, client):
        assert client.post(LOGIN, {}).status_code == 400

    def test_next_is_followed_on_this_site_only(self, client, alice):
        response = client.post(
            LOGIN + "?next=/import/", {"username": "alice", "password": PASSWORD}
        )
        assert response["Location"] == "/import/"
        response = Client().post(
            LOGIN, {"username": "alice", "password": PASSWORD, "next": "//evil.example/"}
        )
        assert response["Location"] == MY_GAMES

    def test_a_logged_in_player_is_sent_on_never_round_in_a_loop(self, alice_client):
        response = alice_client.get(LOGIN + "?next=" + LOGIN)
        assert response.status_code == 302 and response["Location"] == MY_GAMES
        assert alice_client.get(LOGIN)["Location"] == MY_GAMES

    def test_an_inactive_account_cannot_log_in(self, client, alice):
        alice.is_active = False
        alice.save()
        assert log_in(client).status_code == 400
        assert logged_in_as(client) is None

    def test_the_header_offers_log_in_and_sign_up_then_the_account_and_log_out(
        self, client, alice_client
    ):
        html = client.get("/en/").content.decode()
        assert f'href="{LOGIN}"' in html and f'href="{SIGNUP}"' in html
        assert f'action="{LOGOUT}"' not in html
        html = alice_client.get("/en/").content.decode()
        assert f'href="{LOGIN}"' not in html
        assert f'action="{LOGOUT}"' in html and f'href="{ACCOUNT}"' in html and "alice" in html
        assert f'href="{MY_GAMES}"' in html


class TestLogOut:
    def test_logging_out_takes_a_post_and_leaves_a_guest(self, alice_client):
        game = start(alice_client)
        response = alice_client.post(LOGOUT)
        assert response.status_code == 302 and response["Location"] == "/en/"
        assert logged_in_as(alice_client) is None
        assert alice_client.get(url("game", game)).status_code == 404
        assert "You are logged out." in alice_client.get("/en/").content.decode()

    def test_a_get_does_not_log_out(self, alice_client):
        assert alice_client.get(LOGOUT).status_code == 405
        assert logged_in_as(alice_client) is not None


class TestAccountPage:
    def test_it_needs_a_log_in(self, client):
        response = client.get(ACCOUNT)
        assert response.status_code == 302
        assert response["Location"] == f"{LOGIN}?next={ACCOUNT}"

    def test_it_shows_the_username_and_links_to_everything(self, alice_client):
        html = alice_client.get(ACCOUNT).content.decode()
        assert "alice" in html
        for link in (PASSWORD_CHANGE, DELETE, MY_GAMES, reverse("games:my_records")):
            assert f'href="{link}"' in html

    def test_the_email_can_be_set_and_cleared(self, alice_client, alice):
        response = alice_client.post(ACCOUNT, {"email": "alice@example.org"})
        assert response.status_code == 302
        alice.refresh_from_db()
        assert alice.email == "alice@example.org"
        alice_client.post(ACCOUNT, {"email": ""})
        alice.refresh_from_db()
        assert alice.email == ""

    def test_a_bad_email_is_400(self, alice_client, alice):
        response = alice_client.post(ACCOUNT, {"email": "not an address"})
        assert response.status_code == 400
        assert "Enter a valid email address." in response.content.decode()


class TestPasswordChange:
    def test_it_needs_a_log_in(self, client):
        assert client.get(PASSWORD_CHANGE)["Location"].startswith(LOGIN)

    def test_changing_it_keeps_this_device_and_logs_out_the_others(self, alice, alice_client):
        phone = Client()
        log_in(phone)
        new = "a fresh deal of 104 cards"
        response = alice_client.post(
            PASSWORD_CHANGE,
            {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        )
        assert response.status_code == 302 and response["Location"] == ACCOUNT
        assert alice_client.get(ACCOUNT).status_code == 200
        assert phone.get(ACCOUNT).status_code == 302
        alice.refresh_from_db()
        assert alice.check_password(new)

    def test_a_wrong_old_password_is_400(self, alice, alice_client):
        new = "a fresh deal of 104 cards"
        response = alice_client.post(
            PASSWORD_CHANGE, {"old_password": "nope", "new_password1": new, "new_password2": new}
        )
        assert response.status_code == 400
        assert "Your old password was entered incorrectly" in response.content.decode()
        alice.refresh_from_db()
        assert alice.check_password(PASSWORD)

    def test_a_weak_new_password_is_400(self, alice_client):
        response = alice_client.post(
            PASSWORD_CHANGE,
            {"old_password": PASSWORD, "new_password1": "12345", "new_password2": "12345"},
        )
        assert response.status_code == 400
        assert "too short" in response.content.decode()


@pytest.mark.django_db(transaction=True)  # the worker, run here, closes its connections
class TestPasswordReset:
    def reset_link(self) -> str:
        run_worker()  # the mail goes through the task queue
        assert len(mail.outbox) == 1
        return re.search(r"https?://testserver(/account/reset/\S+/)", mail.outbox[0].body)[1]

    def test_a_link_by_email_sets_a_new_password(self, client):
        alice = make_user(email="alice@example.org")
        response = client.post(PASSWORD_RESET, {"email": "ALICE@example.org"})
        assert response.status_code == 302
        assert response["Location"] == reverse("password_reset_done")
        link = self.reset_link()
        message = mail.outbox[0]
        assert message.to == ["alice@example.org"]
        assert "alice" in message.body
        form_page = client.get(link, follow=True)
        assert form_page.status_code == 200
        assert 'name="new_password1"' in form_page.content.decode()
        new = "a fresh deal of 104 cards"
        response = client.post(
            form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
        )
        assert response.status_code == 302
        assert response["Location"] == reverse("password_reset_complete")
        alice.refresh_from_db()
        assert alice.check_password(new)
        assert log_in(Client(), password=new).status_code == 302

    def test_an_unknown_address_reads_the_same_and_sends_nothing(self, client, alice):
        response = client.post(PASSWORD_RESET, {"email": "nobody@example.org"})
        assert response.status_code == 302
        assert response["Location"] == reverse("password_reset_done")
        run_worker()
        assert mail.outbox == []

    def test_a_bad_address_is_400(self, client):
        assert client.post(PASSWORD_RESET, {"email": "nope"}).status_code == 400

    def test_no_address_is_kept_in_the_task_table(self, client):
        make_user("alice", email="alice@example.org")
        make_user("bob", email="Alice@Example.org")  # two accounts of one address
        client.post(PASSWORD_RESET, {"email": "alice@example.org"})
        client.post(PASSWORD_RESET, {"email": "nobody@example.org"})
        run_worker()
        assert sorted(m.to[0] for m in mail.outbox) == ["Alice@example.org", "alice@example.org"]
        rows = list(DBTaskResult.objects.values())
        assert len(rows) == 2 and all(row["status"] == "SUCCESSFUL" for row in rows)
        for row in rows:
            kept = json.dumps(row, default=str).casefold()
            assert "example.org" not in kept and "@" not in kept, kept

    def test_a_used_or_forged_link_is_400_with_a_message(self, client):
        make_user(email="alice@example.org")
        response = client.get(reverse("password_reset_confirm", args=["MQ", "forged-token"]))
        assert response.status_code == 400
        assert "This link does not work" in response.content.decode()

    def test_a_weak_new_password_is_400(self, client):
        make_user(email="alice@example.org")
        client.post(PASSWORD_RESET, {"email": "alice@example.org"})
        form_page = client.get(self.reset_link(), follow=True)
        response = client.post(
            form_page.redirect_chain[-1][0], {"new_password1": "abc", "new_password2": "abc"}
        )
        assert response.status_code == 400
        assert "too short" in response.content.decode()

    def test_the_log_in_page_links_here(self, client):
        assert f'href="{PASSWORD_RESET}"' in client.get(LOGIN).content.decode()


class TestDeleteAccount:
    def test_it_needs_a_log_in(self, client):
        assert client.get(DELETE)["Location"].startswith(LOGIN)
        assert client.post(DELETE, {"password": PASSWORD})["Location"].startswith(LOGIN)

    def test_the_page_asks_for_the_password(self, alice_client):
        response = alice_client.get(DELETE)
        assert response.status_code == 200
        assert 'name="password"' in response.content.decode()

    def test_the_right_password_deletes_the_account_and_every_game(self, alice, alice_client):
        game = start(alice_client)
        for _ in range(3):
            post_move(alice_client, game, legal_move(game))
        finished = start(alice_client, "indian", 2)
        alice_client.post(url("give_up", finished), board(finished))
        bob_client = Client()
        make_user("bob")
        log_in(bob_client, "bob")
        bobs = start(bob_client)
        response = alice_client.post(DELETE, {"password": PASSWORD})
        assert response.status_code == 302 and response["Location"] == "/en/"
        assert not User.objects.filter(username="alice").exists()
        assert list(Game.objects.all()) == [bobs]
        assert not Move.objects.exclude(game=bobs).exists()
        assert logged_in_as(alice_client) is None
        assert "Your account and all its games are deleted." in (
            alice_client.get("/en/").content.decode()
        )
        assert log_in(Client()).status_code == 400

    def test_a_wrong_password_is_400_and_deletes_nothing(self, alice, alice_client):
        start(alice_client)
        response = alice_client.post(DELETE, {"password": "not it"})
        assert response.status_code == 400
        assert "That is not your password." in response.content.decode()
        assert User.objects.filter(pk=alice.pk).exists() and Game.objects.count() == 1

    def test_an_empty_form_is_400(self, alice_client):
        assert alice_client.post(DELETE, {}).status_code == 400
