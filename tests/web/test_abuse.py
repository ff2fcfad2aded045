"""What an attacker sends gets a clear 4xx, never a server error: form bodies in another charset
than UTF-8, error pages that never read the body, and a password reset that answers the same
whether or not an address has an account."""

import logging

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import Game

from .conftest import HTMX, start
from .solver_support import run_worker
from .test_accounts import LOGIN, PASSWORD, make_user

TOKEN = "a" * 32
FORM = "application/x-www-form-urlencoded"
#: Charsets a form body may name that are not UTF-8, as an attacker (or an odd client) sends.
NOT_UTF8 = ["latin-1", "iso-8859-1", "utf-16", "UTF-16LE", "cp1252", "nonexistent", "☃"]


def attacker() -> Client:
    """A client that enforces CSRF, with a CSRF cookie and header it chose itself."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = TOKEN
    return client


def send(client: Client, path: str, body: bytes, content_type: str, **headers):
    return client.generic(
        "POST", path, body, content_type, headers={"X-CSRFToken": TOKEN, **headers}
    )


@pytest.fixture
def errors_logged(caplog):
    """The errors logged while the test runs (a 4xx is a warning at most)."""
    with caplog.at_level(logging.WARNING):
        yield lambda: [r for r in caplog.records if r.levelno >= logging.ERROR]


class TestCharsets:
    @pytest.mark.parametrize("charset", NOT_UTF8)
    @pytest.mark.parametrize("path", ["/new/", LOGIN, "/account/signup/", "/no/such/page/"])
    def test_a_form_in_another_charset_is_a_400(self, db, charset, path, errors_logged):
        body = f"variant=forty-thieves&username=%E9&csrfmiddlewaretoken={TOKEN}".encode()
        response = send(attacker(), path, body, f"{FORM}; charset={charset}")
        assert response.status_code == 400
        assert "The form was not sent in UTF-8" in response.content.decode()
        assert errors_logged() == []

    def test_a_utf16_body_as_utf16_is_a_400_and_starts_nothing(self, db):
        body = "variant=forty-thieves&deal=3".encode("utf-16")
        response = send(attacker(), "/new/", body, f"{FORM}; charset=utf-16")
        assert response.status_code == 400
        assert Game.objects.count() == 0

    def test_a_multipart_form_in_another_charset_is_a_400(self, db):
        body = b'--x\r\nContent-Disposition: form-data; name="text"\r\n\r\n\xe9\r\n--x--\r\n'
        response = send(
            attacker(), "/import/", body, "multipart/form-data; boundary=x; charset=latin-1"
        )
        assert response.status_code == 400

    @pytest.mark.parametrize("boundary", ["", "; boundary=", "; boundary=" + "x" * 300])
    def test_a_multipart_form_without_a_boundary_is_a_400_and_no_traceback(
        self, db, boundary, caplog
    ):
        with caplog.at_level(logging.WARNING):
            response = send(
                attacker(), "/import/", b"--x\r\n--x--", f"multipart/form-data{boundary}"
            )
        assert response.status_code == 400
        assert not [r for r in caplog.records if r.exc_info]

    @pytest.mark.parametrize("charset", ["utf-8", "UTF-8", '"utf-8"'])
    def test_utf8_is_read(self, db, charset):
        client = Client()
        response = client.post(
            "/new/", b"variant=lucas&deal=4", content_type=f"{FORM}; charset={charset}"
        )
        assert response.status_code == 302
        assert Game.objects.get().variant == "lucas"

    def test_bytes_that_are_not_utf8_in_a_utf8_form_are_no_error(self, db):
        response = Client().post("/new/", b"variant=\xff\xfe&deal=\xc3", content_type=FORM)
        assert response.status_code == 400

    def test_htmx_gets_the_sentence_for_the_message_area(self, db):
        response = send(attacker(), "/new/", b"variant=x", f"{FORM}; charset=latin-1", **HTMX)
        assert response.status_code == 400
        assert response["HX-Retarget"] == "#announce"
        assert "<h1>" not in response.content.decode()

    def test_a_get_is_never_refused_for_its_content_type(self, db):
        response = Client().get("/en/", CONTENT_TYPE="text/html; charset=bogus")
        assert response.status_code == 200


class TestErrorPages:
    def test_csrf_failure_is_a_403_page_that_says_what_to_do(self, db, errors_logged):
        client = Client(enforce_csrf_checks=True)
        response = client.post("/new/", {"variant": "lucas"})
        assert response.status_code == 403
        assert "Reload the page and try again" in response.content.decode()
        assert errors_logged() == []

    def test_csrf_failure_for_htmx_is_a_message(self, db):
        client = Client(enforce_csrf_checks=True)
        response = client.post("/new/", {"variant": "lucas"}, headers=HTMX)
        assert response.status_code == 403
        assert response["HX-Retarget"] == "#announce"

    def test_404_keeps_its_page(self, db):
        response = Client().get("/no/such/page/")
        assert response.status_code == 404
        assert "There is no such page" in response.content.decode()

    def test_a_post_to_no_page_with_a_broken_body_is_a_404_or_400(self, db, errors_logged):
        response = send(attacker(), "/no/such/page/", b"\xff" * 50, FORM)
        assert response.status_code in (403, 404)
        assert errors_logged() == []

    def test_a_bad_host_is_a_400_page(self, db):
        response = Client().get("/en/", headers={"Host": "evil.example"})
        assert response.status_code == 400
        assert "Bad request" in response.content.decode()


@pytest.mark.django_db(transaction=True)  # the worker, run here, closes its connections
class TestResetAnswersTheSame:
    def test_known_and_unknown_addresses_get_the_same_answer_and_one_task_each(self, db):
        make_user(email="alice@example.org")
        answers = []
        for email in ("alice@example.org", "nobody@example.org"):
            response = Client().post(reverse("password_reset"), {"email": email})
            answers.append((response.status_code, response["Location"], response.content))
        assert answers[0] == answers[1]
        assert DBTaskResult.objects.count() == 2
        assert mail.outbox == []  # nothing sent in the request itself
        run_worker()
        assert [m.to for m in mail.outbox] == [["alice@example.org"]]

    def test_the_mail_is_in_the_language_the_page_was_in(self, db):
        make_user(email="alice@example.org")
        client = Client()
        client.cookies["django_language"] = "fr"
        client.post(reverse("password_reset"), {"email": "alice@example.org"})
        run_worker()
        [message] = mail.outbox
        assert "/account/reset/" in message.body
        assert "Hello alice" not in message.body


class TestAGuestIsNotHeldUpByOthers:
    def test_another_addresses_limit_is_not_mine(self, db):
        make_user()
        for _ in range(70):
            Client().post(LOGIN, {"username": "x", "password": "y"}, REMOTE_ADDR="192.0.2.9")
        client = Client(REMOTE_ADDR="192.0.2.10")
        assert client.post(LOGIN, {"username": "alice", "password": PASSWORD}).status_code == 302
        start(client)
