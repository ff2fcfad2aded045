"""Django's Redis cache, falling back on the database while Redis does not answer.

The log-in throttle and the request limits count in the default cache (settings.CACHES). With
``REDIS_URL`` that cache is Redis, shared by every web process; when Redis is down (stopped,
restarting, unreachable) every call would raise, and every page that counts something would be
a server error. This backend is Django's ``RedisCache`` whose public methods, when Redis raises
a connection or timeout error, do the same on Django's ``DatabaseCache`` instead: the cache
alias ``FALLBACK`` names (default ``"database"``), whose table ``manage.py createcachetable``
makes in the release step (Django's test runner makes it too), shared by every process as well.

After a failure Redis is left alone for ``RETRY_SECONDS`` (default 2): a dead Redis then costs
one connect timeout per process every few seconds, not one per call. The first call after the
back-off tries Redis again, and from then on, if it answers, the cache is Redis again. Each
change over is one line on the ``solitaire.cache`` logger, however many calls failed between.

What was written to one store while the other was in use is not copied across: a throttle's
counts start again when the store changes, which is what a count that expires anyway can
afford. ``clear()`` clears both.

Settings::

    CACHES = {
        "default": {
            "BACKEND": "solitaire.cache.RedisWithDatabaseFallback",
            "LOCATION": "redis://127.0.0.1:6379/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},  # redis-py's
            "FALLBACK": "database",
            "RETRY_SECONDS": 2,
        },
        "database": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "solitaire_cache",
        },
    }
"""

import logging
import threading
import time

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("solitaire.cache")

#: What Redis raises when it cannot be reached or does not answer in time (a server still
#: loading its data raises a ConnectionError too).
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)
#: Until when (time.monotonic()) each Redis server is left alone, and since when it has not
#: answered; shared by a process's threads. A change over is logged once each way.
down_until: dict[str, float] = {}
down_since: dict[str, float] = {}
lock = threading.Lock()


class RedisWithDatabaseFallback(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self.retry_seconds = float(params.get("RETRY_SECONDS", 2))
        self.fallback_alias = params.get("FALLBACK", "database")
        self.server = server

    @property
    def fallback(self):
        """The database cache that stands in for Redis (another alias of settings.CACHES)."""
        return caches[self.fallback_alias]

    @property
    def redis_in_use(self) -> bool:
        """Whether calls go to Redis now (False during the back-off after a failure)."""
        return time.monotonic() >= down_until.get(self.server, 0.0)

    def _call(self, name, *args, **kwargs):
        if self.redis_in_use:
            try:
                answer = getattr(super(), name)(*args, **kwargs)
            except UNAVAILABLE as error:
                with lock:
                    now = time.monotonic()
                    down_until[self.server] = now + self.retry_seconds
                    first = self.server not in down_since
                    down_since.setdefault(self.server, now)
                if first:
                    logger.warning(
                        "Redis unavailable (%s: %s): the cache is the database's until it answers",
                        type(error).__name__,
                        error,
                    )
            else:
                if self.server in down_since:
                    with lock:
                        since = down_since.pop(self.server, None)
                    if since is not None:
                        logger.warning(
                            "Redis answers again after %.0f s: the cache is Redis",
                            time.monotonic() - since,
                        )
                return answer
        return getattr(self.fallback, name)(*args, **kwargs)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", key, value, timeout, version=version)

    def get(self, key, default=None, version=None):
        return self._call("get", key, default, version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", key, value, timeout, version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", key, timeout, version=version)

    def delete(self, key, version=None):
        return self._call("delete", key, version=version)

    def get_many(self, keys, version=None):
        return self._call("get_many", keys, version=version)

    def has_key(self, key, version=None):
        return self._call("has_key", key, version=version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", key, delta, version=version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", data, timeout, version=version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", keys, version=version)

    def clear(self):
        self.fallback.clear()
        return self._call("clear")
