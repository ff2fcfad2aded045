"""Readiness: whether this app server can serve players now, for the load balancer.

``/healthz/`` (pages.py) only says the process answers. ``/readyz/`` checks what a
player's request needs: the database answers a query, the cache takes and gives back a value,
and the background worker keeps up (the oldest search waiting for it has waited less than
``READY_TASK_SECONDS``, default 120). It answers 200 with ``{"ready": true, ...}``, or 503 with
the same short JSON saying which check failed and why. A cache that stands in for Redis (the
database's, solitaire/cache.py) is ready, and says so.
"""

import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..services.searches import waiting_searches

#: The start of the cache key each check writes, reads back and deletes: a key of its own,
#: as every app server's checks (twice a second from each balancer) share one cache.
PROBE_KEY = "readyz:probe"


def check_database() -> str:
    """'ok', or what went wrong."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return f"unavailable: {type(error).__name__}: {str(error).strip()[:160]}"
    return "ok"


def check_cache() -> str:
    """'ok' ('ok, in the database' while Redis is away), or what went wrong."""
    value = str(time.time())
    key = f"{PROBE_KEY}:{secrets.token_hex(8)}"
    try:
        cache.set(key, value, 30)
        read = cache.get(key)
        cache.delete(key)
        if read != value:
            return "unavailable: a value written was not read back"
    except Exception as error:  # any backend's failure is the answer here, not a 500
        return f"unavailable: {type(error).__name__}: {str(error).strip()[:160]}"
    if getattr(cache, "redis_in_use", True) is False:
        return "ok, in the database (Redis unavailable)"
    return "ok"


def check_tasks() -> tuple[str, float]:
    """('ok' or what is wrong, seconds the oldest search a player waits for has waited).

    Only players' searches count: the top-up of winnable deals waits behind them by design
    (priority -100) and may wait long on a busy day without anyone waiting for it."""
    try:
        oldest = waiting_searches().order_by("enqueued_at").values_list("enqueued_at")[:1]
        waited = max(0.0, (timezone.now() - oldest[0][0]).total_seconds()) if oldest else 0.0
    except DatabaseError as error:
        return f"unavailable: {type(error).__name__}", 0.0
    limit = settings.READY_TASK_SECONDS
    if waited > limit:
        return f"the oldest queued task has waited {waited:.0f} s (limit {limit:g} s)", waited
    return "ok", waited


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    database = check_database()
    tasks, waited = check_tasks() if database == "ok" else ("not checked", 0.0)
    answer = {
        "database": database,
        "cache": check_cache(),
        "tasks": tasks,
        "oldest_task_seconds": round(waited, 1),
    }
    answer["ready"] = all(answer[part].startswith("ok") for part in ("database", "cache", "tasks"))
    return JsonResponse(answer, status=200 if answer["ready"] else 503)
