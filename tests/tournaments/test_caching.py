"""The shared cache of public fragments and downloads, and the bound on expensive renders.

A kept answer renders nothing the second time (no template, no PDF drawn); each version,
language and viewer's rights has its own; private tournaments are checked before anything kept
is served; too many renders at once answer 503. `test_caching_redis` runs the same against
the real Redis.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import _unmask_cipher_token as unmask  # type: ignore[attr-defined]
from django.middleware.csrf import get_token
from django.test import Client, RequestFactory
from django.urls import reverse

from printing import downloads, pdfs
from tests.factories import HTMX, make_table, make_tournament, make_user, record
from tests.tasks import run_tasks
from tournaments import caching
from tournaments.models import TableCode, Tournament

pytestmark = pytest.mark.django_db

DIRK_45 = {"hands": {"Ann": 0, "Bart": 1, "Chris": 9, "Dirk": 45}, "yaniv": "Ann"}
SMALL = {"hands": {"Ann": 0, "Bart": 1, "Chris": 1, "Dirk": 1}, "yaniv": "Ann"}


class Calls:
    """Counts the calls of a function it stands in for (and calls it)."""

    def __init__(self, function: Any) -> None:
        self.function, self.count = function, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.count += 1
        return self.function(*args, **kwargs)


@pytest.fixture
def finished_table(table, referee):
    record(table.game, referee, *[DIRK_45] * 4)
    return table


def standings_poll(client: Client, tournament: Tournament, **headers: str):
    """A phone a version behind asking for the standings' live part."""
    url = reverse("public:standings", args=[tournament.slug])
    return client.get(url, {"since": "an-old-version"}, headers={**HTMX, **headers})


def sheet_poll(client: Client, table, **headers: str):
    url = reverse("tables:detail", args=[table.pk])
    return client.get(url, {"part": "sheet", "since": "old"}, headers={**HTMX, **headers})


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The templates the live views render, in order (a fragment served as kept renders
    none). Django's own record of rendered templates misses named partials."""
    from tournaments.views import public, tables

    rendered: list[str] = []
    for module in (public, tables):
        original = module.render

        def counting(request, template, *args, original=original, **kwargs):
            rendered.append(template)
            return original(request, template, *args, **kwargs)

        monkeypatch.setattr(module, "render", counting)
    return rendered


# --- fragments --------------------------------------------------------------------------


def test_a_second_standings_poll_renders_nothing(
    client, tournament, finished_table, monkeypatch, renders
):
    computed = []
    original = Tournament.standings

    def standings(self, session=None):
        computed.append(self.pk)
        return original(self, session)

    monkeypatch.setattr(Tournament, "standings", standings)
    first = standings_poll(client, tournament)
    second = standings_poll(Client(), tournament)
    assert first.status_code == second.status_code == 200
    assert renders == ["tournaments/standings.html#live"] and computed == [tournament.pk]
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"] == "text/html; charset=utf-8"


def test_a_new_version_renders_the_fragment_afresh(client, tournament, table, referee, renders):
    record(table.game, referee, *[DIRK_45] * 3)
    before = standings_poll(client, tournament)
    assert "No game has finished yet." in before.content.decode()
    record(table.game, referee, DIRK_45)  # the game is over: the standings move
    after = standings_poll(client, tournament)
    assert len(renders) == 2
    assert "<bdi>Dirk</bdi>" in after.content.decode()


def test_languages_are_kept_apart(client, tournament, finished_table, renders):
    english = standings_poll(client, tournament, **{"Accept-Language": "en"})
    dutch = standings_poll(Client(), tournament, **{"Accept-Language": "nl"})
    again = standings_poll(Client(), tournament, **{"Accept-Language": "nl"})
    assert len(renders) == 2
    assert english.content != dutch.content == again.content
    assert 'title="games won"' in english.content.decode()
    assert 'title="games won"' not in dutch.content.decode()


def test_a_whole_page_is_never_taken_from_the_cache(client, tournament, finished_table, renders):
    url = reverse("public:standings", args=[tournament.slug])
    standings_poll(client, tournament)
    page = client.get(url)
    assert renders == ["tournaments/standings.html#live", "tournaments/standings.html"]
    assert "csrfmiddlewaretoken" in page.content.decode()


def test_the_tournament_pages_live_part_is_kept_by_version(
    client, tournament, table, referee, renders
):
    url = reverse("public:tournament", args=[tournament.slug])
    first = client.get(url, {"since": "old"}, headers=HTMX)
    second = client.get(url, {"since": "old"}, headers=HTMX)
    assert renders == ["tournaments/tournament.html#live"] and second.content == first.content
    record(table.game, referee, SMALL)
    third = client.get(url, {"since": "old"}, headers=HTMX)
    assert len(renders) == 2
    assert "round 1" in third.content.decode()


