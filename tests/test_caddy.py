"""The deploy's Caddy configuration (deploy/yaniv.caddy) in front of a production gunicorn:
what it compresses (no HTML: the site gzips its pages but those holding a secret, BREACH),
the static files' and the service worker's caching, the metrics kept from the public."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]

# collectstatic, gunicorn and Caddy started for the module (`make test`, CI).
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The site's database, its collected static files (`static/`) and the Caddyfile."""
    return tmp_path_factory.mktemp("caddy")


@pytest.fixture(scope="module")
def site(folder) -> Iterator[str]:
    """Caddy on plain HTTP in front of one gunicorn app server (DEBUG=0, collected statics)."""
    assert shutil.which("caddy"), "apt-get install caddy (.ci/run does)"
    environment = {
        **{
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL"}
        },
        "DEBUG": "0",
        "SECRET_KEY": "a-caddy-test-secret-of-more-than-fifty-characters-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        # Plain HTTP here: in production Caddy speaks HTTPS and says so.
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "TRUSTED_PROXY_COUNT": "1",
        # Its own folder: a benchmark's smoke test may be collecting beside it.
        "STATIC_ROOT": str(folder / "static"),
    }
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    app, port = free_port(), free_port()
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", f"--bind=127.0.0.1:{app}"]
        + ["--workers=1", "--threads=2"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    caddyfile = folder / "Caddyfile"
    caddyfile.write_text(
        "{\n\tauto_https off\n\tadmin off\n}\n"
        f"import {ROOT / 'deploy' / 'yaniv.caddy'}\n"
        f"http://:{port} {{\n\timport yaniv\n}}\n"
    )
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
        env={
            **os.environ,
            "YANIV_STATIC": environment["STATIC_ROOT"],
            "YANIV_UPSTREAMS": f"127.0.0.1:{app}",
            "YANIV_HOST": "127.0.0.1",
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/health/", trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        yield base
    finally:
        for server in (caddy, gunicorn):
            server.terminate()
            server.wait(10)


def get(url: str, **headers: str) -> httpx.Response:
    return httpx.get(url, headers={"Accept-Encoding": "gzip", **headers}, trust_env=False)


def test_the_login_page_is_never_compressed(site):
    page = get(f"{site}/accounts/login/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "csrfmiddlewaretoken" in page.text
    assert "content-encoding" not in page.headers
    assert "server" not in page.headers


def test_a_public_page_reaches_the_phone_gzipped_once(site):
    page = get(f"{site}/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # Django's gzip (with its random padding), passed through by Caddy, not encoded again.
    assert page.headers["content-encoding"] == "gzip"
    assert "Yaniv Club" in page.text


def test_the_api_json_is_compressed(site):
    description = get(f"{site}/api/v1/openapi.json")
    assert description.status_code == 200
    assert description.headers["content-encoding"] == "gzip"
    assert "paths" in description.json()


def test_the_service_worker_is_served_at_the_root_and_checked_on_every_visit(site):
    worker = get(f"{site}/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("application/javascript")
    assert "no-cache" in worker.headers["cache-control"]


def test_hashed_static_files_come_from_disk_precompressed_and_kept_a_year(site, folder):
    manifest = json.loads((folder / "static" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["css/site.css"]
    css = get(f"{site}/static/{hashed}")
    assert css.status_code == 200
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert css.headers["content-encoding"] == "gzip"
    assert css.headers["x-content-type-options"] == "nosniff"
    # The unhashed name is served too, but not kept for a year.
    plain = get(f"{site}/static/css/site.css")
    assert plain.status_code == 200 and "immutable" not in plain.headers.get("cache-control", "")


def test_a_phone_asking_for_brotli_gets_the_minified_script_compressed_by_brotli(site, folder):
    manifest = json.loads((folder / "static" / "staticfiles.json").read_text())
    script = get(f"{site}/static/{manifest['paths']['js/table.js']}", **{"Accept-Encoding": "br"})
    source = Path(__file__).resolve().parents[1] / "static" / "js" / "table.js"

    assert script.status_code == 200
    assert script.headers["content-encoding"] == "br"
    assert len(script.content) < 0.8 * source.stat().st_size
    assert script.num_bytes_downloaded < len(script.content) / 3


def test_the_metrics_are_not_served_through_caddy(site):
    assert get(f"{site}/metrics/").status_code == 404
    assert get(f"{site}/metrics").status_code == 404
