"""Where the API is described: the OpenAPI description and the interactive docs page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

from yaniv_club.csp import policy

V1 = "/api/v1"


def test_the_openapi_description_is_served_from_the_code(client):
    response = client.get(f"{V1}/openapi.json")
    assert response.status_code == 200
    description = response.json()
    assert description["openapi"].startswith("3.")
    assert description["info"]["title"] == "Yaniv Club"
    assert "/api/v1/tournaments/{slug}/standings" in description["paths"]
    standings = description["paths"]["/api/v1/tournaments/{slug}/standings"]["get"]
    assert set(standings["responses"]) == {"200", "304", "404", "422", "429", "503"}
    assert "If-None-Match" in {parameter["name"] for parameter in standings["parameters"]}


def test_the_game_record_is_described_as_docs_game_record_states_it(client):
    schemas = client.get(f"{V1}/openapi.json").json()["components"]["schemas"]
    record = schemas["GameRecord"]
    assert set(record["required"]) == {"ruleset", "players", "rounds"}
    assert set(schemas["RoundRecord"]["properties"]) == {"hands", "yaniv", "along", "empty_hand"}
    assert schemas["RoundRecord"]["required"] == ["hands"]


@pytest.mark.django_db
def test_the_docs_page_loads_swagger_ui_from_this_sites_static_files(client):
    response = client.get(f"{V1}/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert f"{settings.STATIC_URL}ninja/swagger-ui-bundle.js" in sources
    assert f"{settings.STATIC_URL}ninja/swagger-ui-init.js" in sources
    # Nothing from elsewhere, no inline script: what the Content-Security-Policy allows.
    assert all(source.startswith("/") for source in sources), sources
    assert "<script>" not in html and "style=" not in html
    assert response["Content-Security-Policy"] == policy(settings.SECURE_CSP)
    for name in ("swagger-ui-bundle.js", "swagger-ui-init.js", "swagger-ui.css"):
        assert finders.find(f"ninja/{name}"), name
