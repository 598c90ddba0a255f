from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
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
