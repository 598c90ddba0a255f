"""The installable web app: its service worker, the page it shows offline, the favicon."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# What a phone keeps from its first visit, so that a page opened once opens offline.
PRECACHE = (
    "css/site.css",
    "css/hall.css",
    "js/hall.js",
    "js/site.js",
    "js/table.js",
    "js/table-early.js",
    "js/yaniv-engine.js",
    "vendor/idb-keyval/umd.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
    "manifest.webmanifest",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/favicon-32.png",
)


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it may serve every page.

    Its cache's name follows the static files' URLs, which carry their content's hash in
    production: new files, new cache, old one dropped.
    """
    urls = [static(path) for path in PRECACHE]
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    # JSON is JavaScript: the URLs are written as string literals, quoted and escaped.
    return render(
        request,
        "tournaments/sw.js",
        {
            "urls": json.dumps(urls),
            "offline": json.dumps(reverse("public:offline")),
            "version": version,
        },
        content_type="application/javascript; charset=utf-8",
    )


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page never opened on this phone, offline."""
    return render(request, "tournaments/offline.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says."""
    return HttpResponsePermanentRedirect(static("icons/favicon-32.png"))
