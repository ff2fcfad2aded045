"""The log-in throttle: failed password checks per username and per address, refused for a
while once there were too many."""

import time

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.test import Client, RequestFactory

from solitaire.accounts import throttle
from solitaire.accounts.throttle import PER_ADDRESS, PER_USERNAME

from .test_accounts import ACCOUNT, DELETE, LOGIN, PASSWORD, PASSWORD_CHANGE, log_in, make_user


def fail(client: Client, times: int, username: str = "alice", address: str = "192.0.2.1"):
    for _ in range(times):
        response = log_in(client, username, "wrong guess", REMOTE_ADDR=address)
        assert response.status_code == 400, response.status_code


def later(monkeypatch, seconds: float) -> None:
    """Move the clock on (the throttle's and the local-memory cache's)."""
    now = time.time() + seconds
    monkeypatch.setattr(time, "time", lambda: now)


@pytest.fixture
def local_cache(settings):
    """The local-memory cache, whose clock ``later`` can move (Redis keeps its own time)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    yield
    cache.clear()


@pytest.fixture
def alice(db):
    return make_user()


class TestPerUsername:
    def test_too_many_failures_refuse_even_the_right_password_with_429(self, client, alice):
        fail(client, PER_USERNAME.failures)
        response = log_in(client, REMOTE_ADDR="192.0.2.1")
        assert response.status_code == 429
        assert 0 < int(response["Retry-After"]) <= PER_USERNAME.window
        html = response.content.decode()
        assert "Too many failed attempts: wait 15 minutes and try again." in html
        assert client.session.get("_auth_user_id") is None

    def test_one_failure_fewer_is_still_allowed(self, client, alice):
        fail(client, PER_USERNAME.failures - 1)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_username_counts_from_any_address_and_in_any_case(self, client, alice):
        for n in range(PER_USERNAME.failures):
            fail(Client(), 1, "ALICE" if n % 2 else "alice", address=f"192.0.2.{n + 10}")
        response = log_in(Client(), REMOTE_ADDR="198.51.100.7")
        assert response.status_code == 429

    def test_other_usernames_are_not_held_up(self, client, alice):
        make_user("bob")
        fail(client, PER_USERNAME.failures)
        assert log_in(client, "bob", REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_a_success_forgets_the_usernames_failures(self, client, alice):
        fail(client, PER_USERNAME.failures - 1)
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302
        fail(client, PER_USERNAME.failures - 1)
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_refusal_ends_after_the_window(self, client, alice, monkeypatch, local_cache):
        fail(client, PER_USERNAME.failures)
        later(monkeypatch, PER_USERNAME.window - 5)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 429
        later(monkeypatch, PER_USERNAME.window + 1)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_failures_far_apart_do_not_add_up(self, client, alice, monkeypatch, local_cache):
        fail(client, PER_USERNAME.failures - 1)
        later(monkeypatch, PER_USERNAME.window + 1)
        fail(client, 1)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    def test_the_counts_live_in_djangos_cache(self, client, alice):
        fail(client, PER_USERNAME.failures)
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 429
        cache.clear()
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 302

    @pytest.mark.skipif(
        not settings.CACHES["default"]["BACKEND"].endswith("RedisCache"),
        reason="needs the shared cache: set REDIS_URL",
    )
    def test_every_process_sees_the_counts_in_redis(self, client, alice):
        fail(client, PER_USERNAME.failures)
        # A second process's connection: a new cache client, nothing shared in memory.
        other = caches.create_connection("default")
        key = throttle.cache_key(PER_USERNAME, "alice", "until")
        assert other.get(key) > time.time()
        assert (
            0
            < other._cache.get_client(key).ttl(other.make_and_validate_key(key))
            <= (PER_USERNAME.window)
        )
        assert log_in(Client(), REMOTE_ADDR="198.51.100.1").status_code == 429


class TestPerAddress:
    def test_too_many_failures_from_one_address_refuse_every_username(self, client, alice):
        for n in range(PER_ADDRESS.failures):
            fail(client, 1, username=f"guess{n}")
        assert log_in(client, REMOTE_ADDR="192.0.2.1").status_code == 429
        assert log_in(Client(), REMOTE_ADDR="192.0.2.2").status_code == 302

    def test_a_success_does_not_forget_the_addresses_failures(self, client, alice):
        for n in range(PER_ADDRESS.failures - 1):
            fail(client, 1, username=f"guess{n}")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 302
        fail(client, 1, username="guess-last")
        assert log_in(Client(), REMOTE_ADDR="192.0.2.1").status_code == 429

    def test_an_ipv6_address_counts_by_its_64(self, client, alice):
        for n in range(PER_ADDRESS.failures):
            fail(client, 1, username=f"guess{n}", address=f"2001:db8:1:2::{n + 1:x}")
        assert log_in(Client(), REMOTE_ADDR="2001:db8:1:2:ffff::1").status_code == 429
        assert log_in(Client(), REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


class TestClientAddress:
    def request(self, **meta):
        return RequestFactory().get("/", **meta)

    def test_the_connections_address_by_default(self):
        request = self.request(REMOTE_ADDR="192.0.2.5", HTTP_X_FORWARDED_FOR="203.0.113.9")
        assert throttle.client_address(request) == "192.0.2.5"

    def test_behind_a_proxy_the_last_address_its_header_names(self, settings):
        settings.CLIENT_IP_HEADER = "X-Forwarded-For"
        request = self.request(
            REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.9"
        )
        assert throttle.client_address(request) == "203.0.113.9"
        assert throttle.client_address(self.request(REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"

    def test_an_ipv6_address_is_its_64(self):
        request = self.request(REMOTE_ADDR="2001:db8:0:7:1:2:3:4")
        assert throttle.client_address(request) == "2001:db8:0:7::/64"


class TestOtherPasswordChecks:
    @pytest.fixture
    def alice_client(self, alice):
        client = Client(REMOTE_ADDR="192.0.2.1")
        assert log_in(client).status_code == 302
        return client

    def test_deleting_the_account_is_throttled(self, alice, alice_client):
        for _ in range(PER_USERNAME.failures):
            assert alice_client.post(DELETE, {"password": "guess"}).status_code == 400
        response = alice_client.post(DELETE, {"password": PASSWORD})
        assert response.status_code == 429 and "Retry-After" in response
        assert "Too many failed attempts" in response.content.decode()
        alice.refresh_from_db()

    def test_changing_the_password_is_throttled(self, alice, alice_client):
        new = "a fresh deal of 104 cards"
        data = {"old_password": "guess", "new_password1": new, "new_password2": new}
        for _ in range(PER_USERNAME.failures):
            assert alice_client.post(PASSWORD_CHANGE, data).status_code == 400
        data["old_password"] = PASSWORD
        assert alice_client.post(PASSWORD_CHANGE, data).status_code == 429
        alice.refresh_from_db()
        assert alice.check_password(PASSWORD)
        assert alice_client.get(ACCOUNT).status_code == 200

    def test_the_log_in_page_is_refused_too_once_the_username_is_held(self, alice, alice_client):
        for _ in range(PER_USERNAME.failures):
            alice_client.post(DELETE, {"password": "guess"})
        assert log_in(Client(), REMOTE_ADDR="198.51.100.1").status_code == 429
        assert Client().get(LOGIN).status_code == 200
