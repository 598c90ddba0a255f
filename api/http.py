"""What every answer of the API shares: paging, ETags, the rate limit and errors as JSON.

- **One path for every operation** (`tagged`): the operation finds what it shows and returns
  a `Tagged` answer — the parts its ETag is made of and how to build its body (`paged` for a
  list); the decorator answers 304 when the client has that tag, else builds the body.
- **Paging**: every list is a page, `limit` (up to a maximum per list) from `offset`, with
  the `count` of the whole list.
- **ETags** (`not_modified`): an answer's tag is a digest of the versions the public pages
  poll by (`Tournament.live_version`, `tournaments.caching.stamp`) or of the rows a list is
  made of, the URL with its query and the code's generation, computed before anything is
  serialized; a client that sends it back in `If-None-Match` gets `304 Not Modified` with no
  body. What no version counts (a player renamed) shows within `FRESH_SECONDS` at most, as
  on the public pages (their kept fragments expire then too): the tag changes with that
  window.
- **The rate limit** (`AddressThrottle`): at most `API_REQUESTS` requests per `API_WINDOW`
  seconds from one client (`tournaments.addresses.client_network`: the address behind the
  trusted proxies, an IPv6 one by its /64), counted in Django's cache (Redis with `CACHE_URL`:
  shared by every worker); beyond it `429` with `Retry-After`.
- **Errors**: JSON `{"code": …, "detail": …}` with a code a program can test
  (`not_found`, `invalid` with the fields' `errors`, `throttled`, `unavailable`,
  `server_error`); the detail is for people, in the request's language. What Django answers
  around the operations (405, an unknown address, a 400) is made JSON by `api.middleware`,
  which also answers HEAD, OPTIONS and CORS.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from django.utils.translation import gettext
from ninja import Field, NinjaAPI, Schema
from ninja.errors import HttpError, Throttled, ValidationError
from ninja.params import HeaderEx, P
from ninja.throttling import BaseThrottle

from tournaments import addresses, caching
from tournaments.addresses import client_network

T = TypeVar("T")

logger = logging.getLogger(__name__)

# How long an answer's tag may stay the same while something no version counts changed.
FRESH_SECONDS = caching.FRAGMENT_SECONDS
# The furthest a page may start: beyond any list the site holds, within every database's
# integers.
MAX_OFFSET = 1_000_000
# What the rate limit allows by default: requests per window (seconds) from one address.
API_REQUESTS = 3000
API_WINDOW = 60
# A database outage: when to ask again (the site's 503 says the same).
RETRY_AFTER_OUTAGE = 5


# --- paging ------------------------------------------------------------------------------


class Paging(Schema):
    """The page asked for: `limit` items from `offset`."""

    limit: int = Field(50, ge=1, le=100, description="How many items, at most 100.")
    offset: int = Field(0, ge=0, le=MAX_OFFSET, description="How many items to skip.")


class Page(Schema, Generic[T]):
    """A page of a list: its items, and how many the whole list holds."""

    count: int = Field(description="How many items the whole list holds.")
    limit: int
    offset: int
    items: list[T]


def page(items: Sequence[Any], count: int, paging: Paging) -> dict[str, Any]:
    return {"count": count, "limit": paging.limit, "offset": paging.offset, "items": items}


def window(items: Any, paging: Paging) -> Any:
    """The page's slice of a list or a query (a query slices in SQL)."""
    return items[paging.offset : paging.offset + paging.limit]


# --- ETags --------------------------------------------------------------------------------


