"""The director's pages: create a tournament, register players, import them, check them in.

Every view that reads or changes a tournament goes through `get_tournament_for_director`:
404 for who may not see the tournament, 403 for who may see it but does not direct it.
Anonymous visitors are sent to the login page when they ask for a page; their writes
meet the same 403/404 as anyone else's.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from tournaments import player_import
from tournaments.forms_director import (
    AddPlayerForm,
    ImportConfirmForm,
    ImportUploadForm,
    TournamentForm,
)
from tournaments.models import Club, Registration, Seat, Session, Tournament

# Sent with a changed check-in: the page's counts fetch themselves again.
REGISTRATIONS_CHANGED = "registrations-changed"
# How many skipped rows the message after an import names.
SKIPPED_LISTED = 20

# --- access ---------------------------------------------------------------


def _login_to_read(view):
    """Anonymous GETs go to the login page; anonymous POSTs go on to the permission check."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated and request.method in ("GET", "HEAD"):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def can_create_tournament(user) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


def get_tournament_for_director(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, or 404 for who may not see it and 403 for who may only read it."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if tournament.is_director(request.user):
        return tournament
    if not tournament.is_public:
        raise Http404("No such tournament.")
    raise PermissionDenied(gettext("Only a director of the tournament can do this."))


def _dashboard(tournament: Tournament, anchor: str = "") -> HttpResponse:
    url = reverse("manage_tournament", args=[tournament.slug])
    return redirect(f"{url}#{anchor}" if anchor else url)


# --- tournaments ----------------------------------------------------------


@login_required
@require_GET
def director_home(request: HttpRequest) -> HttpResponse:
    """The tournaments the user directs (every tournament for a superuser)."""
    tournaments = Tournament.objects.all()
    if not request.user.is_superuser:
        tournaments = tournaments.filter(directors=request.user)
    tournaments = tournaments.annotate(
        registered=Count("registrations"),
        checked_in=Count("registrations", filter=Q(registrations__checked_in=True)),
    )
    return render(
        request,
        "tournaments/director/home.html",
        {"tournaments": tournaments, "can_create": can_create_tournament(request.user)},
    )


@_login_to_read
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied(gettext("You may not create tournaments."))
    form = TournamentForm(request.POST or None)
    if form.is_valid():
        with transaction.atomic():
            tournament = form.save()
            tournament.directors.add(request.user)
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


@_login_to_read
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_director(request, slug)
    form = TournamentForm(request.POST or None, instance=tournament)
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


def _counts(tournament: Tournament) -> dict:
    return tournament.registrations.aggregate(
        registered_count=Count("pk"),
        checked_in_count=Count("pk", filter=Q(checked_in=True)),
    )


def _seated_player_ids(tournament: Tournament) -> set[int]:
    return set(
        Seat.objects.filter(table__session__tournament=tournament).values_list(
            "player_id", flat=True
        )
    )


def _render_dashboard(
    request: HttpRequest, tournament: Tournament, add_form=None, status: int = 200
) -> HttpResponse:
    registrations = list(tournament.registrations.select_related("player__club"))
    seated = _seated_player_ids(tournament)
    for registration in registrations:
        registration.seated = registration.player_id in seated
    context = {
        "tournament": tournament,
        "registrations": registrations,
        "registered_count": len(registrations),
        "checked_in_count": sum(1 for r in registrations if r.checked_in),
        "add_form": add_form or AddPlayerForm(),
        "clubs": Club.objects.order_by("name").values_list("name", flat=True),
        "sessions": list(tournament.sessions.annotate(table_count=Count("tables"))),
        "seating_methods": Session.Seating.choices[:2],
    }
    return render(request, "tournaments/director/dashboard.html", context, status=status)


@_login_to_read
@require_GET
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
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
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Register one player: a known one (same club and number, or name) or a new one."""
    tournament = get_tournament_for_director(request, slug)
    form = AddPlayerForm(request.POST)
    if form.is_valid():
        parsed = form.parsed()
        line = player_import.classify(parsed, tournament).lines[0]
        if line.status is player_import.Status.ERROR:
            form.add_error(None, line.reason[:1].upper() + line.reason[1:] + ".")
        elif line.registered:
            form.add_error(
                None, gettext("%(name)s is already registered.") % {"name": line.player.name}
            )
        else:
            try:
                result = player_import.import_players(parsed, tournament)
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
    return _render_dashboard(request, tournament, add_form=form, status=400)


@require_POST
def check_in(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """Set one player's check-in (`checked_in` 1 or 0); htmx gets the player's row back."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament=tournament,
    )
    value = request.POST.get("checked_in")
    if value not in ("0", "1"):
        return HttpResponseBadRequest("checked_in must be 1 or 0.")
    registration.checked_in = value == "1"
    registration.save(update_fields=["checked_in"])
    if not request.htmx:
        return _dashboard(tournament, anchor=f"registration-{registration.pk}")
    registration.seated = registration.player_id in _seated_player_ids(tournament)
    response = render(
        request,
        "tournaments/director/dashboard.html#registration",
        {"tournament": tournament, "registration": registration},
    )
    return trigger_client_event(response, REGISTRATIONS_CHANGED)


