"""Lock-outs that hit the guesser, not the owner: failed log-ins counted per username and
client, per address, and per username (which only slows guessing); a device that logged in
before is not held up by failures elsewhere; a logged-in session's own password checks counted
per session."""

import logging

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from solitaire.accounts import throttle

from . import test_limits
from .test_accounts import (
    ACCOUNT,
    DELETE,
    LOGIN,
    LOGOUT,
    PASSWORD,
    PASSWORD_CHANGE,
    log_in,
    make_user,
)

PER_CLIENT, WINDOW = settings.LOGIN_FAILURES["username-address"]
#: The local-memory cache on a stopped clock, for every test here too.
clock = test_limits.clock
PER_ADDRESS = settings.LOGIN_FAILURES["address"][0]
PER_USERNAME = settings.LOGIN_FAILURES["username"][0]
NEW = "a fresh deal of 104 cards"


def fail(client: Client, times: int, username: str = "alice", address: str = "192.0.2.1"):
    for _ in range(times):
        response = log_in(client, username, "wrong guess", REMOTE_ADDR=address)
        assert response.status_code == 400, response.status_code


def fail_from_many(times: int, username: str = "alice") -> int:
    """``times`` wrong passwords for ``username``, each from another address; how many were
    refused unchecked (the username slowed)."""
    refused = 0
    for n in range(times):
        address = f"198.51.{n // 200}.{n % 200 + 1}"
        response = log_in(Client(), username, "wrong guess", REMOTE_ADDR=address)
        assert response.status_code in (400, 429), response.status_code
        refused += response.status_code == 429
    return refused


@pytest.fixture
def alice(db):
    return make_user()


@pytest.fixture
def usual_device(alice) -> Client:
    """Alice's own computer: she logged in there once, and out again."""
    device = Client(REMOTE_ADDR="203.0.113.50")
    assert log_in(device).status_code == 302
    assert throttle.DEVICE_COOKIE in device.cookies
    device.post(LOGOUT)
    return device


