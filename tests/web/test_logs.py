"""Logs worth reading: every answer carries a request id (the balancer's, when sane) that is
also on the request's log lines; errors of the site's loggers are mailed to ADMINS, a 503 is
not."""

import logging

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import override_settings

from solitaire.middleware import RequestIdFilter

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