def test_a_private_tournaments_fragment_is_served_only_after_the_access_check(
    client, director_client, referee
):
    table = make_table(referee=referee, tournament=make_tournament(slug="club", is_public=False))
    record(table.game, referee, *[DIRK_45] * 4)
    tournament = table.session.tournament
    tournament.directors.add(director := make_user("the-director"))
    director_client.force_login(director)
    assert standings_poll(director_client, tournament).status_code == 200
    assert sheet_poll(director_client, table).status_code == 200
    url = reverse("public:tournament", args=[tournament.slug])
    assert director_client.get(url, {"since": "old"}, headers=HTMX).status_code == 200
    # Kept now; a stranger and an anonymous phone still get nothing of it.
    client.force_login(make_user("stranger"))
    for who in (client, Client()):
        assert standings_poll(who, tournament).status_code == 404
        assert sheet_poll(who, table).status_code == 404
        assert who.get(url, {"since": "old"}, headers=HTMX).status_code == 404


@pytest.fixture
def table_renders(monkeypatch) -> Calls:
    """How often the table page's sheet, forms and history were built: a part of the page
    served as kept builds none (tournaments/views/tables.py)."""
    from tournaments import table_page

    calls = Calls(table_page.page_values)
    monkeypatch.setattr(table_page, "page_values", calls)
    return calls


def test_followers_share_the_table_sheet(client, finished_table, referee, table_renders):
    first = sheet_poll(client, finished_table)
    client.force_login(make_user("a-follower"))
    second = sheet_poll(client, finished_table)
    assert first.status_code == second.status_code == 200
    assert table_renders.count == 1 and second.content == first.content
    # The referee's own sheet has what only they see (account names): kept apart, never
    # served to them from the followers' copy.
    referees = Client()
    referees.force_login(referee)
    own = sheet_poll(referees, finished_table)
    assert table_renders.count == 2 and own.content != first.content
    assert referee.username in own.content.decode()
    assert referee.username not in first.content.decode()


def test_a_referees_sheet_is_kept_for_the_referees_view_alone(
    client, referee_client, table, referee, table_renders
):
    record(table.game, referee, SMALL)
    first = sheet_poll(referee_client, table)
    sheet_poll(referee_client, table)
    assert 'id="game-state"' in first.content.decode()
    assert table_renders.count == 1
    followers = sheet_poll(client, table)
    assert 'id="game-state"' not in followers.content.decode()
    assert table_renders.count == 2


def test_a_table_codes_sheet_is_kept_for_that_code_alone(client, tournament, table_renders):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.save(update_fields=["entry"])
    code_table = make_table(tournament=tournament)
    code = TableCode.issue(code_table).code
    url = reverse("codes:detail", args=[code])
    first = client.get(url, {"part": "sheet", "since": "old"}, headers=HTMX)
    client.get(url, {"part": "sheet", "since": "old"}, headers=HTMX)
    assert first.status_code == 200 and table_renders.count == 1
    assert f"/c/{code}/" in first.content.decode()
    followers = sheet_poll(Client(), code_table)
    assert code not in followers.content.decode() and table_renders.count == 2


def test_a_fragment_that_used_a_csrf_token_or_set_a_cookie_is_not_kept():
    factory = RequestFactory()

    def with_token(request) -> HttpResponse:
        return HttpResponse(f"token {get_token(request)}")

    def with_cookie(request) -> HttpResponse:
        response = HttpResponse("hello")
        response.set_cookie("mine", "1")
        return response

    for render in (with_token, with_cookie):
        rendered: list[HttpResponse] = []
        for _ in range(2):
            request = factory.get("/somewhere/")

            def once(request=request, render=render, rendered=rendered) -> HttpResponse:
                rendered.append(render(request))
                return rendered[-1]

            caching.fragment(request, ("v1",), once)
        assert len(rendered) == 2
        assert cache.get(caching.key("fragment", "/somewhere/", "v1")) is None


def test_only_a_200_is_kept():
    request = RequestFactory().get("/gone/")
    caching.fragment(request, ("v1",), lambda: HttpResponse("no", status=404))
    assert cache.get(caching.key("fragment", "/gone/", "v1")) is None


# --- downloads ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "renderer"),
    [
        ("public:standings_pdf", "standings_pdf"),
    ],
)
def test_a_second_request_for_an_unchanged_pdf_renders_nothing(
    client, tournament, finished_table, monkeypatch, name, renderer
):
    counted = Calls(getattr(pdfs, renderer))
    monkeypatch.setattr(pdfs, renderer, counted)
    url = reverse(name, args=[tournament.slug])
    first = b"".join(client.get(url).streaming_content)
    second = client.get(url)
    assert second.status_code == 200 and second["Cache-Control"] == "no-store"
    assert b"".join(second.streaming_content) == first and first.startswith(b"%PDF")
    assert counted.count == 1


def test_a_pdf_of_a_changed_game_or_tournament_is_rendered_afresh(
    client, tournament, table, referee, monkeypatch
):
    counted = Calls(pdfs.filled_score_sheet)
    monkeypatch.setattr(pdfs, "filled_score_sheet", counted)
    url = reverse("tables:sheet_pdf", args=[table.pk])
    client.get(url)
    client.get(url)
    record(table.game, referee, SMALL)
    client.get(url)
    tournament.venue = "Brugge"
    tournament.save()
    client.get(url)
    assert counted.count == 3


