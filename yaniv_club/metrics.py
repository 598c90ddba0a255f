"""Prometheus metrics, for the operator only: /metrics/ on each app server.

django-prometheus counts the requests, their answers (errors among them) and their latency
(its two middlewares, first and last); the site adds what a tournament day is about: the
referees' round saves, the cache's hits and misses, the expensive renders refused for want of
a slot (a PDF or CSV render never waits: beyond the bound it is refused with 503).

Who may read them: a client on the server itself talking to the app server directly —
from a loopback address, and not through Caddy (which always sends X-Forwarded-For, and
answers /metrics 404 anyway). The operator's Prometheus or agent on the server scrapes
127.0.0.1:8001/metrics/ and 127.0.0.1:8002/metrics/. No token: nothing to leak or rotate,
and gunicorn listens on loopback only, so nobody else reaches it. Everyone else gets 404.

With several gunicorn workers, each is a process of its own: PROMETHEUS_MULTIPROC_DIR
(set by the systemd unit, emptied at each start) makes the answer add them all up.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

LOOPBACK = {"127.0.0.1", "::1"}


def operator(request: HttpRequest) -> bool:
    return (
        request.META.get("REMOTE_ADDR") in LOOPBACK and "HTTP_X_FORWARDED_FOR" not in request.META
    )


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    if not operator(request):
        raise Http404
    # Imported here: only the operator's scrape needs the exporter (the counters live in
    # tournaments/metrics.py).
    from django_prometheus.exports import ExportToDjangoView  # type: ignore[import-untyped]

    return ExportToDjangoView(request)
