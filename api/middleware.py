"""The read API's manners at the HTTP level, for every address under /api/.

- **CORS**: any web page may read the API from a browser (`Access-Control-Allow-Origin: *`,
  never with credentials: nobody logs in to the API), and its scripts may read the `ETag`
  and `Retry-After` headers. A preflight (`OPTIONS` with `Access-Control-Request-Method`)
  is answered here, allowing GET, HEAD and OPTIONS and the `If-None-Match` header.
- **HEAD** is GET without the body (same status, ETag, length and rate limit); **OPTIONS**
  says what is allowed (`204`, `Allow: GET, HEAD, OPTIONS`) without running the operation.
- **Errors are JSON with a `code`**, whoever answers them: another method is `405`
  (`method_not_allowed`, with `Allow`), an unknown address `404` (`not_found`), and an error
  Django answers before or around the API's operations (a `400` for a host the site does
  not serve, a `500` in a middleware) takes the same shape. The operations' own errors are
  the API's (`api.http.install_error_handlers`) and pass as they are.

A middleware, not django-cors-headers: the API is read-only and public, so its CORS is three
fixed headers, and HEAD, OPTIONS and the errors need this layer anyway.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext

API_PREFIX = "/api/"
READ_METHODS = ("GET", "HEAD", "OPTIONS")
ALLOW = ", ".join(READ_METHODS)
# The request headers a page's script may send: the ETag it was given, and the language.
ALLOWED_HEADERS = "If-None-Match, Accept, Accept-Language"
# What a browser may keep a preflight's answer for (it caps it at 2 h or 24 h).
PREFLIGHT_SECONDS = 24 * 60 * 60
JSON = "application/json; charset=utf-8"

# The code of an error answered outside the API's operations, by status.
CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    429: "throttled",
    500: "server_error",
    503: "unavailable",
}


def _details() -> dict[int, str]:
    # In the request's language: asked when an error is answered.
    return {
        400: gettext("The request is not valid."),
        403: gettext("Not allowed."),
        404: gettext("Not found."),
        405: gettext("The API is read-only: GET, HEAD or OPTIONS."),
        429: gettext("Too many requests: try again later."),
        500: gettext("Something went wrong."),
        503: gettext("The database is not answering."),
    }


def json_error(status: int, code: str | None = None, detail: str | None = None) -> HttpResponse:
    """An error as the API writes them: `{"code": …, "detail": …}`."""
    body = {
        "code": code or CODES.get(status, "error"),
        "detail": detail or _details().get(status, gettext("The request failed.")),
    }
    return JsonResponse(
        body, status=status, content_type=JSON, json_dumps_params={"ensure_ascii": False}
    )


def _as_json(response: HttpResponseBase) -> HttpResponseBase:
    """An error response made by Django (a page) as the API's JSON error, its headers kept
    (Retry-After, Allow); the API's own errors are JSON already."""
    if response.status_code < 400 or response.get("Content-Type", "").startswith(
        "application/json"
    ):
        return response
    answer = json_error(response.status_code)
    for header in ("Retry-After", "Allow"):
        if header in response:
            answer[header] = response[header]
    return answer


class ReadApiMiddleware:
    """CORS, HEAD, OPTIONS and JSON errors for the read API (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        response = self._answer(request)
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
        return response

    def _answer(self, request: HttpRequest) -> HttpResponseBase:
        try:
            match = resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return json_error(404)
        if match.url_name == "api-root":
            # django-ninja's root address only names where the API starts: nothing is there.
            return json_error(404)
        if request.method == "OPTIONS":
            return self._options(request)
        if request.method not in READ_METHODS:
            refused = json_error(405)
            refused["Allow"] = ALLOW
            return refused
        if request.method != "HEAD":
            return _as_json(self.get_response(request))
        # HEAD: the GET's answer (status, ETag, Content-Length, the rate limit) without the
        # body. The operations are declared for GET: the request is one while it runs.
        request.method = "GET"
        try:
            response = _as_json(self.get_response(request))
        finally:
            request.method = "HEAD"
        if isinstance(response, HttpResponse) and response.status_code != 304:
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response

    def _options(self, request: HttpRequest) -> HttpResponse:
        answer = HttpResponse(status=204)
        del answer["Content-Type"]  # no body
        answer["Allow"] = ALLOW
        if "Access-Control-Request-Method" in request.headers:
            answer["Access-Control-Allow-Methods"] = ALLOW
            answer["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            answer["Access-Control-Max-Age"] = str(PREFLIGHT_SECONDS)
        return answer
