"""The director's pages: create a tournament, register players, import them, check them in.

Every view that reads or changes a tournament goes through
`access.get_tournament_for_director`: 404 for who may not see the tournament, 403 for who
may see it but does not direct it. Anonymous visitors are sent to the login page when they
ask for a page (`access.login_to_read`); their writes meet the same 403/404.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event

from tournaments import player_import
from tournaments.access import (
    can_create_tournament,
    get_tournament_for_director,
    login_to_read,
)
from tournaments.forms_director import (
    AddPlayerForm,
    CheckInForm,
    ImportConfirmForm,
    ImportUploadForm,
    TournamentForm,
    WithdrawForm,
)
from tournaments.models import Club, Player, Registration, Seat, Session, Tournament
from tournaments.views.disputes import open_count_and_version
from tournaments.views.live import HtmxHttpRequest, poll_seconds
from tournaments.views.refusals import answers_refusals

# Sent with a changed check-in: the page's counts fetch themselves again.
REGISTRATIONS_CHANGED = "registrations-changed"
# How many skipped rows the message after an import names.
SKIPPED_LISTED = 20


def _dashboard(tournament: Tournament, anchor: str = "") -> HttpResponse:
    url = reverse("manage:tournament", args=[tournament.slug])
    return redirect(f"{url}#{anchor}" if anchor else url)


# --- tournaments ----------------------------------------------------------


@login_required
@require_safe
def director_home(request: HtmxHttpRequest) -> HttpResponse:
    """The tournaments the user directs (every tournament for a superuser)."""
    tournaments = Tournament.objects.directed_by(request.user).annotate(
        registered=Count("registrations"),
        checked_in=Count("registrations", filter=Q(registrations__checked_in=True)),
    )
    return render(
        request,
        "tournaments/director/home.html",
        {"tournaments": tournaments, "can_create": can_create_tournament(request.user)},
    )


@login_to_read
@require_http_methods(["GET", "POST"])
def tournament_create(request: HtmxHttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied(gettext("You may not create tournaments."))
    form = TournamentForm(request.POST or None, user=request.user)
    if form.is_valid():
        tournament = form.save(commit=False)
        tournament.save_with_director(request.user)
        messages.success(
            request,
            gettext("%(name)s is created. Now register its players.") % {"name": tournament.name},
        )
        return _dashboard(tournament)
    return render(
        request,
        "tournaments/director/tournament_form.html",
        {"form": form, "tournament": None},
        status=400 if form.is_bound else 200,
    )


@login_to_read
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_director(request, slug)
    form = TournamentForm(request.POST or None, instance=tournament, user=request.user)
    if form.is_valid():
        tournament = form.save()
        messages.success(request, gettext("Settings saved."))
        return _dashboard(tournament)
    # The page's title and links keep the saved name and address.
    tournament.refresh_from_db()
    return render(
        request,
        "tournaments/director/tournament_form.html",
        {"form": form, "tournament": tournament},
        status=400 if form.is_bound else 200,
    )


def _counts(tournament: Tournament) -> dict[str, Any]:
    return tournament.registrations.aggregate(
        registered_count=Count("pk"),
        checked_in_count=Count("pk", filter=Q(checked_in=True)),
        withdrawn_count=Count("pk", filter=Q(withdrawn_at__isnull=False)),
    )


def _seating_of(tournament: Tournament) -> dict[str, Any]:
    """Who is seated in any session (they withdraw rather than leave the list), and the
    session drawn but not started with its players (a player checked out there leaves a
    seat to fill)."""
    seats = list(
        Seat.objects.filter(table__session__tournament=tournament).values_list(
            "player_id", "table__session__number", "table__session__status"
        )
    )
    planned = tournament.sessions.filter(status=Session.Status.PLANNED).order_by("-number").first()
    return {
        "seated": {player for player, _, _ in seats},
        "planned": planned,
        "planned_seated": {
            player for player, number, _ in seats if planned and number == planned.number
        },
    }


def _render_dashboard(
    request: HtmxHttpRequest,
    tournament: Tournament,
    add_form: AddPlayerForm | None = None,
    look_alikes: Sequence[Player] = (),
    status: int = 200,
) -> HttpResponse:
    registrations = list(tournament.registrations.select_related("player__club", "withdrawn_by"))
    context = {
        **_seating_of(tournament),
        "tournament": tournament,
        "registrations": registrations,
        "registered_count": len(registrations),
        "checked_in_count": sum(1 for r in registrations if r.checked_in),
        "withdrawn_count": sum(1 for r in registrations if r.withdrawn),
        "add_form": add_form or AddPlayerForm(),
        "look_alikes": look_alikes,
        "clubs": Club.objects.visible_to(request.user)
        .order_by("name")
        .values_list("name", flat=True),
        "sessions": list(tournament.sessions.annotate(table_count=Count("tables"))),
        "seating_methods": Session.Seating.drawn(),
        "referee_count": tournament.referees.count(),
        "poll_seconds": poll_seconds(),
    }
    context["open_disputes"], context["disputes_version"] = open_count_and_version(tournament)
    return render(request, "tournaments/director/dashboard.html", context, status=status)


@login_to_read
@require_safe
def dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Players and check-in; asked by htmx, only the counts (they follow each check-in)."""
    tournament = get_tournament_for_director(request, slug)
    if request.htmx:
        return render(
            request,
            "tournaments/director/dashboard.html#counts",
            {"tournament": tournament, **_counts(tournament)},
        )
    return _render_dashboard(request, tournament)


