"""The shared cache of the public answers, and a bound on the expensive ones (issue 14, 13).

Django's cache (`CACHE_URL=redis://…`: Redis, shared by every gunicorn worker and app server;
otherwise each process's memory) keeps what many phones ask for and nobody should render
twice:

- **fragments** (`fragment`): the live parts the pages poll for — a tournament's tables, the
  standings, a table's sheet as its followers see it — rendered once per version of what they
  show, in each language, and served as they are to every phone a version behind. The view
  checks access first and only then asks here: a private tournament's fragment is never served
  to someone who may not see it. Nothing rendered with a CSRF token or setting a cookie is
  kept (those are one person's), and only htmx fragments are: a whole page carries its
  reader's token.
- **parts of pages** (`part`): the same, inside a whole page (a table's sheet, the standings
  table), with a placeholder for the CSRF token of any form in it, filled per reader.
- **downloads** (`download`): every PDF and CSV, by the version of what it shows; a second
  request for an unchanged report renders nothing. It is made whole within the bound, then
  sent: a slow reader never holds a render slot.
- **the bound** (`RENDERS`): at most `EXPENSIVE_RENDERS` PDF or CSV renders run at once in the
  whole site when the cache is shared (Redis), else in each process (1 unless the settings say
  otherwise); beyond it the answer is 503 with Retry-After at once, so that followers asking
  for reports can never take every worker from the referees. Cached answers need no render and
  pass.

Keys hold the kind of answer, the language, the parts the caller names (the URL's path, the
version, what else the answer shows) and the site's generation: a digest of the templates,
catalogues and code, so that a deploy never serves the markup of the previous one. Entries
expire after `FRAGMENT_SECONDS` / `DOWNLOAD_SECONDS` in any case. A player renamed is counted
by the versions of their sessions (`Player.save`).
"""

from __future__ import annotations

import functools
import hashlib
import threading
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from tournaments import metrics

# How long a kept answer may be served at most, in seconds.
FRAGMENT_SECONDS = 10 * 60
DOWNLOAD_SECONDS = 60 * 60
# What a client asked to wait is told before asking again (503).
RETRY_AFTER_SECONDS = 5


# --- keys ---------------------------------------------------------------------------------


