"""Named places in the tournaments' pages where another installed app shows a part of its
own — a player's rating, the seasons a tournament counts for, the notifications' opt-in,
their count on the director's dashboard — without this app knowing that app (dependencies
point one way:
tests/test_layout.py).

The other app registers, in its `AppConfig.ready`, a template and a function giving that
template's context from what the page names (None: nothing to show there); the page names the
place with `{% slot "player" tournament=tournament player=player %}` (tournaments/templatetags/
yaniv.py). A place nobody filled shows nothing.

The places: "tournament" (tournament, user), "player" (tournament, player), "table_code"
(table, code), "table_referee" (table), "director_dashboard" (tournament). The seasons fill
"tournament" (the seasons it counts for) and "player" (the rating); the notifications the
others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Part:
    template: str
    context: Callable[..., dict[str, Any] | None]


PARTS: dict[str, list[Part]] = defaultdict(list)


def register(place: str, template: str, context: Callable[..., dict[str, Any] | None]) -> None:
    part = Part(template, context)
    if part not in PARTS[place]:
        PARTS[place].append(part)


def parts(place: str) -> list[Part]:
    return PARTS.get(place, [])