# --- registrations --------------------------------------------------------


@require_POST
def add_player(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Register one player: a known one (same club and number, or name) or a new one."""
    tournament = get_tournament_for_director(request, slug)
    form = AddPlayerForm(request.POST, director=request.user)
    look_alikes: list[Player] = []
    if form.is_valid() and form.cleaned_data["known"] is not None:
        # The director chose the known player the warning offered.
        known = form.cleaned_data["known"]
        try:
            with transaction.atomic():
                Registration.objects.create(tournament=tournament, player=known)
        except IntegrityError:
            form.add_error(None, gettext("%(name)s is already registered.") % {"name": known.name})
        else:
            messages.success(
                request,
                gettext("%(name)s is registered (already known player).") % {"name": known.name},
            )
            return _dashboard(tournament)
    elif form.is_valid():
        parsed = form.parsed()
        line = player_import.classify(parsed, tournament, by=request.user).lines[0]
        if line.look_alikes and not form.cleaned_data["new_player"]:
            # Not saved: the director says whether it is one of them.
            look_alikes = line.look_alikes
        elif line.status is player_import.Status.ERROR:
            form.add_error(None, line.reason[:1].upper() + line.reason[1:] + ".")
        elif line.registered:
            name = line.player.name if line.player else line.row.name
            form.add_error(None, gettext("%(name)s is already registered.") % {"name": name})
        else:
            try:
                result = player_import.import_players(parsed, tournament, by=request.user)
            except IntegrityError:
                form.add_error(
                    None, gettext("The player was changed at the same moment: try again.")
                )
            else:
                player = result.players[0]
                if result.registered:
                    if result.players_created:
                        text = gettext("%(name)s is registered (new player).")
                    else:
                        text = gettext("%(name)s is registered (already known player).")
                    messages.success(request, text % {"name": player.name})
                else:
                    messages.info(
                        request,
                        gettext("%(name)s was already registered.") % {"name": player.name},
                    )
                return _dashboard(tournament)
    return _render_dashboard(
        request, tournament, add_form=form, look_alikes=look_alikes, status=400
    )


def _registration_refused(
    request: HtmxHttpRequest, message: str, slug: str, registration_id: int
) -> HttpResponse:
    """A change of a player's registration refused: their row says why (htmx), or the
    dashboard, at their row, with the message."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament=tournament,
    )
    return _registration_answer(request, tournament, registration, message)


