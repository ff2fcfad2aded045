"""The Redis cache (REDIS_URL): Django's, with one client per connection pool."""

import pytest

from solitaire.cache import RedisCache

#: A database of the local Redis no other test uses.
SERVER = "redis://127.0.0.1:6379/5"


@pytest.fixture
def cache():
    cache = RedisCache(SERVER, {"KEY_PREFIX": "test-cache"})
    yield cache
    cache.clear()


def test_values_go_to_redis_and_come_back(cache):
    cache.set("answer", {"moves": [1, 2]}, 30)
    assert cache.get("answer") == {"moves": [1, 2]}
    # Another cache object on the same server (as another process would) sees it too.
    assert RedisCache(SERVER, {"KEY_PREFIX": "test-cache"}).get("answer") == {"moves": [1, 2]}
    cache.delete("answer")
    assert cache.get("answer") is None


def test_one_client_serves_every_call(cache):
    client = cache._cache.get_client("a")
    assert cache._cache.get_client("b") is client
    assert cache._cache.get_client("c", write=True) is client
