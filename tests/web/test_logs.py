"""Logs worth reading: every answer carries a request id (the balancer's, when sane) that is
also on the request's log lines; errors of the site's loggers are mailed to ADMINS, a 503 is
not."""

import io
import logging
import socket

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client, override_settings

from solitaire.middleware import RequestIdFilter

from .test_accounts import LOGIN

BROKEN_CACHE = {
    **django_settings.CACHES,
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.5},
    },
}


class Kept(logging.Handler):
    """The records a logger wrote, through the filter settings.LOGGING puts on the console."""

    def __init__(self):
        super().__init__()
        self.records = []
        self.addFilter(RequestIdFilter())

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def django_request_log():
    handler = Kept()
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


@pytest.mark.django_db
class TestRequestId:
    def test_every_answer_has_a_new_id(self, client):
        first = client.get("/healthz/")["X-Request-ID"]
        second = client.get("/healthz/")["X-Request-ID"]
        assert len(first) == 32 and first != second

    def test_the_balancers_id_is_kept_when_sane(self, client):
        sent = "7f000001:c3e4_0a000002-1f90.5f6b"
        assert client.get("/healthz/", headers={"X-Request-ID": sent})["X-Request-ID"] == sent

    @pytest.mark.parametrize(
        "sent", ["short", "x" * 200, "has space in it", "new\\nline-injected", "<script>x</script>"]
    )
    def test_an_odd_id_is_replaced(self, client, sent):
        answered = client.get("/healthz/", headers={"X-Request-ID": sent})["X-Request-ID"]
        assert answered != sent and len(answered) == 32

    def test_the_line_of_a_5xx_carries_the_answers_id(self, client, django_request_log):
        with override_settings(CACHES=BROKEN_CACHE):
            response = client.get("/readyz/")
        assert response.status_code == 503
        lines = [r for r in django_request_log if r.levelno >= logging.ERROR]
        assert len(lines) == 1
        assert lines[0].request_id == response["X-Request-ID"]
        assert "/readyz/" in lines[0].getMessage()


@pytest.mark.django_db
class TestMail:
    def test_an_error_of_the_sites_loggers_is_mailed_to_admins(self, settings):
        settings.ADMINS = ["ops@example.org"]
        logging.getLogger("solitaire.tasks").error("search 12 failed: worker lost")
        assert len(mail.outbox) == 1
        assert mail.outbox[0].to == ["ops@example.org"]
        assert "search 12 failed" in mail.outbox[0].subject

    def test_a_warning_is_not_mailed(self, settings):
        settings.ADMINS = ["ops@example.org"]
        logging.getLogger("solitaire.security").warning("lockout of a username")
        assert mail.outbox == []

    def test_a_503_is_not_mailed(self, client, settings):
        settings.ADMINS = ["ops@example.org"]
        with override_settings(CACHES=BROKEN_CACHE):
            assert client.get("/readyz/").status_code == 503
        assert mail.outbox == []


@pytest.fixture
def console():
    """What the site's console handler (settings.LOGGING) writes, as its lines."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    written = io.StringIO()
    before = handler.setStream(written)
    yield lambda: written.getvalue().splitlines()
    handler.setStream(before)


def with_csrf_token(client: Client) -> str:
    """A browser's first step: a page that sets the CSRF cookie, whose value forms carry."""
    client.get(LOGIN)
    return client.cookies["csrftoken"].value


def many_fields(client: Client):
    token = with_csrf_token(client)
    fields = {f"field{n}": "x" for n in range(1_001)}
    return client.post(LOGIN, {"csrfmiddlewaretoken": token, **fields})


def large_body(client: Client):
    token = with_csrf_token(client)
    return client.post(LOGIN, {"csrfmiddlewaretoken": token, "username": "x" * 3_000_000})


def bad_host(client: Client):
    return client.get("/", headers={"host": "evil.example.org"})


