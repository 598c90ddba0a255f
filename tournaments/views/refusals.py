"""A refused change answered as its request expects: the one place views meet coded errors.

A model method refuses by raising `tournaments.errors.Refused` (or the engine's coded errors
come through it); no view catches them one by one. `answers_refusals` wraps the view and
puts the refusal in words in the reader's language (`errors.sentence`), then answers:

- the page's script (it asks for `application/json`: the table page's sync): JSON, status
  400, `{"status": "refused", "code": …, "message": …}`, the shape `sync` answers with;
- else the view's own `answer(request, message, **the view's arguments)`, when it has one:
  where the user acted (a player's row, the clock's section, the session page at status
  400), for htmx as a fragment and otherwise as the page;
- else an htmx request: nothing swapped where the user acted, the message shown above the
  page's content (out of band, where the messages framework shows its messages);
- else the message flashed (messages framework) and a redirect to `back`, reversed with the
  view's `slug` (the page the form was on); without `back`, a page saying it (status 400).

A form's view shows a refusal on the form instead (`errors.on_form`), where the user typed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string

from tournaments.errors import CODED_ERRORS, sentence

View = Callable[..., HttpResponse]
Answer = Callable[..., HttpResponse]


def wants_json(request: HttpRequest) -> bool:
    """The page's script asks for JSON; a browser's form or htmx takes HTML first."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def answers_refusals(
    answer: Answer | None = None, *, back: str | None = None
) -> Callable[[View], View]:
    """Wrap a view: a refusal it meets becomes the answer its request expects (see the
    module). `answer(request, message, **kwargs)` says it where the user acted; `back`
    names the page (a URL taking the view's `slug`) a plain post returns to."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except CODED_ERRORS as error:
                message = sentence(error)
                if wants_json(request):
                    body = {"status": "refused", "code": error.code, "message": message}
                    return JsonResponse(body, status=400)
                if answer is not None:
                    return answer(request, message, *args, **kwargs)
                if getattr(request, "htmx", False):
                    fragment = render_to_string(
                        "refused.html#message", {"message": message}, request=request
                    )
                    return HttpResponse(fragment, headers={"HX-Reswap": "none"})
                if back is None:
                    return render(request, "refused.html", {"message": message}, status=400)
                messages.error(request, message)
                return redirect(back, kwargs["slug"])

        return wrapped

    return decorate
