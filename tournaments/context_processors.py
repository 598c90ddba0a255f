"""What every page's header needs to know about the visitor."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def manage_link(request: HttpRequest) -> dict[str, Any]:
    """`directs`: whether the header links to /manage/ — for staff, and for anyone who
    directs a tournament (co-directors are not staff). Asked only when the header is drawn,
    once a request."""
    user: Any = getattr(request, "user", None)
    answer: list[bool] = []

    def directs() -> bool:
        if not answer:
            answer.append(
                user is not None
                and user.is_authenticated
                and (user.is_staff or user.is_superuser or user.directed_tournaments.exists())
            )
        return answer[0]

    return {"directs": directs}
