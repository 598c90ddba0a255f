"""Penalty and bonus points of a tournament (`/manage/<slug>/adjustments/`): every one given,
in force or removed, with its log; placement points given to a player in the standings;
a correction or a removal, each with why. Points at a game's seat are given on the table's
page (`tournaments.views.seats`). Every view goes through
`access.get_tournament_for_director`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from tournaments import access
from tournaments.errors import Refused, on_form
from tournaments.forms_seats import CorrectionForm, PlayerPointsForm, WhyForm
from tournaments.models import Adjustment, Player, Tournament
from tournaments.views.live import HtmxHttpRequest

PAGE = "tournaments/seats/adjustments.html"


def _players(tournament: Tournament) -> Any:
    return Player.objects.filter(registrations__tournament=tournament).order_by("name")


def _context(
    tournament: Tournament, form: PlayerPointsForm | None = None, refused: Any = None
) -> dict[str, Any]:
    given = list(
        tournament.adjustments.select_related(
            "player", "seat__table__session", "given_by", "removed_by"
        )
        .prefetch_related("changes__by")
        .order_by("given_at", "pk")
    )
    return {
        "tournament": tournament,
        "given": [
            (
                adjustment,
                refused[1] if refused and refused[0] == adjustment.pk else None,
                CorrectionForm(adjustment=adjustment, prefix=f"a{adjustment.pk}"),
            )
            for adjustment in given
        ],
        "form": form or PlayerPointsForm(players=_players(tournament)),
    }


def _answer(
    request: HtmxHttpRequest,
    tournament: Tournament,
    text: str = "",
    context: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """After a change: htmx gets the list (`#given`), a plain post the page (redirected, or
    again with the refused form at 400)."""
    context = context or _context(tournament)
    if request.htmx:
        # htmx swaps only a 2xx answer: the part with the refused form, where it was typed.
        context.update(message=text, ok=status == 200)
        return render(request, f"{PAGE}#given", context)
    if status != 200:
        return render(request, PAGE, context, status=status)
    messages.success(request, text)
    return redirect("manage:adjustments", tournament.slug)


@access.login_to_read
@require_safe
def adjustments(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    template = f"{PAGE}#given" if request.htmx else PAGE
    return render(request, template, _context(tournament))


@require_POST
def adjustment_give(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Placement points to a player, in the standings."""
    tournament = access.get_tournament_for_director(request, slug)
    form = PlayerPointsForm(request.POST, players=_players(tournament))
    if form.is_valid():
        try:
            given = Adjustment.give(
                tournament, form.cleaned_data["player"], by=request.user, **form.what()
            )
        except Refused as refusal:
            on_form(form, refusal)
        else:
            return _answer(request, tournament, given.summary)
    return _answer(request, tournament, context=_context(tournament, form), status=400)


def _adjustment(tournament: Tournament, adjustment_id: int) -> Adjustment:
    return get_object_or_404(
        tournament.adjustments.select_related("player", "seat__table__session"), pk=adjustment_id
    )


@require_POST
def adjustment_correct(request: HtmxHttpRequest, slug: str, adjustment_id: int) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    adjustment = _adjustment(tournament, adjustment_id)
    form = CorrectionForm(request.POST, adjustment=adjustment, prefix=f"a{adjustment.pk}")
    if form.is_valid():
        try:
            adjustment.correct(why=form.cleaned_data["why"], by=request.user, **form.what())
        except Refused as refusal:
            on_form(form, refusal)
        else:
            text = gettext("Corrected: %(summary)s") % {"summary": adjustment.summary}
            return _answer(request, tournament, text)
    context = _context(tournament, refused=(adjustment.pk, form))
    return _answer(request, tournament, context=context, status=400)


@require_POST
def adjustment_remove(request: HtmxHttpRequest, slug: str, adjustment_id: int) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    adjustment = _adjustment(tournament, adjustment_id)
    form = WhyForm(request.POST)
    if form.is_valid():
        try:
            adjustment.remove(why=form.cleaned_data["why"], by=request.user)
        except Refused as refusal:
            on_form(form, refusal)
        else:
            text = gettext("Removed: %(summary)s") % {"summary": adjustment.summary}
            return _answer(request, tournament, text)
    context = _context(tournament, refused=(adjustment.pk, form))
    return _answer(request, tournament, context=context, status=400)