def test_the_sheet_pdf_with_account_names_is_kept_apart(
    client, referee_client, table, referee, monkeypatch
):
    counted = Calls(pdfs.filled_score_sheet)
    monkeypatch.setattr(pdfs, "filled_score_sheet", counted)
    url = reverse("tables:sheet_pdf", args=[table.pk])
    client.get(url)
    referee_client.get(url)
    client.get(url)
    referee_client.get(url)
    assert counted.count == 2


def test_csv_downloads_are_kept_by_version_and_separator(client, tournament, table, referee):
    calls = Calls(downloads.standings_csv)
    rounds = Calls(downloads.rounds_csv_chunks)
    with patched(downloads, standings_csv=calls, rounds_csv_chunks=rounds):
        standings_url = reverse("public:standings_csv", args=[tournament.slug])
        rounds_url = reverse("public:rounds_csv", args=[tournament.slug])
        for _ in range(2):
            client.get(standings_url)
            client.get(standings_url, {"sep": "semicolon"})
            b"".join(client.get(rounds_url).streaming_content)
        assert (calls.count, rounds.count) == (2, 1)
        record(table.game, referee, SMALL)  # a round: the rounds move, the standings do not
        client.get(standings_url)
        lines = b"".join(client.get(rounds_url).streaming_content).decode("utf-8-sig")
        assert (calls.count, rounds.count) == (2, 2)
        assert len(lines.splitlines()) == 1 + 4


@contextmanager
def patched(module: Any, **replacements: Any) -> Iterator[None]:
    saved = {name: getattr(module, name) for name in replacements}
    for name, value in replacements.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


# --- the bound ---------------------------------------------------------------------------


@contextmanager
def every_slot_taken() -> Iterator[None]:
    """As if other requests of this process were rendering PDFs right now."""
    taken = 0
    while caching.RENDERS.acquire():
        taken += 1
    try:
        yield
    finally:
        for _ in range(taken):
            caching.RENDERS.release()


@pytest.mark.parametrize("name", ["public:standings_pdf", "public:standings_csv"])
def test_beyond_the_bound_a_render_is_answered_503_with_retry_after(
    client, tournament, finished_table, name
):
    url = reverse(name, args=[tournament.slug])
    with every_slot_taken():
        busy = client.get(url)
    assert busy.status_code == 503 and busy["Retry-After"] == "5"
    assert client.get(url).status_code == 200
    # Kept now: served even while every slot is taken.
    with every_slot_taken():
        assert client.get(url).status_code == 200


def test_the_report_takes_no_render_slot_its_render_is_the_workers(
    client, tournament, finished_table, django_capture_on_commit_callbacks
):
    url = reverse("public:report_pdf", args=[tournament.slug])
    with every_slot_taken():
        with django_capture_on_commit_callbacks(execute=True):
            assert client.get(url).status_code == 202
        assert run_tasks() == 1
        assert client.get(url).status_code == 200


def test_the_bound_follows_the_settings_and_leaks_no_slot(
    client, settings, tournament, finished_table
):
    settings.EXPENSIVE_RENDERS = 2
    assert caching.RENDERS.limit == 2
    assert [caching.RENDERS.acquire() for _ in range(3)] == [True, True, False]
    caching.RENDERS.release()
    caching.RENDERS.release()
    # A render that fails gives its slot back.
    settings.EXPENSIVE_RENDERS = 1

    def broken() -> bytes:
        raise RuntimeError("the printer caught fire")

    with pytest.raises(RuntimeError):
        caching.download(("broken",), broken, HttpResponse)
    assert caching.RENDERS.running == 0
    url = reverse("public:standings_pdf", args=[tournament.slug])
    assert client.get(url).status_code == 200 and caching.RENDERS.running == 0


def test_the_referees_pages_are_never_bounded(referee_client, table, referee):
    with every_slot_taken():
        response = referee_client.get(reverse("tables:detail", args=[table.pk]))
    assert response.status_code == 200


# --- parts of whole pages -----------------------------------------------------------------


def token_in(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, html
    return match.group(1)


def test_a_kept_part_of_a_page_is_rendered_once_and_carries_each_readers_own_token(monkeypatch):
    """`caching.part` keeps a partial by its parts; a form in it gets the reader's CSRF
    token each time it is served, never the token of whoever had it rendered."""
    rendered = Calls(caching.render_to_string)
    monkeypatch.setattr(caching, "render_to_string", rendered)
    template = "seasons/_settings.html"
    first, second = (RequestFactory().get("/seasons/new/") for _ in range(2))
    html_first = caching.part(first, template, ("v1",), {"form": None, "season": None})
    html_second = caching.part(second, template, ("v1",), {"form": None, "season": None})
    assert rendered.count == 1
    assert caching.CSRF_PLACEHOLDER not in html_first + html_second
    # Each reader's token unmasks to their own secret (the cookie set on their answer).
    secrets = [unmask(token_in(html)) for html in (html_first, html_second)]
    assert secrets == [first.META["CSRF_COOKIE"], second.META["CSRF_COOKIE"]]
    assert secrets[0] != secrets[1]
    # Another version is another part.
    caching.part(first, template, ("v2",), {"form": None, "season": None})
    assert rendered.count == 2
