"""A cache is a cache: Redis failing never fails a page or a save.

Django's Redis backend raises `redis.exceptions.ConnectionError` from every call while Redis
is down, and every page reads a fragment, a session or a counter through it: with Redis
stopped for 60 s, issue 34 counted 810 failed requests. `FailSafeRedisCache` is that backend
with every public operation guarded (settings.CACHES names it; no call site changes):

- an error is a miss: this process carries on with its own memory as the cache (as a site
  without CACHE_URL does), logged once when Redis stops answering and once when it is back;
- meanwhile Redis is not asked again for RETRY_SECONDS (a blackholed host would otherwise
  cost every call its connect timeout);
- what this process wrote or deleted meanwhile is deleted from Redis once it answers again,
  so that nothing stale comes back (a session ended during the outage stays ended);
- counters (the rate limits' add then incr) count in this process meanwhile: a limit that
  cannot count in Redis neither locks a venue out nor opens the door wide — each app server
  applies it on its own (at most servers × the limit for the outage's windows).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Seconds Redis is left alone after an error before it is asked again.
RETRY_SECONDS = 2.0
# Keys remembered for deletion once Redis is back (beyond: the oldest are forgotten; their
# entries expire by themselves).
REMEMBERED = 10_000
ERRORS = (RedisError, OSError)


class _Outage:
    """This process's view of Redis (shared by the threads' cache objects)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.until = 0.0
        self.down = False
        self.touched: dict[str, None] = {}

    def failed(self, error: Exception) -> None:
        with self.lock:
            self.until = time.monotonic() + RETRY_SECONDS
            first, self.down = not self.down, True
        if first:
            logger.error("cache: Redis does not answer (%s); using this process's memory", error)

    def skip(self) -> bool:
        return self.down and time.monotonic() < self.until

    def remember(self, keys: list[str]) -> None:
        with self.lock:
            for key in keys:
                self.touched[key] = None
            while len(self.touched) > REMEMBERED:
                del self.touched[next(iter(self.touched))]

    def recovered(self) -> list[str]:
        """The keys to delete now that Redis answers again (once: the first caller's)."""
        with self.lock:
            if not self.down:
                return []
            self.down = False
            keys, self.touched = list(self.touched), {}
        logger.warning("cache: Redis answers again (%s keys of the outage dropped)", len(keys))
        return keys


OUTAGE = _Outage()


class FailSafeRedisCache(RedisCache):
    """Django's RedisCache whose errors are misses (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # One memory per process (LocMemCache shares its store by name).
        self._memory = LocMemCache(
            "yaniv-club-fail-safe",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 2000}},
        )

    def _guard(
        self, keys: list[str], redis: Callable[[], T], memory: Callable[[], T], writes: bool
    ) -> T:
        if OUTAGE.skip():
            if writes:
                OUTAGE.remember(keys)
            return memory()
        try:
            answer = redis()
        except ERRORS as error:
            OUTAGE.failed(error)
            if writes:
                OUTAGE.remember(keys)
            return memory()
        if OUTAGE.down:
            # What this process kept meanwhile is not kept for the next outage.
            self._memory.clear()
            self._forget(OUTAGE.recovered())
        return answer

    def _forget(self, keys: list[str]) -> None:
        """The outage's keys out of Redis (made keys: no prefix to add)."""
        if not keys:
            return
        try:
            self._client().delete_many(keys)
        except ERRORS as error:
            OUTAGE.remember(keys)
            OUTAGE.failed(error)

    def answers(self) -> bool:
        """Does Redis answer now? (for the readiness check, unguarded)."""
        try:
            return bool(self._client().get_client(write=False).ping())
        except ERRORS:
            return False

    def _client(self) -> Any:
        """Django's RedisCacheClient (RedisCache keeps it in `_cache`, untyped in the stubs)."""
        return self._cache  # type: ignore[attr-defined]

    def _made(self, key: str, version: int | None) -> list[str]:
        return [self.make_and_validate_key(key, version=version)]

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._guard(
            self._made(key, version),
            lambda: super(FailSafeRedisCache, self).add(key, value, timeout, version),
            lambda: self._memory.add(key, value, timeout, version),
            writes=True,
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard(
            [],
            lambda: super(FailSafeRedisCache, self).get(key, default, version),
            lambda: self._memory.get(key, default, version),
            writes=False,
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._guard(
            self._made(key, version),
            lambda: super(FailSafeRedisCache, self).set(key, value, timeout, version),
            lambda: self._memory.set(key, value, timeout, version),
            writes=True,
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._guard(
            [],
            lambda: super(FailSafeRedisCache, self).touch(key, timeout, version),
            lambda: self._memory.touch(key, timeout, version),
            writes=False,
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._guard(
            self._made(key, version),
            lambda: super(FailSafeRedisCache, self).delete(key, version),
            lambda: self._memory.delete(key, version),
            writes=True,
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._guard(
            [],
            lambda: super(FailSafeRedisCache, self).get_many(keys, version),
            lambda: self._memory.get_many(keys, version),
            writes=False,
        )

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._guard(
            [],
            lambda: super(FailSafeRedisCache, self).has_key(key, version),
            lambda: self._memory.has_key(key, version),
            writes=False,
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._guard(
            self._made(key, version),
            lambda: super(FailSafeRedisCache, self).incr(key, delta, version),
            lambda: self._memory.incr(key, delta, version),
            writes=True,
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list:
        made = [self.make_and_validate_key(key, version=version) for key in data]
        return self._guard(
            made,
            lambda: super(FailSafeRedisCache, self).set_many(data, timeout, version),
            lambda: self._memory.set_many(data, timeout, version),
            writes=True,
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        made = [self.make_and_validate_key(key, version=version) for key in keys]
        self._guard(
            made,
            lambda: super(FailSafeRedisCache, self).delete_many(keys, version),
            lambda: self._memory.delete_many(keys, version),
            writes=True,
        )

    def clear(self) -> None:
        self._memory.clear()
        self._guard(
            [], lambda: super(FailSafeRedisCache, self).clear(), lambda: None, writes=False
        )
