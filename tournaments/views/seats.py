"""A director at one table, beside its rounds (`/manage/<slug>/tables/<table>/seats/`):
penalty and bonus points at a seat, a substitute for a player who must leave, two seats typed
the wrong way round. Every view goes through `access.get_tournament_for_director`; the
table must be the tournament's (404). A plain post redirects to the page; htmx gets the
page's part back (the seats, their points, who played which rounds)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from tournaments import access, player_import
from tournaments.errors import Refused, on_form
from tournaments.forms_seats import SeatPointsForm, SubstituteForm, SwapForm
from tournaments.models import Adjustment, Player, Seat, Substitution, Table
from tournaments.models.substitutions import played_rounds, swap_seats
from tournaments.views.live import HtmxHttpRequest

PAGE = "tournaments/seats/table.html"


def _table(request: HtmxHttpRequest, slug: str, table_id: int) -> Table:
    tournament = access.get_tournament_for_director(request, slug)
    table = get_object_or_404(
        Table.objects.select_related("session", "game"),
        pk=table_id,
        session__tournament=tournament,
    )
    table.session.tournament = tournament
    return table


def _seats(table: Table) -> Any:
    return Seat.objects.filter(table=table).select_related("player").order_by("position")


def _substitutes(table: Table) -> Any:
    """The tournament's registered players not at the table now (the model refuses the
    rest, with the reason)."""
    return (
        Player.objects.filter(
            registrations__tournament_id=table.session.tournament_id,
            registrations__withdrawn_at__isnull=True,
        )
        .exclude(seats__table=table)
        .order_by("name")
    )


def _context(table: Table, forms: dict[str, Form] | None = None) -> dict[str, Any]:
    seats = list(_seats(table))
    turns = played_rounds(seats)
    given = list(
        Adjustment.objects.filter(seat__table=table)
        .select_related("player", "seat")
        .order_by("given_at", "pk")
    )
    forms = forms or {}
    return {
        "tournament": table.session.tournament,
        "table": table,
        "game": table.game,
        "seats": [(seat, turns.get(seat.pk, [])) for seat in seats],
        "given": given,
        "points_form": forms.get("points") or _points_form(table),
        "substitute_form": forms.get("substitute") or _substitute_form(table),
        "swap_form": forms.get("swap") or _swap_form(table),
    }


# Three forms on one page: each its own ids (a label names its own form's field).
def _points_form(table: Table, data: Any = None) -> SeatPointsForm:
    return SeatPointsForm(data, seats=_seats(table), auto_id="points-%s")


def _substitute_form(table: Table, data: Any = None) -> SubstituteForm:
    return SubstituteForm(
        data, seats=_seats(table), players=_substitutes(table), auto_id="substitute-%s"
    )


def _swap_form(table: Table, data: Any = None) -> SwapForm:
    return SwapForm(data, seats=_seats(table), auto_id="swap-%s")


def _answer(
    request: HtmxHttpRequest,
    table: Table,
    text: str = "",
    forms: dict[str, Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    """After a change: htmx gets the page's part (`#seats`), a plain post the page again
    (redirected, or with its refused form at 400)."""
    table.game.refresh_from_db()
    if request.htmx:
        # htmx swaps only a 2xx answer: the part with the refused form, where it was typed.
        context = {**_context(table, forms), "message": text, "ok": status == 200}
        return render(request, f"{PAGE}#seats", context)
    if status != 200:
        return render(request, PAGE, _context(table, forms), status=status)
    messages.success(request, text)
    return redirect("manage:table_seats", table.session.tournament.slug, table.pk)


@access.login_to_read
@require_safe
def table_seats(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id)
    template = f"{PAGE}#seats" if request.htmx else PAGE
    return render(request, template, _context(table))


@require_POST
def seat_points(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Penalty or bonus points at a seat: game points (the game's result) or placement."""
    table = _table(request, slug, table_id)
    form = _points_form(table, request.POST)
    if form.is_valid():
        seat = form.cleaned_data["seat"]
        seat.table = table
        try:
            given = Adjustment.give(
                table.session.tournament, seat.player, seat=seat, by=request.user, **form.what()
            )
        except Refused as refusal:
            on_form(form, refusal)
        else:
            return _answer(request, table, given.summary)
    return _answer(request, table, forms={"points": form}, status=400)


@require_POST
def seat_substitute(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A substitute takes a seat from the next round: a registered player, or a new one
    (registered as the players' import registers, then brought in)."""
    table = _table(request, slug, table_id)
    form = _substitute_form(table, request.POST)
    if form.is_valid():
        try:
            # A new player and their substitution: both, or neither.
            with transaction.atomic():
                player = form.cleaned_data["player"] or _new_player(request, table, form)
                if player is not None:
                    seat = form.cleaned_data["seat"]
                    seat.table = table
                    made = Substitution.bring_in(
                        seat, player, by=request.user, reason=form.cleaned_data["reason"]
                    )
        except Refused as refusal:
            on_form(form, refusal)
        else:
            if player is not None:
                text = gettext("%(in)s plays for %(out)s from round %(round)s.") % {
                    "in": player.name,
                    "out": made.player_out.name,
                    "round": made.from_round,
                }
                return _answer(request, table, text)
    return _answer(request, table, forms={"substitute": form}, status=400)


def _new_player(request: HtmxHttpRequest, table: Table, form: SubstituteForm) -> Player | None:
    """The new player registered (matched as the import matches a row); None with the
    row's error on the form."""
    tournament = table.session.tournament
    parsed = form.parsed()
    line = player_import.classify(parsed, tournament, by=request.user).lines[0]
    if line.status is player_import.Status.ERROR:
        form.add_error("name", line.reason[:1].upper() + line.reason[1:] + ".")
        return None
    try:
        result = player_import.import_players(parsed, tournament, by=request.user)
    except IntegrityError:
        form.add_error("name", gettext("The player was changed at the same moment: try again."))
        return None
    return result.players[0]


@require_POST
def seat_swap(request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Two players typed in each other's seats change seats, keeping their hands."""
    table = _table(request, slug, table_id)
    form = _swap_form(table, request.POST)
    if form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        try:
            swap_seats(
                table.game, first, second, by=request.user, reason=form.cleaned_data["reason"]
            )
        except Refused as refusal:
            on_form(form, refusal)
        else:
            text = gettext("%(first)s and %(second)s changed seats; the game is scored again.") % {
                "first": first.player.name,
                "second": second.player.name,
            }
            return _answer(request, table, text)
    return _answer(request, table, forms={"swap": form}, status=400)