def bad_csrf_token(client: Client):
    with_csrf_token(client)
    return client.post(LOGIN, {"csrfmiddlewaretoken": "A" * 64, "username": "alice"})


def garbled_cookies(client: Client):
    client.cookies["sessionid"] = "not-a-session-key/<>;" * 5
    client.cookies["csrftoken"] = "short"
    client.cookies["django_language"] = "\x00zz"
    client.get("/")
    return client.post(LOGIN, {"csrfmiddlewaretoken": "short", "username": "alice"})


@pytest.mark.django_db
class TestClientMistakes:
    """A request the client got wrong is answered with a 4xx and leaves one WARNING line: no
    ERROR, no traceback, no mail. ERROR and mail are for the site's own faults."""

    @pytest.mark.parametrize(
        "mistake", [many_fields, large_body, bad_host, bad_csrf_token, garbled_cookies]
    )
    def test_a_4xx_and_at_most_one_warning_line(self, mistake, console, settings):
        settings.ADMINS = ["ops@example.org"]
        response = mistake(Client(enforce_csrf_checks=True))
        assert 400 <= response.status_code < 500
        lines = console()
        assert len(lines) <= 1, lines
        assert all(" WARNING " in line for line in lines), lines
        assert mail.outbox == []

    @pytest.mark.parametrize(
        "mistake, named",
        [
            (many_fields, "django.security.TooManyFieldsSent"),
            (large_body, "django.security.RequestDataTooBig"),
            (bad_host, "django.security.DisallowedHost"),
            (bad_csrf_token, "django.security.csrf"),
        ],
    )
    def test_logged_once_by_name(self, mistake, named, console):
        mistake(Client(enforce_csrf_checks=True))
        lines = console()
        assert len(lines) == 1 and f" WARNING {named} " in lines[0], lines

    def test_the_sites_own_fault_is_still_an_error_with_its_traceback_and_mailed(
        self, console, settings
    ):
        settings.ADMINS = ["ops@example.org"]
        try:
            raise ZeroDivisionError("the site's own bug")
        except ZeroDivisionError:
            logging.getLogger("django.request").exception(
                "Internal Server Error: /", extra={"status_code": 500}
            )
        written = "\n".join(console())
        assert " ERROR django.request " in written and "Traceback" in written
        assert len(mail.outbox) == 1


@pytest.mark.django_db
class TestRefusals:
    """A client past a limit leaves one line a minute in the log, however many it is refused."""

    def test_one_line_per_address_and_minute(self, console, settings):
        settings.LIMITS = {**settings.LIMITS, "login-address": (2, 60)}
        statuses = [
            Client().post(LOGIN, {"username": "x"}, REMOTE_ADDR="192.0.2.5").status_code
            for _ in range(30)
        ]
        assert statuses.count(429) == 28
        refused = [line for line in console() if "Too Many Requests" in line]
        assert len(refused) == 1 and " WARNING " in refused[0]
        Client().post(LOGIN, {"username": "x"}, REMOTE_ADDR="192.0.2.6")
        Client().post(LOGIN, {"username": "x"}, REMOTE_ADDR="192.0.2.6")
        Client().post(LOGIN, {"username": "x"}, REMOTE_ADDR="192.0.2.6")
        refused = [line for line in console() if "Too Many Requests" in line]
        assert len(refused) == 2  # another address has its own line

    def test_the_development_servers_line_of_a_429_is_written_as_it_is(self, console, capsys):
        """``make run``'s server logs each answer on ``django.server`` with its socket as the
        record's ``request``: a 429 there is one line, not a logging error."""
        with socket.socket() as connection:
            logging.getLogger("django.server").warning(
                '"POST /g/1/move/ HTTP/1.1" 429 63',
                extra={"request": connection, "status_code": 429, "server_time": "now"},
            )
        lines = console()
        assert len(lines) == 1 and " WARNING django.server " in lines[0], lines
        assert "Logging error" not in capsys.readouterr().err