class TestPerUsernameAndClient:
    def test_too_many_failures_from_one_address_refuse_it_even_the_right_password(
        self, client, alice
    ):
        fail(client, PER_CLIENT)
        response = log_in(client, REMOTE_ADDR="192.0.2.1")
        assert response.status_code == 429
        assert 0 < int(response["Retry-After"]) <= WINDOW
        assert "Too many failed attempts: wait" in response.content.decode()
        assert client.session.get("_auth_user_id") is None

    def test_one_failure_fewer_is_still_allowed(self, client, alice):
        fail(client, PER_CLIENT - 1)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_owner_from_another_address_is_not_locked_out(self, client, alice):
        fail(client, PER_CLIENT)
        assert log_in(Client(), REMOTE_ADDR="198.51.100.7").status_code == 302

    def test_the_username_counts_in_any_case(self, client, alice):
        for n in range(PER_CLIENT):
            fail(client, 1, "ALICE" if n % 2 else "alice")
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 429

    def test_other_usernames_from_that_address_are_not_held_up(self, client, alice):
        make_user("bob")
        fail(client, PER_CLIENT)
        assert log_in(client, "bob", REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_a_success_forgets_that_clients_failures(self, client, alice):
        fail(client, PER_CLIENT - 1)
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302
        fail(client, PER_CLIENT - 1)
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_refusal_ends_with_the_window(self, client, alice, clock):
        fail(client, PER_CLIENT)
        response = log_in(client, REMOTE_ADDR="192.0.2.1")
        assert response.status_code == 429
        clock.later(int(response["Retry-After"]) + 1)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_counts_live_in_djangos_cache(self, client, alice):
        fail(client, PER_CLIENT)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 429
        cache.clear()
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302


class TestPerAddress:
    def test_too_many_failures_from_one_address_refuse_every_username(self, client, alice):
        for n in range(PER_ADDRESS):
            fail(client, 1, username=f"guess{n}")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 429
        assert log_in(Client(), REMOTE_ADDR="192.0.2.2").status_code == 302

    def test_a_success_does_not_forget_the_addresses_failures(self, client, alice):
        for n in range(PER_ADDRESS - 1):
            fail(client, 1, username=f"guess{n}")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302
        fail(client, 1, username="guess-last")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 429

    def test_an_ipv6_address_counts_by_its_64(self, client, alice):
        for n in range(PER_ADDRESS):
            fail(client, 1, username=f"guess{n}", address=f"2001:db8:1:2::{n + 1:x}")
        assert log_in(Client(), REMOTE_ADDR="2001:db8:1:2:ffff::1").status_code == 429
        assert log_in(Client(), REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


class TestPerUsernameOnlySlows:
    def test_guesses_from_many_addresses_are_slowed_not_locked(self, alice, clock):
        fail_from_many(PER_USERNAME + 3)
        response = log_in(Client(), REMOTE_ADDR="192.0.2.99")
        assert response.status_code == 429
        wait = int(response["Retry-After"])
        assert 0 < wait <= settings.LOGIN_DELAY_MAX
        assert f"wait {wait} second" in response.content.decode()
        clock.later(wait)
        assert log_in(Client(), REMOTE_ADDR="192.0.2.99").status_code == 302

    def test_the_delay_grows_with_each_failure_up_to_its_bound(self, alice, clock):
        fail_from_many(PER_USERNAME)
        waits = []
        for n in range(12):
            response = log_in(Client(), "alice", "wrong", REMOTE_ADDR=f"192.0.2.{n + 100}")
            if response.status_code == 429:
                waits.append(int(response["Retry-After"]))
                clock.later(waits[-1])
                response = log_in(Client(), "alice", "wrong", REMOTE_ADDR=f"192.0.2.{n + 100}")
            assert response.status_code == 400
        assert waits == sorted(waits) and waits[0] < waits[-1]
        assert max(waits) == settings.LOGIN_DELAY_MAX

    def test_after_50_wrong_passwords_elsewhere_the_owner_logs_in_at_once_from_her_device(
        self, alice, usual_device
    ):
        fail_from_many(50)
        response = log_in(usual_device, REMOTE_ADDR="203.0.113.50")
        assert response.status_code == 302
        assert usual_device.get(ACCOUNT).status_code == 200

    def test_a_forged_device_cookie_is_no_device(self, alice, usual_device):
        fail_from_many(PER_USERNAME + 3)
        forger = Client(REMOTE_ADDR="192.0.2.77")
        forger.cookies[throttle.DEVICE_COOKIE] = '{"id": "x", "users": ["alice"]}'
        assert log_in(forger, REMOTE_ADDR="192.0.2.77").status_code == 429

    def test_failures_on_the_device_itself_still_lock_it(self, alice, usual_device):
        fail(usual_device, PER_CLIENT, address="203.0.113.50")
        assert log_in(usual_device, REMOTE_ADDR="203.0.113.50").status_code == 429

    def test_the_device_is_not_locked_by_its_address_guessing_elsewhere(self, alice, usual_device):
        for n in range(PER_ADDRESS):
            fail(Client(), 1, username=f"guess{n}", address="203.0.113.50")
        assert log_in(Client(), REMOTE_ADDR="203.0.113.50").status_code == 429
        assert log_in(usual_device, REMOTE_ADDR="203.0.113.50").status_code == 302


class TestLog:
    def test_one_line_per_lockout(self, client, alice, caplog):
        with caplog.at_level(logging.WARNING, logger="solitaire.security"):
            fail(client, PER_CLIENT)
            log_in(client, REMOTE_ADDR="192.0.2.1")
            log_in(client, REMOTE_ADDR="192.0.2.1")
        lines = [r.getMessage() for r in caplog.records if r.name == "solitaire.security"]
        assert len(lines) == 1
        assert "lockout" in lines[0] and "alice" in lines[0] and "192.0.2.1" in lines[0]


class TestLoggedInSession:
    @pytest.fixture
    def alice_client(self, alice):
        client = Client(REMOTE_ADDR="192.0.2.1")
        assert log_in(client).status_code == 302
        return client

    def test_deleting_the_account_is_limited_per_session(self, alice, alice_client):
        times = settings.LIMITS["password-session"][0]
        for _ in range(times):
            assert alice_client.post(DELETE, {"password": "guess"}).status_code == 400
        response = alice_client.post(DELETE, {"password": PASSWORD})
        assert response.status_code == 429 and "Retry-After" in response
        assert "Too many failed attempts" in response.content.decode()
        alice.refresh_from_db()

    def test_changing_the_password_is_limited_per_session(self, alice, alice_client):
        data = {"old_password": "guess", "new_password1": NEW, "new_password2": NEW}
        for _ in range(settings.LIMITS["password-session"][0]):
            assert alice_client.post(PASSWORD_CHANGE, data).status_code == 400
        data["old_password"] = PASSWORD
        assert alice_client.post(PASSWORD_CHANGE, data).status_code == 429
        alice.refresh_from_db()
        assert alice.check_password(PASSWORD)
        assert alice_client.get(ACCOUNT).status_code == 200

    def test_a_locked_username_does_not_stop_the_owners_session(self, alice, alice_client):
        fail_from_many(50)
        for _ in range(PER_CLIENT):  # even from her own address
            log_in(Client(), "alice", "wrong guess", REMOTE_ADDR="192.0.2.1")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 429
        data = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
        assert alice_client.post(PASSWORD_CHANGE, data).status_code == 302
        assert alice_client.post(DELETE, {"password": NEW}).status_code == 302

    def test_a_sessions_failures_do_not_lock_the_log_in(self, alice, alice_client):
        for _ in range(settings.LIMITS["password-session"][0]):
            alice_client.post(DELETE, {"password": "guess"})
        assert log_in(Client(), REMOTE_ADDR="198.51.100.1").status_code == 302
        assert Client().get(LOGIN).status_code == 200