@require_POST
def check_in_all(request: HttpRequest, slug: str) -> HttpResponse:
    """Check every registered player in (`checked_in` 1) or out (0)."""
    tournament = get_tournament_for_director(request, slug)
    value = request.POST.get("checked_in")
    if value not in ("0", "1"):
        return HttpResponseBadRequest("checked_in must be 1 or 0.")
    checked_in = value == "1"
    changed = tournament.registrations.exclude(checked_in=checked_in).update(checked_in=checked_in)
    if checked_in:
        text = ngettext("%(count)s player checked in.", "%(count)s players checked in.", changed)
    else:
        text = ngettext("%(count)s player checked out.", "%(count)s players checked out.", changed)
    messages.success(request, text % {"count": changed})
    return _dashboard(tournament)


@require_POST
def remove_registration(request: HttpRequest, slug: str, registration_id: int) -> HttpResponse:
    """Take a player off the tournament, unless they are seated in one of its sessions."""
    tournament = get_tournament_for_director(request, slug)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, tournament=tournament
    )
    name = registration.player.name
    with transaction.atomic():
        seats = Seat.objects.filter(
            table__session__tournament=tournament, player_id=registration.player_id
        ).select_related("table__session")
        seat = seats.order_by("table__session__number").first()
        if seat is None:
            registration.delete()
    if seat is not None:
        messages.error(
            request,
            gettext("%(name)s is seated in session %(number)s: a seated player stays registered.")
            % {"name": name, "number": seat.table.session.number},
        )
        return _dashboard(tournament, anchor=f"registration-{registration_id}")
    messages.success(request, gettext("%(name)s is no longer registered.") % {"name": name})
    return _dashboard(tournament)


# --- CSV import -----------------------------------------------------------


def _render_upload(request, tournament, form, status: int = 200, error: str = ""):
    return render(
        request,
        "tournaments/director/import.html",
        {"tournament": tournament, "form": form, "error": error},
        status=status,
    )


@_login_to_read
@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest, slug: str) -> HttpResponse:
    """The upload form; a posted file gets its preview, and nothing is written."""
    tournament = get_tournament_for_director(request, slug)
    if request.method == "GET":
        return _render_upload(request, tournament, ImportUploadForm())
    form = ImportUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_upload(request, tournament, form, status=400)
    data = form.cleaned_data["file"].read()
    parsed = player_import.parse_players_csv(data)
    preview = player_import.classify(parsed, tournament)
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
def import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Import the previewed file in one transaction; rows with errors are skipped."""
    tournament = get_tournament_for_director(request, slug)
    form = ImportConfirmForm(tournament, request.POST)
    if not form.is_valid():
        error = " ".join(form.errors.get("payload", [gettext("The preview is missing.")]))
        return _render_upload(request, tournament, ImportUploadForm(), status=400, error=error)
    parsed = player_import.parse_players_csv(form.cleaned_data["payload"])
    if not player_import.classify(parsed, tournament).can_confirm:
        error = gettext("This file has nothing to import.")
        return _render_upload(request, tournament, ImportUploadForm(), status=400, error=error)
    try:
        result = player_import.import_players(parsed, tournament)
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
