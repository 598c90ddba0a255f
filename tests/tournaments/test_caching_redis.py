"""The cache tests against the real Redis (`CACHE_URL=redis://…`, Django's Redis backend), as
gunicorn's workers share it in production: what one process keeps, another serves.

Redis on 127.0.0.1:6379 (the machines run it there; `.ci/run` starts it when it is not
answering). The tests use a database and a key prefix of their own and delete their keys
afterwards, never the whole database: other work may share the server. Without Redis they
are skipped, saying so; under CI (`CI=true`) a missing Redis fails them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test import Client

from tests.tournaments.test_caching import (  # noqa: F401 - the same tests, on Redis
    DIRK_45,
    finished_table,
    renders,
    standings_poll,
    table_renders,
    test_a_fragment_that_used_a_csrf_token_or_set_a_cookie_is_not_kept,
    test_a_new_version_renders_the_fragment_afresh,
    test_a_pdf_of_a_changed_game_or_tournament_is_rendered_afresh,
    test_a_private_tournaments_fragment_is_served_only_after_the_access_check,
    test_a_referees_sheet_is_kept_for_the_referees_view_alone,
    test_a_second_request_for_an_unchanged_pdf_renders_nothing,
    test_a_second_standings_poll_renders_nothing,
    test_beyond_the_bound_a_render_is_answered_503_with_retry_after,
    test_csv_downloads_are_kept_by_version_and_separator,
    test_followers_share_the_table_sheet,
    test_languages_are_kept_apart,
    test_the_sheet_pdf_with_account_names_is_kept_apart,
    test_the_tournament_pages_live_part_is_kept_by_version,
)
from tests.tournaments.test_table_page import (  # noqa: F401 - the table page's, on Redis
    built,
    played,
    test_a_follower_never_gets_the_referees_kept_page,
    test_the_clock_is_drawn_fresh_on_a_kept_page,
    test_two_phones_of_the_referee_share_the_page_each_with_its_own_token,
)
from tournaments import caching

pytestmark = pytest.mark.django_db

HOST, PORT = "127.0.0.1", 6379
# A database of its own on the shared server (the site's default is 0).
DATABASE = 15


def redis_answers() -> str | None:
    """None when Redis answers a PING, else why not."""
    import redis

    try:
        redis.Redis(host=HOST, port=PORT, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis is not answering on {HOST}:{PORT} ({error})"
    return None


@pytest.fixture(scope="module")
def redis_up() -> None:
    problem = redis_answers()
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI runs the cache tests against Redis, but {problem}")
    pytest.skip(f"{problem}: start it with `redis-server --daemonize yes` (CI does)")


@pytest.fixture(autouse=True)
def redis_cache(redis_up, settings) -> Iterator[str]:
    """The site's cache on Redis for the test, under a key prefix of its own."""
    import redis

    prefix = f"yaniv-test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://{HOST}:{PORT}/{DATABASE}",
            "KEY_PREFIX": prefix,
        }
    }
    yield prefix
    client = redis.Redis(host=HOST, port=PORT, db=DATABASE)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


def test_the_site_cache_is_redis():
    cache = caches["default"]
    assert type(cache).__name__ == "RedisCache"
    cache.set("hello", b"world", 30)
    assert cache.get("hello") == b"world"


def test_what_one_worker_renders_another_serves(
    client,
    tournament,
    finished_table,  # noqa: F811 - the fixture imported above
    renders,  # noqa: F811
):
    """Two processes are two cache connections: the second worker's phone gets the fragment
    the first one rendered, without rendering it again."""
    first = standings_poll(client, tournament)
    other_worker = caches.create_connection("default")
    kept = [key for key in raw_keys() if ":fragment:" in key]
    assert len(kept) == 1
    assert other_worker.get(kept[0].split(":", 2)[2])[0] == first.content
    caches["default"].close()
    second = standings_poll(Client(), tournament)
    assert second.content == first.content and len(renders) == 1


def test_kept_answers_expire(client, tournament, finished_table):  # noqa: F811
    standings_poll(client, tournament)
    import redis

    connection = redis.Redis(host=HOST, port=PORT, db=DATABASE)
    ttls = [connection.ttl(key) for key in raw_keys() if ":fragment:" in key]
    assert ttls and all(0 < ttl <= caching.FRAGMENT_SECONDS for ttl in ttls)


def raw_keys() -> list[str]:
    """The test's keys as Redis holds them ("<prefix>:<version>:<key>")."""
    import redis

    prefix = caches["default"].key_prefix
    connection = redis.Redis(host=HOST, port=PORT, db=DATABASE)
    return [key.decode() for key in connection.scan_iter(match=f"{prefix}:*", count=1000)]


def test_the_bound_holds_for_the_whole_site_when_workers_share_redis(settings):
    """Two gunicorn workers (two bounds) take their render slots in the one Redis: with one
    slot, a render in one worker refuses a render in the other until it is done."""
    settings.EXPENSIVE_RENDERS = 1
    first_worker, second_worker = caching.RenderBound(), caching.RenderBound()
    assert first_worker.acquire()
    assert not second_worker.acquire()
    first_worker.release()
    assert second_worker.acquire()
    second_worker.release()
    settings.EXPENSIVE_RENDERS = 2
    taken = [first_worker.acquire(), second_worker.acquire(), first_worker.acquire()]
    assert taken == [True, True, False]
    first_worker.release()
    second_worker.release()
    assert first_worker.running == second_worker.running == 0
    assert first_worker.acquire()  # every slot is free again
    first_worker.release()
