"""Seasons: their standings page for anyone, their settings for the organisers (the CSV and
PDF: printing.views).

The standings page polls like a tournament's (a version, 204 while nothing changed) and
costs the same few queries whatever the number of tournaments and players. Every view that
changes a season gets it through `get_season_for_director`: 404 for who may not see
it, 403 for who may only follow it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import seasons as season_rules
from seasons.access import (
    can_count_in_season,
    can_create_season,
    get_season_for_director,
    get_season_for_viewer,
)
from seasons.forms import AddTournamentForm, CoefficientForm, SeasonForm
from seasons.models import Season, SeasonTournament
from tournaments import access
from tournaments.errors import CODED_ERRORS, on_form
from tournaments.models import Tournament
from tournaments.views.live import HtmxHttpRequest, poll_seconds, unchanged

CSV = "text/csv; charset=utf-8"


def scheme_texts(season: Season) -> dict[str, Any]:
    """How the season's standings are made, in the reader's language."""
    best_of = season.best_of
    return {
        "scheme": gettext(season_rules.SCHEMES[season_rules.Scheme(season.scheme)]),
        "shared": gettext(season_rules.SHARED_PLACE),
        "order": gettext("; then ").join(gettext(rule) for rule in season_rules.TIE_BREAKS),
        "best_of": best_of,
    }


# --- anyone ----------------------------------------------------------------------------------


@require_safe
def season_list(request: HtmxHttpRequest) -> HttpResponse:
    """The public seasons, and the user's own private ones."""
    return render(
        request,
        "seasons/list.html",
        {
            "seasons": Season.objects.visible_to(request.user).select_related("club"),
            "can_create": can_create_season(request.user),
        },
    )


@require_safe
def season_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The season standings: a line per player, a column per tournament counted (points
    struck through when not among the best N), polled like the tournaments' standings."""
    season = get_season_for_viewer(request, slug)
    version = season.live_version()
    if unchanged(request, version):
        return HttpResponse(status=204)
    table = season.standings()
    template = "seasons/season.html"
    if request.htmx:
        template += "#live"
    return render(
        request,
        template,
        {
            "season": season,
            "table": table,
            "running": any(
                entry.tournament.status != Tournament.Status.FINISHED for entry in table.counted
            ),
            "left_out": [entry for entry in table.entries if entry not in table.counted],
            "can_manage": season.is_director(request.user),
            "version": version,
            "poll_seconds": poll_seconds(),
            **scheme_texts(season),
        },
    )


# --- the organisers --------------------------------------------------------------------------


def _manage_page(season: Season, anchor: str = "") -> HttpResponse:
    url = reverse("public:season_manage", args=[season.slug])
    return redirect(f"{url}#{anchor}" if anchor else url)


@access.login_to_read
@require_http_methods(["GET", "POST"])
def season_create(request: HtmxHttpRequest) -> HttpResponse:
    if not can_create_season(request.user):
        raise PermissionDenied(gettext("Only a tournament director may organise a season."))
    form = SeasonForm(request.POST or None, user=request.user)
    if form.is_valid():
        season = form.save(commit=False)
        season.save_with_director(request.user)
        messages.success(
            request,
            gettext("%(name)s is created. Now add its tournaments.") % {"name": season.name},
        )
        return _manage_page(season)
    return render(
        request,
        "seasons/form.html",
        {"form": form, "season": None},
        status=400 if form.is_bound else 200,
    )


def _render_manage(
    request: HtmxHttpRequest,
    season: Season,
    form: SeasonForm | None = None,
    add_form: AddTournamentForm | None = None,
    status: int = 200,
) -> HttpResponse:
    entries = season.entries_in_order()
    return render(
        request,
        "seasons/manage.html",
        {
            "season": season,
            "form": form or SeasonForm(instance=season, user=request.user),
            "add_form": add_form or AddTournamentForm(request.user, season),
            "entries": [
                (entry, CoefficientForm(initial={"coefficient": entry.coefficient}))
                for entry in entries
            ],
            "counted": {entry.pk for entry in entries if season.counts(entry.tournament)},
        },
        status=status,
    )


@access.login_to_read
@require_http_methods(["GET", "POST"])
def season_manage(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The season's settings and its tournaments, for its organisers."""
    season = get_season_for_director(request, slug)
    if request.method == "GET":
        return _render_manage(request, season)
    form = SeasonForm(request.POST, instance=season, user=request.user)
    if form.is_valid():
        season = form.save()
        messages.success(request, gettext("Settings saved."))
        return _manage_page(season)
    season.refresh_from_db()
    return _render_manage(request, season, form=form, status=400)


@require_POST
def season_add_tournament(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    season = get_season_for_director(request, slug)
    form = AddTournamentForm(request.user, season, request.POST)
    if form.is_valid():
        tournament = form.cleaned_data["tournament"]
        if not can_count_in_season(request.user, tournament):
            raise PermissionDenied(gettext("Only its director may count a private tournament."))
        try:
            season.add_tournament(tournament, form.cleaned_data["coefficient"])
        except CODED_ERRORS as refusal:  # counted already; a coefficient out of range
            on_form(form, refusal)
        else:
            if season.counts(tournament):
                messages.success(
                    request,
                    gettext("%(tournament)s counts for the season.")
                    % {"tournament": tournament.name},
                )
            else:
                # Saved, yet left out of the standings: said as the season's list says it.
                messages.warning(
                    request,
                    gettext(
                        "%(tournament)s is in the season but does not count: a public season "
                        "counts public tournaments only."
                    )
                    % {"tournament": tournament.name},
                )
            return _manage_page(season, "tournaments")
    return _render_manage(request, season, add_form=form, status=400)


@require_POST
def season_entry(request: HtmxHttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Change a tournament's coefficient (`coefficient`), or take it out of the season
    (`remove`)."""
    season = get_season_for_director(request, slug)
    entry = get_object_or_404(
        SeasonTournament.objects.select_related("tournament"), pk=entry_id, season=season
    )
    anchor = "tournaments"
    if "remove" in request.POST:
        season.remove_tournament(entry)
        messages.success(
            request,
            gettext("%(tournament)s no longer counts for the season.")
            % {"tournament": entry.tournament.name},
        )
        return _manage_page(season, anchor)
    form = CoefficientForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("%(tournament)s: %(error)s")
            % {
                "tournament": entry.tournament.name,
                "error": " ".join(str(error) for error in form.errors.get("coefficient", [])),
            },
        )
        return _manage_page(season, anchor)
    season.set_coefficient(entry, form.cleaned_data["coefficient"])
    messages.success(
        request,
        gettext("%(tournament)s counts × %(coefficient)s.")
        % {"tournament": entry.tournament.name, "coefficient": entry.coefficient},
    )
    return _manage_page(season, anchor)
