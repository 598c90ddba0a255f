from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from scoring import rules
from scoring.models import Game, RoundConflict, Sheet, SheetChanged, same_entries
from tournaments import texts
from tournaments.forms import CorrectionForm, ReasonForm, RoundForm
from tournaments.models import Session, Table
from tournaments.pdf import progression_svg
from tournaments.views.public import can_view, poll_seconds

# --- access ---------------------------------------------------------------

READ, REFEREE, DIRECTOR = "read", "referee", "director"


def can_write(user, table: Table) -> bool:
    """Directors at their tournaments; a referee at their table while it plays."""
    if not user.is_authenticated:
        return False
    tournament = table.session.tournament
    if tournament.is_director(user):
        return True
    # A signed-off sheet is closed to the referee: only a director changes it.
    return (
        not table.game.signed_off
        and table.referee_id == user.pk
        and table.session.status == Session.Status.RUNNING
        and tournament.status == tournament.Status.RUNNING
    )


def _get_table_for_user(request: HttpRequest, table_id: int, need: str = READ) -> Table:
    """The table, or 404 for who may not see it and 403 for who may only read it."""
    table = get_object_or_404(
        Table.objects.select_related("session__tournament", "game", "referee"),
        pk=table_id,
    )
    user = request.user
    tournament = table.session.tournament
    if not can_view(user, tournament):
        raise Http404("No such table.")
    if need == REFEREE and not can_write(user, table):
        raise PermissionDenied(
            gettext("Only the table's referee or a director can change this game.")
        )
    if need == DIRECTOR and not tournament.is_director(user):
        raise PermissionDenied(gettext("Only a director of the tournament can do this."))
    return table


def _sentence(error: Exception) -> str:
    """An error as the referee reads it, in their language: "The game is already over." """
    if isinstance(error, rules.GameError):
        return texts.game_error(error.message)
    # SheetChanged and ValueError speak the active language already.
    return texts.sentence(str(error))


# --- pages ----------------------------------------------------------------


@login_required
@require_GET
def my_tables(request: HttpRequest) -> HttpResponse:
    """A referee's tables in running sessions; a director's tables of their tournaments."""
    user = request.user
    tables = (
        Table.objects.filter(
            Q(referee=user, session__status=Session.Status.RUNNING)
            | Q(session__tournament__directors=user)
        )
        .select_related("session__tournament", "game")
        .prefetch_related("seats__player")
        .distinct()
        .order_by("-session__tournament__starts_on", "session__number", "number")
    )
    return render(request, "tournaments/my_tables.html", {"tables": tables})


def _live_context(request, table: Table, form=None, message: str = "") -> dict:
    game: Game = table.game
    sheet = game.sheet()
    editable = can_write(request.user, table)
    show_names = (
        editable
        or (request.user.is_authenticated and table.referee_id == request.user.pk)
        or table.session.tournament.is_director(request.user)
    )
    if form is None and editable and not game.finished:
        form = RoundForm(
            sheet,
            game.ruleset,
            initial={"number": len(sheet.rounds) + 1},
            auto_id="r_%s",
        )
    return {
        "table": table,
        "tournament": table.session.tournament,
        "game": game,
        "sheet": sheet,
        "rows": sheet.rows(),
        "chart": mark_safe(progression_svg(sheet, ruleset=game.ruleset)),  # noqa: S308 - reportlab's SVG, escaped
        "seats": sheet.seats,
        "players": sheet.players,
        "decks": game.ruleset.decks(len(sheet.seats)),
        "ruleset": game.ruleset,
        "winners": [seat for seat in sheet.seats if game.finished and seat.rank == 1],
        # A refused form stays on screen with its entries, even after the end.
        "form": form if form is not None and (form.is_bound or not game.finished) else None,
        "editable": editable,
        "is_director": table.session.tournament.is_director(request.user),
        "message": message,
        "poll_seconds": poll_seconds(),
        # Followers see the sheet; account names stay with the people running the table.
        "show_names": show_names,
        "changes": _history(game, table, show_names),
        "reason_form": ReasonForm(initial={"version": game.version}),
    }


