"""The installable web app: manifest, icons, service worker, offline page, vendored scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"

pytestmark = pytest.mark.django_db


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    assert match, f"{pattern} not in the page"
    return match.group(1)


def test_every_page_links_the_manifest_the_icons_and_the_theme_colour(client):
    html = client.get(reverse("public:home")).content.decode()
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#0b6e4f">' in html
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in html
    assert 'rel="icon" href="/static/icons/favicon-32.png"' in html
    assert f'data-service-worker="{reverse("public:service_worker")}"' in html


def test_the_manifest_names_the_app_and_icons_that_exist():
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text("utf-8"))
    assert manifest["name"] == "Yaniv Club" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#0b6e4f"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file(), icon["src"]


def test_the_service_worker_is_served_from_the_root_fresh_each_time(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    precached = json.loads(found(r"const PRECACHE = (\[.*?\]);", script))
    for path in ("/static/js/table.js", "/static/js/yaniv-engine.js", "/static/css/site.css"):
        assert path in precached
    # It never answers a write, and keeps no admin or login page.
    assert 'if (request.method !== "GET") return;' in script
    assert '"/admin/"' in script and '"/accounts/"' in script


def test_the_offline_page_and_the_favicon(client):
    assert client.get(reverse("public:offline")).status_code == 200
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/icons/favicon-32.png"


def test_each_vendored_script_records_its_version_and_licence():
    listed = [
        line.split()
        for line in (STATIC / "vendor" / "packages.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert listed, "packages.txt lists the vendored scripts"
    for name, version, file in listed:
        folder = STATIC / "vendor" / name
        assert (folder / Path(file).name).is_file()
        assert (folder / "LICENSE").read_text().strip()
        assert (folder / "VERSION").read_text().startswith(f"{name} {version} (")
    assert (ROOT / "scripts" / "vendor-js.sh").is_file()


def test_the_referees_page_loads_the_offline_scripts_and_the_device_state(client):
    from tests.factories import make_table, make_user

    referee = make_user("ref")
    table = make_table(referee=referee)
    client.force_login(referee)
    html = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    for script in ("vendor/idb-keyval/umd.js", "js/yaniv-engine.js", "js/table.js"):
        assert f'src="/static/{script}"' in html
    state = json.loads(found(r'id="game-state"[^>]*>(.*?)</script>', html))
    assert state["players"] == ["Ann", "Bart", "Chris", "Dirk"]
    assert state["ruleset"] == "belgian" and state["rounds"] == [] and state["version"] == 0
    texts = json.loads(found(r'id="device-texts"[^>]*>(.*?)</script>', html))
    assert texts["errors"]["hand_range"] == "hand of %(player)s must be an integer 0-%(max)s"
    # Followers get the sheet, not the scripts of the people running the table.
    client.logout()
    html = client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert "js/table.js" not in html and 'id="game-state"' not in html
