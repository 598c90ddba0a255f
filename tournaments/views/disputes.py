"""The director's queue of disputes (/manage/<slug>/disputes/): "Something's wrong" from the
tables, open ones first. A director answers each one by correcting the round (the table
page's correction, with `?dispute=`, whose reason is the answer) or dismisses it with a word;
the table page shows the answer.

The queue and the dashboard's count of open disputes poll with a version and get 204 while
nothing changed, as the other live parts of the site do.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Max, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from scoring.errors import GameError
from tournaments import texts
from tournaments.access import get_tournament_for_director, login_to_read
from tournaments.forms_people import DismissForm
from tournaments.models import Dispute, Tournament
from tournaments.views.live import HtmxHttpRequest, poll_seconds, unchanged

# How many answered disputes the queue shows under the open ones.
ANSWERED_LISTED = 50


def disputes_of(tournament: Tournament) -> Any:
    return Dispute.objects.filter(game__table__session__tournament=tournament)


def open_count_and_version(tournament: Tournament) -> tuple[int, str]:
    """How many disputes wait for an answer, and a version that changes with any dispute
    raised or answered (one query)."""
    facts = disputes_of(tournament).aggregate(
        open=Count("pk", filter=Q(status=Dispute.Status.OPEN)),
        count=Count("pk"),
        last=Max("pk"),
    )
    return facts["open"], f"{facts['open']}.{facts['count']}.{facts['last'] or 0}"


def _queue(tournament: Tournament) -> dict[str, Any]:
    disputes = disputes_of(tournament).select_related(
        "game__table__session", "raised_by", "answered_by"
    )
    open_disputes = list(disputes.filter(status=Dispute.Status.OPEN).order_by("raised_at", "pk"))
    answered = list(
        disputes.exclude(status=Dispute.Status.OPEN).order_by("-answered_at", "-pk")[
            :ANSWERED_LISTED
        ]
    )
    return {"open_disputes": open_disputes, "answered": answered}


@login_to_read
@require_safe
def queue(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Every dispute of the tournament: the open ones first (oldest first), then the answered."""
    tournament = get_tournament_for_director(request, slug)
    open_count, version = open_count_and_version(tournament)
    if unchanged(request, version):
        return HttpResponse(status=204)
    template = "tournaments/director/disputes.html"
    if request.htmx:
        template += "#queue"
    context = {
        "tournament": tournament,
        "open_count": open_count,
        "version": version,
        "poll_seconds": poll_seconds(),
        "dismiss_form": DismissForm(),
        **_queue(tournament),
    }
    return render(request, template, context)


@login_to_read
@require_safe
def open_disputes(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The dashboard's count of open disputes, live (204 while unchanged)."""
    tournament = get_tournament_for_director(request, slug)
    open_count, version = open_count_and_version(tournament)
    if unchanged(request, version):
        return HttpResponse(status=204)
    return render(
        request,
        "tournaments/director/dashboard.html#disputes",
        {
            "tournament": tournament,
            "open_disputes": open_count,
            "disputes_version": version,
            "poll_seconds": poll_seconds(),
        },
    )


@require_POST
def dismiss(request: HtmxHttpRequest, slug: str, dispute_id: int) -> HttpResponse:
    """Dismiss a dispute with a word to the table; htmx gets the dispute's line back."""
    tournament = get_tournament_for_director(request, slug)
    dispute = get_object_or_404(
        disputes_of(tournament).select_related("game__table__session", "raised_by"),
        pk=dispute_id,
    )
    form = DismissForm(request.POST)
    message, ok = "", False
    if form.is_valid():
        try:
            dispute.game.dismiss_dispute(dispute, form.cleaned_data["answer"], by=request.user)
        except GameError as error:
            message = texts.game_error(error)
        else:
            ok = True
            message = gettext("Dismissed: the table sees your answer.")
    else:
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
    if request.htmx:
        dispute.refresh_from_db()
        context = {
            "tournament": tournament,
            "dispute": dispute,
            "message": message,
            "dismiss_form": form if not ok else DismissForm(),
            "open_count": open_count_and_version(tournament)[0],
            "oob": True,
        }
        # The line answered, and the queue's count of open disputes with it (out of band).
        line = render(request, "tournaments/director/disputes.html#dispute", context)
        count = render(request, "tournaments/director/disputes.html#open_count", context)
        return HttpResponse(line.content + count.content)
    (messages.success if ok else messages.error)(request, message)
    return redirect("manage:disputes", slug)
