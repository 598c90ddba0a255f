"""The director's side of the door (`/manage/<slug>/door/`): open or close check-in, choose
the safeguard and whether the door takes registrations, the QR code and short address (and
the poster to print), the desk's code, and the list of who checked in how and when, with the
registrations waiting for an answer. Every view goes through
`access.get_tournament_for_director`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe

from tournaments import access, checkin
from tournaments.forms_checkin import AnswerForm, DoorForm
from tournaments.models import Door, EntryRequest, Tournament
from tournaments.qr import qr_svg
from tournaments.views.live import HtmxHttpRequest, poll_seconds
from tournaments.views.refusals import answers_refusals


def door_address(request: HtmxHttpRequest, door: Door) -> str:
    """The door's short address, whole (the QR codes' and the poster's)."""
    return request.build_absolute_uri(reverse("public:door", args=[door.code]))


def _list(tournament: Tournament, door: Door) -> dict[str, Any]:
    """Who checked in (latest first, then who has not), and the registrations to answer with
    what the players' import would make of each (one query for them all)."""
    registrations = list(
        tournament.registrations.filter(withdrawn_at__isnull=True)
        .select_related("player__club")
        .order_by(
            Case(
                When(checked_in=True, then=Value(0)), default=Value(1), output_field=IntegerField()
            ),
            "-checked_in_at",
            "player__name",
        )
    )
    waiting = list(
        door.requests.filter(
            status__in=[EntryRequest.Status.PENDING, EntryRequest.Status.WAITING]
        ).order_by("created_at", "pk")
    )
    return {
        "registrations": registrations,
        "checked_in_count": sum(1 for registration in registrations if registration.checked_in),
        "requests": waiting,
        # The list asks again by itself: every answer carries how often.
        "poll_seconds": poll_seconds(),
    }


def _context(request: HtmxHttpRequest, tournament: Tournament, door: Door) -> dict[str, Any]:
    address = door_address(request, door)
    return {
        "tournament": tournament,
        "door": door,
        "address": address,
        "short_address": address.split("://", 1)[-1].rstrip("/"),
        "qr": qr_svg(address, size=200),
        **_list(tournament, door),
    }


def _page(
    request: HtmxHttpRequest,
    tournament: Tournament,
    door: Door,
    form: DoorForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _context(request, tournament, door)
    context["form"] = form or DoorForm(instance=door)
    template = "tournaments/checkin/manage.html"
    if request.htmx and request.method == "POST":
        # htmx swaps only a 2xx answer: the settings with their errors, where they were typed.
        template, status = template + "#settings", 200
    return render(request, template, context, status=status)


@access.login_to_read
@require_safe
def door_manage(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The door's page; asked by htmx (every few seconds), its list alone."""
    tournament = access.get_tournament_for_director(request, slug)
    found = Door.of(tournament)
    if request.htmx:
        return render(
            request,
            "tournaments/checkin/manage.html#list",
            {"tournament": tournament, "door": found, **_list(tournament, found)},
        )
    return _page(request, tournament, found)


@require_POST
def door_settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    found = Door.of(tournament)
    form = DoorForm(request.POST, instance=Door.objects.get(pk=found.pk))
    if not form.is_valid():
        return _page(request, tournament, found, form, status=400)
    found.set_up(**form.cleaned_data)
    admitted = checkin.let_in(found)
    text = gettext("Check-in is open.") if found.is_open else gettext("Check-in is closed.")
    if admitted:
        text += " " + ngettext(
            "%(count)s player of the waiting list is registered.",
            "%(count)s players of the waiting list are registered.",
            admitted,
        ) % {"count": admitted}
    return _settings_changed(request, tournament, found, text)


def _settings_changed(
    request: HtmxHttpRequest, tournament: Tournament, found: Door, text: str
) -> HttpResponse:
    """After a change of the settings: htmx gets them (`#settings`), a plain post the page."""
    if request.htmx:
        context = _context(request, tournament, found)
        context.update(form=DoorForm(instance=found), message=text)
        return render(request, "tournaments/checkin/manage.html#settings", context)
    messages.success(request, text)
    return redirect("manage:door", tournament.slug)


@require_POST
def door_desk_code(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A new code for the desk: the old one stops working."""
    tournament = access.get_tournament_for_director(request, slug)
    found = Door.of(tournament)
    found.new_desk_code()
    text = gettext("The desk has a new code: the old one no longer works.")
    return _settings_changed(request, tournament, found, text)


def _answered(request: HtmxHttpRequest, message: str, slug: str, request_id: int) -> HttpResponse:
    """An answer refused (answered meanwhile, a row the import refuses): the list says why,
    or the page with the message."""
    tournament = access.get_tournament_for_director(request, slug)
    return _list_changed(request, tournament, Door.of(tournament), message, ok=False)


def _list_changed(
    request: HtmxHttpRequest, tournament: Tournament, found: Door, text: str, *, ok: bool
) -> HttpResponse:
    """After an answer to a registration: htmx gets the list (`#list`) saying what happened,
    a plain post the page with the message."""
    if not request.htmx:
        (messages.success if ok else messages.error)(request, text)
        return redirect("manage:door", tournament.slug)
    context = {"tournament": tournament, "door": found, "message": text, "ok": ok}
    return render(
        request, "tournaments/checkin/manage.html#list", {**context, **_list(tournament, found)}
    )


@require_POST
@answers_refusals(_answered)
def door_answer(request: HtmxHttpRequest, slug: str, request_id: int) -> HttpResponse:
    """Approve (registered and checked in) or decline a registration at the door."""
    tournament = access.get_tournament_for_director(request, slug)
    found = Door.of(tournament)
    entry = get_object_or_404(found.requests, pk=request_id)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("answer must be approve or decline.")
    if form.cleaned_data["answer"] == "approve":
        checkin.approve(entry, by=request.user)
        text = gettext("%(name)s is registered and checked in.") % {"name": entry.name}
    else:
        checkin.decline(entry, by=request.user)
        text = gettext("%(name)s's registration is declined.") % {"name": entry.name}
    return _list_changed(request, tournament, found, text, ok=True)
