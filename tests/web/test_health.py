"""/healthz/ says the process answers; /readyz/ whether it can serve players: the database,
the cache and the task queue, as a short JSON, 503 naming what is wrong."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.tasks import find_winnable_deals, search


def test_healthz_answers_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz/")
    assert response.status_code == 200


@pytest.mark.django_db
class TestReadyz:
    def test_ready_when_everything_answers(self, client):
        response = client.get("/readyz/")
        assert response.status_code == 200
        assert response.json() == {
            "database": "ok",
            "cache": "ok",
            "tasks": "ok",
            "oldest_task_seconds": 0.0,
            "ready": True,
        }
        assert "no-cache" in response["Cache-Control"]

    def test_a_search_waiting_too_long_makes_it_unready(self, client, settings):
        settings.READY_TASK_SECONDS = 60
        result = search.enqueue(1, client="", seconds=1)
        DBTaskResult.objects.filter(pk=result.id).update(
            enqueued_at=timezone.now() - timedelta(seconds=300)
        )
        response = client.get("/readyz/")
        assert response.status_code == 503
        answer = response.json()
        assert answer["ready"] is False
        assert answer["database"] == "ok"
        assert answer["tasks"].startswith("the oldest queued task has waited 300 s")
        assert answer["oldest_task_seconds"] >= 300

    def test_the_top_up_of_winnable_deals_may_wait(self, client, settings):
        """The top-up waits behind every player's search by design: no player waits for it."""
        settings.READY_TASK_SECONDS = 60
        result = find_winnable_deals.enqueue("forty-thieves", 1, 1, 0.1)
        DBTaskResult.objects.filter(pk=result.id).update(
            enqueued_at=timezone.now() - timedelta(seconds=300)
        )
        response = client.get("/readyz/")
        assert response.status_code == 200
        assert response.json()["tasks"] == "ok"

    def test_a_task_finished_long_ago_does_not_count(self, client, settings):
        settings.READY_TASK_SECONDS = 60
        result = search.enqueue(1, client="", seconds=1)
        DBTaskResult.objects.filter(pk=result.id).update(
            status="SUCCESSFUL", enqueued_at=timezone.now() - timedelta(hours=3)
        )
        assert client.get("/readyz/").status_code == 200

    def test_a_cache_that_fails_makes_it_unready(self, client):
        # A Redis nobody listens on, with no database cache to fall back on: the cache fails.
        broken = {
            **django_settings.CACHES,
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:1/0",
                "OPTIONS": {"socket_connect_timeout": 0.5},
            },
        }
        with override_settings(CACHES=broken):
            response = client.get("/readyz/")
        assert response.status_code == 503
        assert response.json()["cache"].startswith("unavailable: ConnectionError")
        assert response.json()["database"] == "ok"

    def test_only_get(self, client):
        assert client.post("/readyz/").status_code == 405


def test_checks_at_the_same_moment_do_not_fail_each_other(db, monkeypatch):
    # Two app servers (or a balancer's two checks of one) share the cache: another check that
    # writes its probe between this one's write and read must not make this one fail.
    from django.core.cache import cache

    from games.web import health

    real_get = cache.get
    others: list[str] = []
    checking = []

    def get_while_another_checks(key, *args, **kwargs):
        if not checking:
            checking.append(True)
            others.append(health.check_cache())
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", get_while_another_checks)
    assert health.check_cache().startswith("ok")
    assert others[0].startswith("ok")
