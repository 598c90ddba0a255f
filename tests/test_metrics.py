"""The operator's view of the site (issue 25, point 6): /health/ checks the database and the
cache; /metrics/ gives Prometheus the requests, errors and latency, the round saves, the
cache's hits and the renders refused for want of a slot, to the server itself only."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from prometheus_client import REGISTRY

from tests.factories import make_table, make_user
from tournaments import caching


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db
def test_health_answers_ok_when_the_database_and_the_cache_do(client):
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
    }


@pytest.mark.django_db
def test_health_names_a_cache_that_does_not_answer_and_fails_only_the_caches_monitor(
    client, monkeypatch
):
    def refused(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(cache, "get", refused)
    response = client.get(reverse("health"))
    # The proxy's check: the app server still serves without its cache.
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "unavailable"}
    readiness = client.get(reverse("health"), {"cache": "1"})
    assert readiness.status_code == 503
    assert readiness.json()["cache"] == "unavailable"


@pytest.mark.django_db
def test_the_server_itself_reads_the_metrics(client):
    client.get(reverse("health"))
    response = client.get(reverse("metrics"))
    assert response.status_code == 200
    text = response.content.decode()
    # Requests, answers by status (the errors among them) and latency, by view.
    assert 'django_http_requests_total_by_view_transport_method_total{method="GET",' in text
    assert "django_http_responses_total_by_status_total" in text
    assert (
        'django_http_requests_latency_seconds_by_view_method_count{method="GET",view="health"}'
        in text
    )
    for ours in (
        "yaniv_round_saves_total",
        "yaniv_cache_lookups_total",
        "yaniv_render_slot_refusals_total",
    ):
        assert f"# TYPE {ours} counter" in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "how",
    [
        {"REMOTE_ADDR": "203.0.113.7"},
        # Through Caddy: the connection is local, but the client is not.
        {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"},
    ],
)
def test_anyone_else_is_told_there_are_no_metrics(client, how):
    response = client.get(reverse("metrics"), **how)
    assert response.status_code == 404
    assert b"django_http" not in response.content


@pytest.mark.django_db
def test_an_error_answer_is_counted_by_its_status(client):
    before = sample("django_http_responses_total_by_status_total", status="404")
    client.get("/no-such-page/")
    assert sample("django_http_responses_total_by_status_total", status="404") == before + 1


@pytest.mark.django_db
def test_each_round_a_referee_saves_is_counted_once(client):
    referee = make_user("ref")
    table = make_table(referee=referee)
    client.force_login(referee)
    post = {"number": 1, "hand_1": 3, "hand_2": 9, "hand_3": 9, "hand_4": 9, "ending": "yaniv:1"}
    before = sample("yaniv_round_saves_total")
    assert client.post(reverse("tables:record", args=[table.pk]), post).status_code == 302
    assert sample("yaniv_round_saves_total") == before + 1
    # Refused input saves nothing and counts nothing.
    client.post(reverse("tables:record", args=[table.pk]), {**post, "number": 2, "hand_1": 99})
    assert sample("yaniv_round_saves_total") == before + 1


def test_cache_lookups_are_counted_as_misses_then_hits():
    cache.clear()
    hits = sample("yaniv_cache_lookups_total", kind="fragment", result="hit")
    misses = sample("yaniv_cache_lookups_total", kind="fragment", result="miss")
    for _ in range(3):
        caching.fragment(RequestFactory().get("/counted/"), ("v1",), lambda: HttpResponse("x"))
    assert sample("yaniv_cache_lookups_total", kind="fragment", result="miss") == misses + 1
    assert sample("yaniv_cache_lookups_total", kind="fragment", result="hit") == hits + 2


def test_a_render_refused_for_want_of_a_slot_is_counted(settings):
    cache.clear()
    settings.EXPENSIVE_RENDERS = 1
    before = sample("yaniv_render_slot_refusals_total")
    assert caching.RENDERS.acquire()
    try:
        response = caching.download(("refused",), lambda: b"pdf", HttpResponse)
    finally:
        caching.RENDERS.release()
    assert response.status_code == 503
    assert sample("yaniv_render_slot_refusals_total") == before + 1
