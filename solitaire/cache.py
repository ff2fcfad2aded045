"""Django's Redis cache, with one client object per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache call; each build
copies its table of some 170 response callbacks, which cost more than the round trip to Redis
for the session read every request makes. A ``redis.Redis`` is safe to share between threads
(each command borrows a connection from the pool), and its pool notices a fork, so one per pool
serves the whole process.
"""

from django.core.cache.backends import redis


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
