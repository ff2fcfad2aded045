"""solitaire/sessions.py: Django's database session engine with its read in one statement.

It must read exactly what Django's own engine reads, and forget a key that has no unexpired
session as Django's does (so a key nobody was given is never saved)."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from solitaire.sessions import SessionStore

pytestmark = pytest.mark.django_db


def stored(data: dict) -> str:
    session = DjangoStore()
    session.update(data)
    session.save()
    return session.session_key


def test_a_session_reads_as_djangos_engine_reads_it_in_one_query():
    key = stored({"autoplay": {"maria": False}, "renewed": "2026-12-01"})
    with CaptureQueriesContext(connection) as queries:
        data = SessionStore(key).load()
    assert (
        data
        == DjangoStore(key).load()
        == {
            "autoplay": {"maria": False},
            "renewed": "2026-12-01",
        }
    )
    assert len(queries) == 1


@pytest.mark.parametrize("kind", ["expired", "unknown"])
def test_a_key_without_a_session_reads_empty_and_is_forgotten(kind):
    key = stored({"autoplay": {"maria": False}})
    if kind == "expired":
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    else:
        key = "k" * 32
    session = SessionStore(key)
    assert session.load() == {}
    assert session.session_key is None
    session["renewed"] = "2026-12-01"
    session.save()
    assert session.session_key != key  # a new key: never the one the request brought


def test_a_session_read_again_is_the_same_and_a_copy_of_its_own():
    key = stored({"autoplay": {"maria": False}, "renewed": "2026-12-01"})
    first = SessionStore(key).load()
    first["autoplay"]["maria"] = True  # a request changing its own copy, not yet saved
    again = SessionStore(key).load()
    assert again == {"autoplay": {"maria": False}, "renewed": "2026-12-01"}
    assert again["autoplay"] is not first["autoplay"]


def test_a_tampered_session_is_refused_every_time():
    key = stored({"_auth_user_id": "7", "renewed": "2026-12-01"})
    text = Session.objects.get(pk=key).session_data
    assert SessionStore(key).load()["_auth_user_id"] == "7"  # its check is now remembered
    forged = text.replace("7", "8", 1) if "7" in text else "x" + text
    Session.objects.filter(pk=key).update(session_data=forged)
    assert SessionStore(key).load() == {}
    assert SessionStore(key).load() == {}


def test_a_saved_change_is_read_back_and_not_the_text_before_it():
    key = stored({"renewed": "2026-11-30"})
    assert SessionStore(key).load() == {"renewed": "2026-11-30"}
    session = SessionStore(key)
    session["renewed"] = "2026-12-01"
    session.save()
    assert SessionStore(key).load() == {"renewed": "2026-12-01"}
