"""Password work that cannot be turned into a flood: the admin's log-in is throttled as the
site's; a try is counted before its password is hashed, so tries sent at once hash no more than
the limit; the hashes of every form run a few at a time across the site, one more refused at
once; an unknown username costs one hash, as a known one does; each lock-out is one log line."""

import logging

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory

from solitaire import limits
from solitaire.accounts.forms import checked

from .counting_hasher import CountingHasher
from .test_accounts import LOGIN, PASSWORD, log_in

ADMIN_LOGIN = "/admin/login/"
PER_CLIENT = settings.LOGIN_FAILURES["username-address"][0]
PER_ADDRESS = settings.LOGIN_FAILURES["address"][0]
ADDRESS = "192.0.2.7"


@pytest.fixture(autouse=True)
def counted_hashes(settings):
    settings.PASSWORD_HASHERS = ["tests.web.counting_hasher.CountingHasher"]
    CountingHasher.hashes = 0


@pytest.fixture
def root(db):
    user = get_user_model().objects.create_superuser("root", "", PASSWORD)
    CountingHasher.hashes = 0
    return user


def admin_log_in(client: Client, password: str, address: str = ADDRESS):
    data = {"username": "root", "password": password, "next": "/admin/"}
    return client.post(ADMIN_LOGIN, data, REMOTE_ADDR=address)


class TestTheAdminsLogIn:
    def test_thirty_wrong_passwords_then_the_right_one_is_refused(self, root):
        client = Client()
        statuses = [admin_log_in(client, f"guess {n}").status_code for n in range(30)]
        assert statuses[:PER_CLIENT] == [200] * PER_CLIENT  # the form again, with its error
        assert set(statuses[PER_CLIENT:]) == {429}
        response = admin_log_in(client, PASSWORD)
        assert response.status_code == 429 and int(response["Retry-After"]) > 0
        assert "_auth_user_id" not in client.session
        # Only the guesses that were checked cost a hash.
        assert CountingHasher.hashes == PER_CLIENT

    def test_the_owner_from_elsewhere_is_let_in(self, root):
        for n in range(PER_CLIENT + 3):
            admin_log_in(Client(), f"guess {n}")
        response = admin_log_in(Client(), PASSWORD, address="198.51.100.9")
        assert response.status_code == 302 and response["Location"] == "/admin/"

    def test_its_tries_from_one_address_are_limited_like_the_sites(self, root):
        limit = settings.LIMITS["login-address"][0]
        statuses = [
            Client().post(ADMIN_LOGIN, {"username": f"x{n}"}, REMOTE_ADDR=ADDRESS).status_code
            for n in range(limit + 1)
        ]
        assert statuses[-1] == 429 and 429 not in statuses[:limit]


class TestTriesAtOnce:
    def test_tries_sent_together_hash_no_more_than_the_limit(self, root, settings):
        """Each try, while its hash runs, sends the next: as tries arriving together do, all
        before any failure is known. Counted before the hash, only the limit's worth run."""
        settings.PASSWORD_HASHES_AT_ONCE = 100  # here the count refuses, not the cap
        request = RequestFactory().post(LOGIN, REMOTE_ADDR=ADDRESS)
        ran = []

        def check() -> bool:
            ran.append(1)
            if len(ran) < 30:
                try:
                    checked(request, "root", check)
                except ValidationError as error:
                    assert error.code == "throttled"
            return False

        checked(request, "root", check)
        assert len(ran) == PER_CLIENT

    def test_a_busy_site_refuses_a_log_in_at_once_without_a_hash(self, root):
        with limits.slot("password-hash", settings.PASSWORD_HASHES_AT_ONCE, 30) as free:
            assert free
            response = log_in(Client(), "root", "guess", REMOTE_ADDR=ADDRESS)
            assert response.status_code == 429 and int(response["Retry-After"]) > 0
            assert "Too many requests: try again in 2 seconds." in response.content.decode()
            response = admin_log_in(Client(), PASSWORD)
            assert response.status_code == 429
        assert CountingHasher.hashes == 0
        # Refused for being busy, the tries were no guesses: all the client's tries are left.
        for n in range(PER_CLIENT):
            assert log_in(Client(), "root", f"guess {n}", REMOTE_ADDR=ADDRESS).status_code == 400
        assert log_in(Client(), "root", PASSWORD, REMOTE_ADDR=ADDRESS).status_code == 429

    def test_the_right_password_gives_its_try_back_to_the_address(self, root):
        for _ in range(PER_ADDRESS + 2):
            assert log_in(Client(), "root", PASSWORD, REMOTE_ADDR=ADDRESS).status_code == 302


class TestUnknownUsernames:
    def test_an_unknown_username_costs_one_hash_like_a_known_one(self, root):
        log_in(Client(), "root", "wrong", REMOTE_ADDR=ADDRESS)
        known = CountingHasher.hashes
        CountingHasher.hashes = 0
        log_in(Client(), "nobody-by-that-name", "wrong", REMOTE_ADDR=ADDRESS)
        assert known == CountingHasher.hashes == 1

    def test_an_unknown_username_is_locked_out_like_a_known_one(self, root):
        statuses = [
            log_in(Client(), "nobody", f"guess {n}", REMOTE_ADDR=ADDRESS).status_code
            for n in range(PER_CLIENT + 2)
        ]
        assert statuses == [400] * PER_CLIENT + [429, 429]
        assert CountingHasher.hashes == PER_CLIENT


def test_a_flood_logs_one_line_per_lockout_not_per_try(root, caplog):
    with caplog.at_level(logging.WARNING):
        for n in range(40):
            admin_log_in(Client(), f"guess {n}")
            log_in(Client(), f"user{n}", "guess", REMOTE_ADDR=ADDRESS)
    security = [r.getMessage() for r in caplog.records if r.name == "solitaire.security"]
    assert len(security) == 2, security  # root from the address, then the address itself
    assert any("username-address" in line and "root" in line for line in security)
    assert any(line.startswith("lockout: address") for line in security)