@functools.cache
def generation() -> str:
    """The code the answers are made by: this package and what `caching` digests (the
    tournaments app and the engine). A deploy changes every tag."""
    digest = hashlib.sha256(caching.generation().encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def fresh_window() -> int:
    return int(time.time() // FRESH_SECONDS)


def etag(request: HttpRequest, parts: Iterable[object]) -> str:
    text = "\x1f".join(
        str(part) for part in (generation(), fresh_window(), request.get_full_path(), *parts)
    )
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def rows_digest(rows: Iterable[Iterable[object]]) -> str:
    """A digest of the rows a list shows (its tag when no version counts them)."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def not_modified(
    request: HttpRequest, response: HttpResponse, if_none_match: str | None, *parts: object
) -> HttpResponse | None:
    """Tag the answer with the ETag of `parts`; a 304 to return when the client has it."""
    tag = etag(request, parts)
    response["ETag"] = tag
    # Anyone may keep it (it is public), and must ask again before using it.
    response["Cache-Control"] = "public, no-cache"
    if if_none_match:
        known = parse_etags(if_none_match)
        if "*" in known or any(candidate.removeprefix("W/") == tag for candidate in known):
            unchanged = HttpResponseNotModified()
            unchanged["ETag"] = tag
            unchanged["Cache-Control"] = response["Cache-Control"]
            return unchanged
    return None


# --- one path for every operation ----------------------------------------------------------

IfNoneMatch = HeaderEx[
    str | None,
    P(alias="If-None-Match", description="The ETag of an earlier answer: 304 if unchanged."),
]


@dataclass(frozen=True)
class Tagged:
    """An operation's answer before its body is built: the parts its ETag is made of (the
    versions and rows it shows), and how to build the body once the client lacks it."""

    parts: tuple[object, ...]
    build: Callable[[], Any]


def paged(
    items: Any,
    paging: Paging,
    *,
    shown: Callable[[list[Any]], Iterable[Iterable[object]]],
    out: Callable[[list[Any]], list[Any]],
) -> Tagged:
    """A list's answer: the page of `items` (a query counts and slices in SQL), tagged by the
    list's count and what its rows show (`shown`), its body the rows written out (`out`)."""
    count = len(items) if isinstance(items, Sequence) else items.count()
    rows = list(window(items, paging))
    return Tagged((count, rows_digest(shown(rows))), lambda: page(out(rows), count, paging))


def tagged(operation: Callable[..., Tagged]) -> Callable[..., Any]:
    """Every operation's conditional answer: its `Tagged` answer becomes a 304 when the client
    sent its tag back (If-None-Match), else the body. (Django's `condition` decorator would
    compute the tag from the request alone, loading the tournament a second time.)"""
    signature = inspect.signature(operation, eval_str=True)

    @functools.wraps(operation)
    def answer(
        request: HttpRequest,
        *args: Any,
        response: HttpResponse,
        if_none_match: str | None = None,
        **kwargs: Any,
    ) -> Any:
        tagged_answer = operation(request, *args, **kwargs)
        unchanged = not_modified(request, response, if_none_match, *tagged_answer.parts)
        return unchanged or tagged_answer.build()

    # What Django Ninja reads the parameters from: the operation's own, the answer's headers
    # (the temporal response) and If-None-Match.
    answer.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[
            *signature.parameters.values(),
            inspect.Parameter("response", inspect.Parameter.KEYWORD_ONLY, annotation=HttpResponse),
            inspect.Parameter(
                "if_none_match",
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=IfNoneMatch,
            ),
        ]
    )
    return answer


# --- the rate limit -----------------------------------------------------------------------


def _limit() -> tuple[int, int]:
    return (
        int(getattr(settings, "API_REQUESTS", API_REQUESTS)),
        int(getattr(settings, "API_WINDOW", API_WINDOW)),
    )


class AddressThrottle(BaseThrottle):
    """At most API_REQUESTS requests per API_WINDOW seconds from one client (an IPv6 /64:
    `tournaments.addresses`).

    Counted in fixed windows of the clock (one cache key per address and window, added then
    incremented: atomic in Redis and memcached), so that nothing is kept per request and the
    wait is the rest of the window.
    """

    def allow_request(self, request: HttpRequest) -> bool:
        limit, seconds = _limit()
        start = int(time.time() // seconds)
        key = f"api-requests:{seconds}:{start}:{client_network(request)}"
        return addresses.count(key, seconds + 1) <= limit

    def wait(self) -> float:
        _, seconds = _limit()
        return max(1.0, seconds - time.time() % seconds)


# --- errors -------------------------------------------------------------------------------


class Error(Schema):
    """An error: `code` for programs, `detail` for people."""

    code: str = Field(
        description="not_found, invalid, throttled, unavailable, server_error, "
        "method_not_allowed or bad_request",
        examples=["not_found"],
    )
    detail: str


class FieldError(Schema):
    loc: list[str | int] = Field(description="Where: path, query or header, then the name.")
    msg: str


class Invalid(Error):
    """A parameter out of its bounds: which, and why."""

    errors: list[FieldError]


# Every operation answers these besides its 200 (and 304 with its ETag).
ERRORS: dict[int, Any] = {304: None, 404: Error, 422: Invalid, 429: Error, 503: Error}


def error(api: NinjaAPI, request: HttpRequest, status: int, code: str, detail: str) -> Any:
    return api.create_response(request, {"code": code, "detail": detail}, status=status)


def install_error_handlers(api: NinjaAPI) -> None:
    """Every error the API answers, as JSON with a code."""

    def not_found(request: HttpRequest, exc: Any) -> HttpResponse:
        detail = str(exc) if isinstance(exc, Http404) and exc.args else gettext("Not found.")
        return error(api, request, 404, "not_found", detail)

    def invalid(request: HttpRequest, exc: Any) -> HttpResponse:
        errors = [
            {"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", ""))}
            for item in exc.errors
        ]
        return api.create_response(
            request,
            {"code": "invalid", "detail": gettext("A parameter is not valid."), "errors": errors},
            status=422,
        )

    def http_error(request: HttpRequest, exc: Any) -> HttpResponse:
        if isinstance(exc, Throttled):
            return error(
                api, request, 429, "throttled", gettext("Too many requests: try again later.")
            )
        return error(api, request, exc.status_code, "error", str(exc))

    def server_error(request: HttpRequest, exc: Any) -> HttpResponse:
        if isinstance(exc, OperationalError | InterfaceError):
            logger.error("database unavailable: %s %s: %s", request.method, request.path, exc)
            response = error(
                api, request, 503, "unavailable", gettext("The database is not answering.")
            )
            response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
            return response
        logger.exception("API error: %s %s", request.method, request.path)
        return error(api, request, 500, "server_error", gettext("Something went wrong."))

    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(ValidationError, invalid)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(Exception, server_error)
