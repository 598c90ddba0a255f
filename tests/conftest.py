"""Fixtures shared by the test modules (the plain factories are in tests.factories).

The world most tests start from: `tournament`, the Belgian championship directed by
`director`, and its first `table` (Ann, Bart, Chris and Dirk, no round yet) refereed by
`referee`. The two accounts have distinctive usernames, so that a test can assert that a page
or a PDF names them, or does not: a plain "ref" or "director" is also part of the pages' own
words ("referee", "directors"). Assert `referee.username` rather than the name itself.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from tests import profiles
from tests.factories import make_championship, make_table, make_tournament, make_user
from tournaments.models import Game, Table, Tournament

# The random tests' size (tests/profiles.py): small for `make check`, full under CI. Loaded
# here, before pytest imports any test module, so that the modules' sizes read it.
hypothesis_settings.load_profile(profiles.chosen())

TESTS = Path(__file__).resolve().parent
# pytest-playwright's fixtures: a test asking for one drives a real browser.
PLAYWRIGHT_FIXTURES = {"page", "context", "new_context", "browser", "browser_context_args"}
# pytest-django's fixtures that open the test database (`admin_client` and the like ask for
# `db`, so a test's fixture closure names one of these whenever it reaches the database).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_collection_modifyitems(config, items):
    """Mark the browser tests `browser`: those in a `browser` folder (tests/browser,
    tests/api/browser, any new one) and any test elsewhere that asks for a page. `make check`
    leaves them out; nobody has to remember the mark on a new test.

    Mark `database` every test that pytest-django lets reach the database: the `django_db`
    mark or a database fixture. pytest-django refuses the database to any other test, so the
    rest (the engine, the JavaScript twin, the parsers, the deploy's files) run the same on
    any database, and CI's PostgreSQL pass leaves them to its SQLite pass (.ci/run). A test
    that reaches the configured database another way, a subprocess given DATABASE_URL
    (tests.snapshots.own_database, tests.bench.smoke), carries `database` by hand.

    Then the slow tests first and the browser tests next, each kind in its own order:
    pytest-xdist hands the tests out one at a time in this order (pyproject.toml), and a test
    of a minute handed out last keeps one core busy while the others wait; handed out first,
    the short ones fill in around it."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        in_browser_folder = item.path.is_relative_to(TESTS) and "browser" in (
            item.path.parent.relative_to(TESTS).parts
        )
        if in_browser_folder or PLAYWRIGHT_FIXTURES & fixtures:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & fixtures:
            item.add_marker(pytest.mark.database)
    items.sort(
        key=lambda item: (
            not item.get_closest_marker("slow"),
            not item.get_closest_marker("browser"),
        )
    )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the test database is a file, as the site's is: with Django's in-memory one,
    the live server's request threads share one connection, and two browser pages polling
    at once fail with "database table is locked", which no venue would ever see."""
    default = settings.DATABASES["default"]
    if default["ENGINE"] == "django.db.backends.sqlite3":
        folder = tmp_path_factory.mktemp("database")
        default.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():
    """Django's advice for tests: a cheap hasher. The site's PBKDF2 (a million rounds) costs
    half a second a login, and the lockout tests log in dozens of times."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's language: a request in Dutch or French leaves it active
    in the thread (LocaleMiddleware), and the next test's messages would be worded in it."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache():
    # The cache holds counters (wrong table codes) that one test must not leave to the next.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True, scope="session")
def _plain_static_storage():
    """Whitenoise's manifest storage needs collectstatic; tests serve plain files (a page
    rendered by a module's fixture too)."""
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    with override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}):
        yield


@pytest.fixture
def referee():
    """The referee of `table`."""
    return make_user("ref-anna")


@pytest.fixture
def director():
    """A director of `tournament` (an account without the permission to create one)."""
    return make_user("dir-bob")


def _logged_in(user) -> Client:
    # A client of its own, not pytest-django's `client`: a test can use both, or both roles.
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def referee_client(referee) -> Client:
    return _logged_in(referee)


@pytest.fixture
def director_client(director) -> Client:
    return _logged_in(director)


@pytest.fixture
def tournament(director) -> Tournament:
    """Public and running, under the Belgian rules, on 21 November 2026."""
    return make_tournament(
        name="Belgian Championship 2026",
        slug="bk-2026",
        venue="Gent",
        starts_on=datetime.date(2026, 11, 21),
        directors=[director],
    )


@pytest.fixture
def table(tournament, referee) -> Table:
    """Table 1 of session 1 (running): Ann, Bart, Chris and Dirk clockwise, no round yet."""
    return make_table(referee=referee, tournament=tournament)


@pytest.fixture
def game(table) -> Game:
    """The game of `table`."""
    return table.game


@pytest.fixture
def championship() -> Tournament:
    """A whole tournament with every kind of game history (see make_championship)."""
    return make_championship()
