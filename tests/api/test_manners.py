"""The API's manners: HEAD and OPTIONS on every read operation, CORS for any web page (no
credentials), and every error as JSON with a code, a 405, an unknown address and Django's
own 400 and 500 included."""

from __future__ import annotations

from typing import Any

import pytest
from django.middleware.common import CommonMiddleware
from django.test import Client

from api import http
from tests.api.test_http import EVERY_PATH, V1

pytestmark = pytest.mark.django_db

ORIGIN = "https://yc-gent.example"


def assert_json_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert response["Access-Control-Allow-Origin"] == "*"


# --- HEAD and OPTIONS --------------------------------------------------------------------------


def test_head_answers_every_read_operation_as_get_without_the_body(api, world):
    for path in (*EVERY_PATH, f"/players/{world.both.pk}", "/openapi.json"):
        got = api.get(V1 + path)
        head = api.head(V1 + path)
        assert head.status_code == 200, path
        assert head.content == b""
        assert head["Content-Length"] == str(len(got.content))
        assert head["Content-Type"] == got["Content-Type"]
        if path != "/openapi.json":
            assert head["ETag"] == got["ETag"]


def test_head_with_the_etag_is_a_304_and_head_of_nothing_a_404(api, world):
    etag = api.get(f"{V1}/tournaments/bk/standings")["ETag"]
    again = api.head(f"{V1}/tournaments/bk/standings", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert api.head(f"{V1}/tournaments/nowhere").status_code == 404


def test_head_counts_against_the_rate_limit(api, world, settings):
    settings.API_REQUESTS = 1
    assert api.head(f"{V1}/tournaments").status_code == 200
    assert api.head(f"{V1}/tournaments").status_code == 429


def test_options_says_what_every_operation_allows_without_running_it(
    api, world, django_assert_num_queries
):
    for path in (*EVERY_PATH, f"/players/{world.both.pk}"):
        with django_assert_num_queries(0):
            response = api.options(V1 + path)
        assert response.status_code == 204, path
        assert response["Allow"] == "GET, HEAD, OPTIONS"
        assert response.content == b""


# --- CORS --------------------------------------------------------------------------------------


def test_any_web_page_may_read_the_api_without_credentials(api, world):
    response = api.get(f"{V1}/tournaments/bk/standings", headers={"Origin": ORIGIN})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    # Its script may read the ETag to send it back, and how long to wait after a 429.
    assert set(response["Access-Control-Expose-Headers"].split(", ")) == {"ETag", "Retry-After"}


def test_a_preflight_allows_reading_with_an_etag(api, world):
    response = api.options(
        f"{V1}/tournaments/bk/standings",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "if-none-match",
        },
    )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "If-None-Match" in response["Access-Control-Allow-Headers"]
    assert int(response["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response


def test_errors_and_304s_are_readable_by_a_page_too(api, world, settings):
    etag = api.get(f"{V1}/tournaments/bk")["ETag"]
    unchanged = api.get(f"{V1}/tournaments/bk", headers={"If-None-Match": etag, "Origin": ORIGIN})
    assert unchanged.status_code == 304
    assert unchanged["Access-Control-Allow-Origin"] == "*"
    assert api.get(f"{V1}/tournaments/nowhere")["Access-Control-Allow-Origin"] == "*"
    settings.API_REQUESTS = 0
    assert_json_error(api.get(f"{V1}/tournaments"), 429, "throttled")


def test_the_sites_own_pages_are_not_opened_to_other_origins(client, world):
    response = client.get("/t/bk/standings/", headers={"Origin": ORIGIN})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response
    assert client.options("/t/bk/standings/").status_code == 405


# --- every error as JSON with a code ------------------------------------------------------------


def test_another_method_is_a_json_405_that_says_what_is_allowed(api, world):
    for method in (api.post, api.put, api.patch, api.delete):
        for path in ("/tournaments/bk", "/tournaments/bk/standings", "/openapi.json"):
            response = method(V1 + path)
            assert_json_error(response, 405, "method_not_allowed")
            assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_an_unknown_address_is_a_json_404(api, world):
    for path in ("/nowhere", "/tournaments/bk/standings/extra", "/tournaments/bk/", "/"):
        assert_json_error(api.get(V1 + path), 404, "not_found")
        assert_json_error(api.post(V1 + path), 404, "not_found")
    assert_json_error(api.options(f"{V1}/nowhere"), 404, "not_found")
    assert_json_error(api.get("/api/v2/tournaments"), 404, "not_found")


def test_a_host_the_site_does_not_serve_is_a_json_400(api, world):
    assert_json_error(
        api.get(f"{V1}/tournaments", HTTP_HOST="attacker.example"), 400, "bad_request"
    )


def test_an_error_around_the_operations_is_a_json_500(world, monkeypatch):
    def broken(self: Any, request: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(CommonMiddleware, "process_request", broken)
    response = Client(raise_request_exception=False).get(f"{V1}/tournaments")
    assert_json_error(response, 500, "server_error")
    assert b"boom" not in response.content


def test_the_errors_speak_the_readers_language(api, world):
    refused = api.delete(f"{V1}/tournaments/bk", headers={"Accept-Language": "fr"})
    assert refused.json()["code"] == "method_not_allowed"
    assert refused.json()["detail"] != "The API is read-only: GET, HEAD or OPTIONS."


# --- the rate limit's default ----------------------------------------------------------------


def test_the_default_limit_lets_a_reader_and_a_test_run_through(settings):
    # A schemathesis run or a venue's wifi behind one address: thousands a minute.
    assert http.API_REQUESTS == settings.API_REQUESTS or settings.API_REQUESTS == 1_000_000
    assert http.API_REQUESTS >= 3000 and http.API_WINDOW == 60
