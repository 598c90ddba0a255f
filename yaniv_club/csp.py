"""The Content-Security-Policy header: the pages run our own scripts and styles only.

A middleware of our own rather than django-csp: the policy is one constant with no nonces and
no per-view exceptions, and Django 6 brings the same thing built in. `SECURE_CSP` has the
shape of Django 6's setting (directive → list of sources), so moving to
`django.middleware.csp.ContentSecurityPolicyMiddleware` is one line of MIDDLEWARE.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy(directives: dict[str, list[str]]) -> str:
    """`{"default-src": ["'self'"], …}` as the header's value."""
    return "; ".join(" ".join([directive, *sources]) for directive, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    """Sends `settings.SECURE_CSP` on every answer that has no policy of its own, except PDFs:
    a browser shows those with a viewer of its own, which `object-src 'none'` may stop."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.value = policy(getattr(settings, "SECURE_CSP", {}))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        pdf = response.get("Content-Type", "").startswith("application/pdf")
        if self.value and HEADER not in response and not pdf:
            response[HEADER] = self.value
        return response