@functools.cache
def generation() -> str:
    """A digest of what the cached answers are made from: templates, catalogues, code.

    The same on every app server running the same release (content, not file times).
    """
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    sources = [
        *(base / "templates").rglob("*.html"),
        *(base / "locale").rglob("*.mo"),
        *Path(__file__).parent.rglob("*.py"),
        *(base / "scoring").rglob("*.py"),
    ]
    for path in sorted(sources):
        digest.update(str(path.relative_to(base) if path.is_relative_to(base) else path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def stamp(tournament: Any) -> str:
    """What a tournament's answers show of the tournament itself (name, venue, dates, rule
    set, status, …), which no game version counts: a director's edit makes new keys."""
    values = [
        (field.attname, getattr(tournament, field.attname))
        for field in tournament._meta.concrete_fields
    ]
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


def key(kind: str, *parts: object) -> str:
    """The cache key of an answer of `kind` made of `parts`, in the active language."""
    text = "\x1f".join(str(part) for part in (generation(), get_language(), *parts))
    return f"{kind}:{hashlib.sha256(text.encode()).hexdigest()}"


# --- fragments ---------------------------------------------------------------------------


def fragment(
    request: HttpRequest, parts: Iterable[object], render: Callable[[], HttpResponse]
) -> HttpResponse:
    """The fragment at this URL for `parts` (the version and whatever else it shows): kept,
    or rendered by `render` and kept when it is anyone's to see.

    Call it after the access check, with everything the fragment depends on besides the
    path and the language in `parts`.
    """
    name = key("fragment", request.path, *parts)
    kept = cache.get(name)
    metrics.looked_up("fragment", kept)
    if kept is not None:
        content, content_type = kept
        return HttpResponse(content, content_type=content_type)
    token_before = request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    response = render()
    if _shareable(response) and request.META.get("CSRF_COOKIE_NEEDS_UPDATE") == token_before:
        cache.set(name, (response.content, response["Content-Type"]), FRAGMENT_SECONDS)
    return response


# Stands for the reader's CSRF token in a kept part of a page (`part`): replaced by the
# reader's own token each time the part is served.
CSRF_PLACEHOLDER = "csrf-token-of-the-reader-3b9d71c4"


def part(
    request: HttpRequest,
    template: str,
    parts: Iterable[object],
    context: dict[str, Any] | Callable[[], dict[str, Any]],
) -> SafeString:
    """A part of a whole page (`template`, a partial) as rendered for `parts` (the version
    and whatever else it shows besides the language): kept, or rendered and kept.

    Unlike `fragment`, the part may hold forms: it is rendered with a placeholder for the
    CSRF token, which is replaced by the reader's own token when it is served. Call it after
    the access check, with whatever the part shows of the reader (their role) in `parts`.
    `context` may be a function that makes it: called only when the part is rendered.
    """
    name = key("part", template, *parts)
    html = cache.get(name)
    metrics.looked_up("part", html)
    if html is None:
        values = context() if callable(context) else context
        html = render_to_string(template, {**values, "csrf_token": CSRF_PLACEHOLDER}, request)
        cache.set(name, html, FRAGMENT_SECONDS)
    if CSRF_PLACEHOLDER in html:
        html = html.replace(CSRF_PLACEHOLDER, get_token(request))
    return mark_safe(html)  # noqa: S308 - rendered by our templates, escaped there


def _shareable(response: HttpResponseBase) -> bool:
    """A plain 200 answer, without cookies: the same for whoever passed the access check."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and "Set-Cookie" not in response
    )


# --- downloads ------------------------------------------------------------------------------


class RenderBound:
    """How many expensive renders (PDF, CSV) run at once, at most: in the whole site when the
    cache is shared (Redis: every worker and app server takes its slot there), else in this
    process.

    The limit is read from the settings at each use (`EXPENSIVE_RENDERS`, default 1); a
    render beyond it is refused at once rather than queued, so no thread waits on it. A
    shared slot is a key added to the cache (atomic) that expires after `SLOT_SECONDS`: a
    process killed while rendering frees its slot by then.
    """

    SLOT_SECONDS = 300

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held = threading.local()
        self.running = 0

    @property
    def limit(self) -> int:
        return int(getattr(settings, "EXPENSIVE_RENDERS", 1))

    @staticmethod
    def shared() -> bool:
        return "redis" in settings.CACHES["default"]["BACKEND"].lower()

    def acquire(self) -> bool:
        limit = self.limit
        with self._lock:
            if self.running >= limit:
                return False
            self.running += 1
        slot = self._take_shared_slot(limit) if self.shared() else ("", "")
        if slot is None:
            with self._lock:
                self.running = max(0, self.running - 1)
            return False
        self._slots().append(slot)
        return True

    def release(self) -> None:
        slots = self._slots()
        if slots:
            name, token = slots.pop()
            # Only our own slot: one that expired meanwhile may be another render's now.
            if name and cache.get(name) == token:
                cache.delete(name)
        with self._lock:
            self.running = max(0, self.running - 1)

    def _slots(self) -> list[tuple[str, str]]:
        if not hasattr(self._held, "slots"):
            self._held.slots = []
        return self._held.slots

    def _take_shared_slot(self, limit: int) -> tuple[str, str] | None:
        token = uuid.uuid4().hex
        for number in range(limit):
            name = f"render-slot:{number}"
            if cache.add(name, token, self.SLOT_SECONDS):
                return name, token
        return None


RENDERS = RenderBound()


def busy() -> HttpResponse:
    """503: too many expensive renders at once; the client is told when to ask again."""
    metrics.RENDERS_REFUSED.inc()
    response = HttpResponse(
        gettext("Try again"), status=503, content_type="text/plain; charset=utf-8"
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def download(
    parts: Iterable[object],
    render: Callable[[], bytes],
    respond: Callable[[bytes], HttpResponseBase],
) -> HttpResponseBase:
    """A PDF or CSV by the version of what it shows (`parts`): kept, or rendered within the
    bound and kept; `respond` makes the answer of the bytes. 503 when the bound is reached."""
    name = key("download", *parts)
    content = cache.get(name)
    metrics.looked_up("download", content)
    if content is None:
        if not RENDERS.acquire():
            return busy()
        try:
            content = render()
        finally:
            RENDERS.release()
        cache.set(name, content, DOWNLOAD_SECONDS)
    return respond(content)