@require_POST
@answers_refusals(_registration_refused)
def check_in(request: HtmxHttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """Set one player's check-in (`checked_in` 1 or 0); htmx gets the player's row back."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament=tournament,
    )
    form = CheckInForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("checked_in must be 1 or 0.")
    registration.set_checked_in(form.cleaned_data["checked_in"])
    if not request.htmx:
        return _dashboard(tournament, anchor=f"registration-{registration.pk}")
    return _registration_answer(request, tournament, registration)


def _registration_answer(
    request: HtmxHttpRequest,
    tournament: Tournament,
    registration: Registration,
    message: str = "",
    ok: bool = False,
    withdraw_form: WithdrawForm | None = None,
) -> HttpResponse:
    """A player's row for htmx (with what happened), or the dashboard with a message."""
    if not request.htmx:
        if message:
            (messages.success if ok else messages.error)(request, message)
        return _dashboard(tournament, anchor=f"registration-{registration.pk}")
    response = render(
        request,
        "tournaments/director/dashboard.html#registration",
        {
            "tournament": tournament,
            "registration": registration,
            "message": message,
            "ok": ok,
            "withdraw_form": withdraw_form,
            **_seating_of(tournament),
        },
    )
    return trigger_client_event(response, REGISTRATIONS_CHANGED)


@require_POST
@answers_refusals(_registration_refused)
def withdraw(request: HtmxHttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """A player withdraws mid-tournament, with a reason: never drawn again, their finished
    games counting as they are; htmx gets the player's row back."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament=tournament,
    )
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        text = " ".join(str(error) for errors in form.errors.values() for error in errors)
        return _registration_answer(request, tournament, registration, text, withdraw_form=form)
    unfinished = registration.withdraw(form.cleaned_data["reason"], by=request.user)
    text = gettext(
        "%(name)s has withdrawn: they are drawn no more, and their finished games count."
    ) % {"name": registration.player.name}
    for table in unfinished:
        text += " " + gettext(
            "Their game at table %(table)s of session %(session)s is still being played: the "
            "table plays it out, or end it at the time limit."
        ) % {"table": table.number, "session": table.session.number}
    planned = _seating_of(tournament)
    if registration.player_id in planned["planned_seated"]:
        text += " " + gettext(
            "They are seated in session %(number)s, not started yet: its page suggests how "
            "to fill their seat."
        ) % {"number": planned["planned"].number}
    return _registration_answer(request, tournament, registration, text, ok=True)


@require_POST
@answers_refusals(_registration_refused)
def come_back(request: HtmxHttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """A withdrawn player returns, checked in again: drawn from the next draw on."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament=tournament,
    )
    registration.come_back(by=request.user)
    text = gettext("%(name)s is back and checked in: the next draw seats them.") % {
        "name": registration.player.name
    }
    return _registration_answer(request, tournament, registration, text, ok=True)


@require_POST
def check_in_all(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Check every registered player in (`checked_in` 1) or out (0)."""
    tournament = get_tournament_for_director(request, slug)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("checked_in must be 1 or 0.")
    checked_in = form.cleaned_data["checked_in"]
    changed = tournament.check_in_all(checked_in)
    if checked_in:
        text = ngettext("%(count)s player checked in.", "%(count)s players checked in.", changed)
    else:
        text = ngettext("%(count)s player checked out.", "%(count)s players checked out.", changed)
    messages.success(request, text % {"count": changed})
    return _dashboard(tournament)


@require_POST
@answers_refusals(_registration_refused)
def remove_registration(request: HtmxHttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """Take a player off the tournament, unless they are seated in one of its sessions."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )
    name = registration.player.name
    registration.remove()
    messages.success(request, gettext("%(name)s is no longer registered.") % {"name": name})
    return _dashboard(tournament)


# --- CSV import -----------------------------------------------------------


def _render_upload(
    request: HtmxHttpRequest,
    tournament: Tournament,
    form: ImportUploadForm,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    return render(
        request,
        "tournaments/director/import.html",
        {"tournament": tournament, "form": form, "error": error},
        status=status,
    )


@login_to_read
@require_http_methods(["GET", "POST"])
def import_upload(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The upload form; a posted file gets its preview, and nothing is written."""
    tournament = get_tournament_for_director(request, slug)
    if request.method == "GET":
        return _render_upload(request, tournament, ImportUploadForm())
    form = ImportUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_upload(request, tournament, form, status=400)
    data = form.cleaned_data["file"].read()
    parsed = player_import.parse_players_csv(data)
    # How the file was read (ignored columns, joined names, its encoding): above the preview.
    for notice in parsed.notices:
        messages.info(request, notice)
    preview = player_import.classify(parsed, tournament, by=request.user)
    confirm_form = ImportConfirmForm.for_file(tournament, data) if preview.can_confirm else None
    return render(
        request,
        "tournaments/director/import_preview.html",
        {
            "tournament": tournament,
            "preview": preview,
            "parsed": parsed,
            "counts": preview.counts,
            "confirm_form": confirm_form,
            "file_name": form.cleaned_data["file"].name,
        },
    )


@require_POST
def import_confirm(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Import the previewed file in one transaction; rows with errors are skipped."""
    tournament = get_tournament_for_director(request, slug)
    form = ImportConfirmForm(tournament, request.POST)
    if not form.is_valid():
        error = " ".join(
            str(error)
            for error in form.errors.get("payload", [gettext("The preview is missing.")])
        )
        return _render_upload(request, tournament, ImportUploadForm(), status=400, error=error)
    parsed = player_import.parse_players_csv(form.cleaned_data["payload"])
    if not player_import.classify(parsed, tournament, by=request.user).can_confirm:
        error = gettext("This file has nothing to import.")
        return _render_upload(request, tournament, ImportUploadForm(), status=400, error=error)
    try:
        result = player_import.import_players(parsed, tournament, by=request.user)
    except IntegrityError:
        error = gettext(
            "Players were changed by someone else at the same moment, and nothing was "
            "imported: upload the file again to see a new preview."
        )
        return _render_upload(request, tournament, ImportUploadForm(), status=409, error=error)
    messages.success(request, gettext("Import done: %(summary)s") % {"summary": result.summary()})
    if result.skipped:
        listed = "; ".join(
            gettext("row %(number)s (%(reason)s)")
            % {"number": line.row.number, "reason": line.reason}
            for line in result.skipped[:SKIPPED_LISTED]
        )
        more = len(result.skipped) - SKIPPED_LISTED
        if more > 0:
            listed += gettext("; and %(count)s more") % {"count": more}
        count = len(result.skipped)
        text = ngettext(
            "%(count)s row skipped: %(rows)s.", "%(count)s rows skipped: %(rows)s.", count
        )
        messages.warning(request, text % {"count": count, "rows": listed})
    return _dashboard(tournament)
