"""The one way a page follows the day: `{% poll version %}` on the element that a poll swaps.

Every public page whose content can change carries it, whatever state the tournament is in
(draft, running, between sessions, finished): the element asks its own address again every
`poll_seconds` with the version it shows (`since`), the view answers 204 while nothing
changed and the element's partial once something did (tournaments.views.live).
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.views.live import poll_seconds

register = template.Library()


@register.simple_tag(takes_context=True)
def poll(context: template.Context, version: object) -> SafeString:
    """The element's htmx attributes: its page's address and query (a search's words kept),
    `since` set to the version shown."""
    request = context["request"]
    query = request.GET.copy()
    query["since"] = str(version)
    return format_html(
        ' data-hx-get="{}?{}" data-hx-trigger="every {}s" data-hx-swap="outerHTML"',
        request.path,
        query.urlencode(),
        poll_seconds(),
    )