def _history(game: Game, table: Table, show_names: bool) -> list:
    """The last 50 changes, each with `who` as this viewer may read it."""
    changes = list(game.changes.select_related("user")[:50])
    for change in changes:
        if show_names:
            username = change.user.get_username() if change.user else ""
            change.who = username or gettext("someone")
        elif change.user_id == table.referee_id:
            change.who = gettext("the referee")
        else:
            change.who = gettext("a director")
    return changes


def _render_live(request, table: Table, form=None, message: str = "", status: int = 200):
    context = _live_context(request, table, form, message)
    template = "tournaments/table.html"
    if request.htmx:
        template += "#live"
    return render(request, template, context, status=status)


@require_GET
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id)
    # Followers' pages poll: nothing changed, nothing to swap.
    if request.htmx and request.GET.get("since") == str(table.game.version):
        return HttpResponse(status=204)
    return _render_live(request, table)


@require_POST
def sign_off(request: HttpRequest, table_id: int) -> HttpResponse:
    """The referee signs the finished sheet off, as the players sign the paper one."""
    table = _get_table_for_user(request, table_id, REFEREE)
    message = gettext("Sheet signed off.")
    try:
        table.game.sign_off(by=request.user, version=int(request.POST.get("version", -1)))
    except (ValueError, rules.GameError, SheetChanged) as error:
        message = _sentence(error)
    else:
        if not request.htmx:
            return redirect(table)
    return _render_live(request, table, message=message, status=200 if request.htmx else 400)


@require_POST
def round_preview(request: HttpRequest, table_id: int) -> HttpResponse:
    """What the round being typed would do; saves nothing."""
    table = _get_table_for_user(request, table_id, REFEREE)
    game: Game = table.game
    sheet = game.sheet()
    form = RoundForm(sheet, game.ruleset, request.POST, auto_id="r_%s")
    preview = None
    if form.is_valid():
        try:
            result = game.preview_round(form.entries, sheet)
        except rules.GameError as error:
            form.add_game_error(error)
        else:
            preview = _preview(sheet, form.entries, result, game.ruleset)
    return render(
        request,
        "tournaments/table.html#preview",
        {"form": form, "preview": preview},
    )


def _preview(
    sheet: Sheet, entries: rules.Round, result: rules.GameResult, ruleset: rules.Ruleset
) -> dict:
    scored = result.rounds[-1]
    lines = [
        {
            "label": label,
            "points": scored.points[label],
            "reduction": scored.reductions.get(label, 0),
            "arrived": scored.totals[label] + scored.reductions.get(label, 0),
            "total": scored.totals[label],
        }
        for label in sheet.players
        # A player who is out (elimination) plays no more rounds.
        if label in scored.points
    ]
    false_yaniv = None
    if scored.kind is rules.RoundKind.FALSE_YANIV:
        false_yaniv = {
            "caller": entries.yaniv,
            "neighbour": scored.neighbour,
            "neighbour_hand": entries.hands[scored.neighbour],
            "points": scored.points[entries.yaniv],
        }
    return {
        "number": scored.number,
        "kind": scored.kind.value,
        "lines": lines,
        "false_yaniv": false_yaniv,
        "ends_game": scored.ends_game,
        "elimination": ruleset.eliminates,
        "eliminated": list(scored.eliminated),
        "limit": ruleset.end_above,
        "over": [label for label in sheet.players if scored.totals[label] > ruleset.end_above],
        "winners": result.winners,
    }


