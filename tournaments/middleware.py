"""Answers the access module's refusals that Django has no exception for."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.access import TooManyGuesses


class TooManyGuessesMiddleware:
    """A wrong table code past the guess limit: 429 with Retry-After, for the rest of the
    window (a right code is never refused)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyGuesses):
            minutes = max(1, -(-exception.retry_after // 60))
            response = render(request, "429.html", {"minutes": minutes}, status=429)
            response["Retry-After"] = str(exception.retry_after)
            return response
        return None
