from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.middleware.gzip import GZipMiddleware
from django.template.response import TemplateResponse

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """A database outage answers 503 "not saved, try again" instead of a server error.

    Every write runs in a transaction, so a request that failed here saved nothing;
    persistent connections with health checks reconnect once the database is back.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("database unavailable: %s %s: %s", request.method, request.path, exception)
        response = TemplateResponse(request, "503.html", status=503)
        response["Retry-After"] = "5"
        return response


class WriteLogMiddleware:
    """A structured log line for every request that may write: who, what, the answer."""

    logger = logging.getLogger("yaniv_club.writes")

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.method in {"GET", "HEAD", "OPTIONS"}:
            return self.get_response(request)
        started = time.monotonic()
        response = self.get_response(request)
        # Only a user the request already loaded: loading it now could hit a database that
        # just went away and turn a clean 503 into a 500.
        user = getattr(request, "_cached_user", None)
        match = getattr(request, "resolver_match", None)
        self.logger.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "user": user.get_username() if user and user.is_authenticated else None,
                "view": match.view_name if match else None,
                "arguments": match.kwargs if match else None,
                "status": response.status_code,
                "duration_ms": round((time.monotonic() - started) * 1000, 1),
            },
        )
        return response


class PermissionsPolicyMiddleware:
    """Sends `settings.PERMISSIONS_POLICY` (the header's value) on every answer of the site
    (errors too; static files are served before it, as a browser reads it on documents only):
    the site uses no camera, microphone, position or payment, so neither may anything it
    shows, nor a page that frames it."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.value = str(getattr(settings, "PERMISSIONS_POLICY", ""))

    def __call__(self, request):
        response = self.get_response(request)
        if self.value and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = self.value
        return response


class PageCompressionMiddleware(GZipMiddleware):
    """The HTML pages gzipped, but for those that hold a secret.

    A page is most of what a phone downloads on a cold load (a table page's 44 KB against
    its 42 KB of scripts and style, which the static files' storage compresses already).
    BREACH reads a secret through the compressed size of a page that also reflects what an
    attacker typed (the language switcher's `next` is the URL). Django masks the CSRF token
    afresh in every response and, since 4.2, pads each gzip answer with up to 100 random
    bytes (Heal the Breach); what it cannot mask is a secret written in the page itself: a
    table's code, a check-in door's or a hall screen's key, a reset or stop token (in their
    own URLs), and the directors' pages that list codes and links. Those go uncompressed.
    JSON, scripts and styles are compressed where they are served (Caddy, whitenoise).
    """

    SECRET_PREFIXES = ("/c/", "/in/", "/hall/", "/notifications/", "/accounts/", "/admin/")

    @classmethod
    def holds_a_secret(cls, path: str) -> bool:
        return path.startswith(cls.SECRET_PREFIXES) or "/manage/" in path

    def process_response(self, request, response):
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        if self.holds_a_secret(request.path):
            return response
        return super().process_response(request, response)