@require_POST
def record_round(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id, REFEREE)
    game: Game = table.game
    sheet = game.sheet()
    form = RoundForm(sheet, game.ruleset, request.POST, auto_id="r_%s")
    if form.is_valid():
        try:
            game.record_round(form.entries, by=request.user, number=form.cleaned_data["number"])
        except RoundConflict as conflict:
            if conflict.existing.entered_by_id == request.user.pk and same_entries(
                conflict.entries, form.entries
            ):
                # A flaky phone sent the same round twice: it is stored once, all is well.
                if request.htmx:
                    return _render_live(request, table)
                return redirect(table)
            # Keep the referee's entries on screen, aimed at the next round now.
            data = request.POST.copy()
            data["number"] = str(len(game.sheet().rounds) + 1)
            form = RoundForm(game.sheet(), game.ruleset, data, auto_id="r_%s")
            message = gettext("%(conflict)s — here is the sheet. Your entries are kept below.") % {
                "conflict": conflict
            }
            status = 200 if request.htmx else 409
            return _render_live(request, table, form=form, message=message, status=status)
        except rules.GameError as error:
            form.add_game_error(error)
        else:
            if request.htmx:
                return _render_saved(request, table, form.cleaned_data["number"])
            return redirect(table)
    return _render_live(request, table, form=form, status=200 if request.htmx else 400)


def _render_saved(request, table: Table, number: int) -> HttpResponse:
    """The fresh sheet after a saved round; if the database drops right after the commit,
    say the round is saved (never "not saved") and fetch the sheet again until it answers."""
    try:
        return _render_live(request, table)
    except DatabaseError:
        return render(request, "tournaments/_saved.html", {"table": table, "number": number})


@require_http_methods(["GET", "POST"])
def correct_round(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id, REFEREE)
    game: Game = table.game
    sheet = game.sheet()
    if not 1 <= number <= len(sheet.rounds):
        raise Http404("No such round.")
    if request.method == "POST":
        form = CorrectionForm(sheet, game.ruleset, request.POST, auto_id="c_%s")
        if form.is_valid():
            try:
                game.correct_round(
                    number,
                    form.entries,
                    by=request.user,
                    reason=form.cleaned_data["reason"],
                    version=form.cleaned_data["version"],
                )
            except (rules.GameError, SheetChanged) as error:
                if isinstance(error, rules.GameError):
                    form.add_game_error(error)
                else:
                    form.add_error(None, _sentence(error))
            else:
                if request.htmx:
                    # The form swaps itself on errors; a saved correction swaps the sheet.
                    message = gettext("Round %(number)s corrected.") % {"number": number}
                    response = _render_live(request, table, message=message)
                    return reswap(retarget(response, "#live"), "outerHTML")
                return redirect(table)
    else:
        initial = CorrectionForm.initial_for(
            sheet, sheet.entries(sheet.rounds[number - 1]), number
        )
        form = CorrectionForm(
            sheet,
            game.ruleset,
            initial={**initial, "version": game.version},
            auto_id="c_%s",
        )
    template = "tournaments/correct_round.html"
    if request.htmx:
        template += "#correction"
    status = 400 if form.is_bound and not request.htmx else 200
    return render(
        request,
        template,
        {"table": table, "game": game, "form": form, "number": number},
        status=status,
    )


@require_POST
def undo_round(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id, REFEREE)
    return _reasoned_change(
        request, table, table.game.undo_last_round, gettext("Last round undone.")
    )


@require_POST
def end_game(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _get_table_for_user(request, table_id, DIRECTOR)
    return _reasoned_change(
        request, table, table.game.end_at_time_limit, gettext("Game ended at the time limit.")
    )


def _reasoned_change(request, table: Table, change, done: str) -> HttpResponse:
    form = ReasonForm(request.POST)
    message = ""
    if form.is_valid():
        try:
            change(
                by=request.user,
                reason=form.cleaned_data["reason"],
                version=form.cleaned_data["version"],
            )
        except (rules.GameError, SheetChanged) as error:
            message = _sentence(error)
        else:
            if not request.htmx:
                return redirect(table)
            message = done
    else:
        message = " ".join(error for errors in form.errors.values() for error in errors)
    if request.htmx:
        return _render_live(request, table, message=message)
    return _render_live(request, table, message=message, status=400)
