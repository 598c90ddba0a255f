"""The table pages: follow a game; its referee records, corrects and undoes rounds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from scoring.errors import GameError
from tournaments import access, caching, changes, table_page, texts
from tournaments.access import Entrant
from tournaments.changes import Outcome, Status
from tournaments.errors import sentence
from tournaments.forms import (
    ConfirmForm,
    CorrectionForm,
    DisputeForm,
    ReasonForm,
    RoundForm,
    SyncForm,
    VersionForm,
    round_change,
    typed_on,
)
from tournaments.models import (
    AlreadyStored,
    Dispute,
    Game,
    GameChange,
    RoundConflict,
    Session,
    SheetChanged,
    Table,
    TableCode,
    TooManyDisputes,
    TypedOn,
)
from tournaments.sheets import EntrySheet, GameSheet
from tournaments.views.live import HtmxHttpRequest, poll_seconds
from tournaments.views.refusals import answers_refusals

# --- pages ----------------------------------------------------------------


@login_required
@require_safe
def my_tables(request: HtmxHttpRequest) -> HttpResponse:
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


def _sheet_key(table: Table, viewer: access.Viewer, clock_token: str) -> tuple[object, ...]:
    """What a kept sheet is kept by: the game's version, the session's state and clock, the
    tournament's settings, and who looks (a follower, a referee, a director, a table code:
    never one's sheet to another)."""
    session = table.session
    return (
        table.game.version,
        table.referee_id,
        session.changed_at,
        clock_token,
        caching.stamp(session.tournament),
        poll_seconds(),
        *viewer,
    )


def _render_live(
    request: HtmxHttpRequest, table: Table, *, code: str | None = None, **parts: Any
) -> HttpResponse:
    """The table page after a change (`table_page.answer`), as its viewer sees it now."""
    return table_page.answer(request, table, access.table_viewer(request, table, code), **parts)


def _kept_whole_page(
    request: HtmxHttpRequest,
    table: Table,
    viewer: access.Viewer,
    context: Callable[[], dict[str, Any]],
    kept: tuple[object, ...],
) -> HttpResponse:
    """The whole table page with its head and body kept by `kept` (or drawn from `context`,
    made once if either is drawn), and the session clock between them drawn fresh by the
    page's template."""
    values = cache(context)
    shell = {
        "table": table,
        "tournament": table.session.tournament,
        "editable": viewer.editable,
        # A table code's page offers each seat's notifications (the notifications app).
        "code": viewer.code,
        "head": caching.part(request, f"{table_page.TEMPLATE}#head", kept, values),
        "body": caching.part(request, f"{table_page.TEMPLATE}#body", kept, values),
    }
    return render(request, table_page.TEMPLATE, shell)


@require_safe
def table_detail(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    # An htmx poll (the header read as it came: `request.htmx` would build every header).
    since = request.GET.get("since") if request.META.get("HTTP_HX_REQUEST") == "true" else None
    if since is not None and code is None and table_id is not None:
        # The hall's phones polling a public table: one narrow query, no table loaded.
        current = access.public_table_poll(table_id)
        if current == (_int_or_none(since), request.GET.get("clock", "")):
            return HttpResponse(status=204)
    try:
        table = access.get_table_for_viewer(request, table_id, code)
    except Http404:
        closed = access.closed_code(code) if code is not None else None
        if closed is None:
            raise
        return _closed_code_page(request, closed)
    # The pages poll: nothing changed, nothing to swap. "Changed" is the game's version or
    # the session clock's state (its token, read off the session row loaded with the table:
    # no query; it moves when the director changes the clock and once when the time is up).
    clock_token = table.session.clock(table).token
    if (
        request.htmx
        and request.GET.get("since") == str(table.game.version)
        and request.GET.get("clock", "") == clock_token
    ):
        return HttpResponse(status=204)
    return _kept_page(request, table, code, clock_token)


def _kept_page(
    request: HtmxHttpRequest, table: Table, code: str | None, clock_token: str
) -> HttpResponse:
    """The table page to a plain GET, its live part to htmx, or the sheet alone to a poll a
    version behind (a referee's entry form, being typed in, stays as it is): as drawn for
    the first phone that asked, by viewer (after the access check; tournaments.caching)."""
    viewer = access.table_viewer(request, table, code)

    def context() -> dict[str, Any]:
        return table_page.page_values(table, GameSheet.load(table.game), viewer)

    kept = _sheet_key(table, viewer, clock_token)
    if not request.htmx:
        return _kept_whole_page(request, table, viewer, context, kept)
    if request.GET.get("part") != "sheet":
        return HttpResponse(caching.part(request, f"{table_page.TEMPLATE}#live", kept, context))
    if viewer.follower:
        # Every follower's the same: the whole answer is kept.
        return caching.fragment(
            request,
            (
                "sheet",
                table.game.version,
                clock_token,
                caching.stamp(table.session.tournament),
                poll_seconds(),
            ),
            lambda: HttpResponse(
                render_to_string(f"{table_page.TEMPLATE}#sheet", context(), request)
            ),
        )
    return HttpResponse(caching.part(request, f"{table_page.TEMPLATE}#sheet", kept, context))


def _closed_code_page(request: HtmxHttpRequest, closed: TableCode) -> HttpResponse:
    """A table code that no longer opens its table (or not yet): why, in words; on a phone
    that still holds rounds typed there, those rounds, to read out or copy (table.js)."""
    table = closed.table
    if request.htmx:
        # A poll of a page opened while the code worked: nothing to swap (the page asks why).
        return HttpResponse(status=410)
    context = {
        "table": table,
        "tournament": table.session.tournament,
        "reason": closed.why_not_working,
        "ruleset": table.game.ruleset,
    }
    return render(request, "tournaments/code_closed.html", context, status=410)


@require_POST
def sign_off(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The referee signs the finished sheet off, as the players sign the paper one."""
    table = access.get_table_to_sign_off(request, table_id)
    form = VersionForm(request.POST)
    message = gettext("Sheet signed off.")
    if not form.is_valid():
        message = texts.sentence(str(SheetChanged()))
    else:
        try:
            table.game.sign_off(by=request.user, version=form.cleaned_data["version"])
        except (GameError, SheetChanged) as error:
            message = sentence(error)
        else:
            if not request.htmx:
                return redirect(table)
            return _render_live(request, table, message=message)
    return _render_live(request, table, message=message, status=200 if request.htmx else 400)


@require_POST
def round_preview(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    """What the round being typed would do; saves nothing."""
    table = access.get_entrant(request, table_id, code).table
    sheet = GameSheet.load(table.game)
    form = RoundForm(sheet, request.POST, auto_id="r_%s")
    preview = None
    if form.is_valid():
        try:
            preview = sheet.preview(form.entries)
        except GameError as error:
            form.add_game_error(error)
    return render(
        request,
        "tournaments/table.html#preview",
        {"form": form, "preview": preview, "previewing": True},
    )


@require_POST
def record_round(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    """The entry form's round: checked against the seats, recorded (`changes.record`); htmx
    gets the live part drawn from the sheet as stored, a plain post goes back."""
    entrant = access.get_entrant(request, table_id, code)
    game = entrant.table.game
    form = RoundForm(_entry_sheet(entrant), request.POST, auto_id="r_%s")
    if form.is_valid():
        change = round_change(form)
        outcome = changes.record(game, change, by=entrant.by)
        if outcome.status is Status.REPLAYED:
            # Stored before, once: the page sent it again (said "saved" again without script).
            return table_page.saved(request, entrant, number=change.number)
        if outcome.saved:
            return table_page.saved(request, entrant, outcome.seats)
        if outcome.refused is not None:
            # Never stored as another round: the referee chooses between the two versions,
            # or says the round typed on another phone too is another round.
            return _choice(request, entrant, outcome.refused, change.typed_on)
        if isinstance(outcome.error, GameError):
            form.add_game_error(outcome.error)
    status = 200 if request.htmx else 400
    return table_page.answer(request, entrant.table, entrant.viewer(), form=form, status=status)


def _entry_sheet(entrant: Entrant) -> EntrySheet:
    """The next round's form's seats, as the access check read them (else read now)."""
    game = entrant.table.game
    return EntrySheet.of(game, entrant.seats) if entrant.seats else EntrySheet.load(game)


def _choice(
    request: HtmxHttpRequest,
    entrant: Entrant,
    refused: RoundConflict | AlreadyStored,
    since: TypedOn,
) -> HttpResponse:
    """A round the table's sheet would not take as it is, beside the stored one."""
    choice = table_page.choice(refused, entrant, request, since)
    status = 200 if request.htmx else 409
    return table_page.answer(
        request, entrant.table, entrant.viewer(), conflict=choice, status=status
    )


@require_http_methods(["GET", "POST"])
def correct_round(
    request: HtmxHttpRequest,
    table_id: int | None = None,
    number: int = 0,
    code: str | None = None,
) -> HttpResponse:
    entrant = access.get_entrant(request, table_id, code)
    table = entrant.table
    game = table.game
    sheet = GameSheet.load(game)
    if not 1 <= number <= len(sheet.rows):
        raise Http404("No such round.")
    # A director answering a dispute about this round corrects it with the dispute.
    dispute = _dispute_of(request, table, number) if code is None else None
    if request.method == "POST":
        form = CorrectionForm(sheet, request.POST, auto_id="c_%s")
        if form.is_valid():
            outcome = changes.correct(
                game,
                number,
                form.entries,
                by=entrant.by,
                reason=form.cleaned_data["reason"],
                version=form.cleaned_data["version"],
                client_id=form.cleaned_data["client_id"],
                dispute=dispute,
            )
            if outcome.status is Status.REPLAYED:
                return table_page.back(table, code)
            if isinstance(outcome.error, GameError):
                form.add_game_error(outcome.error)
            elif not outcome.saved:
                form.add_error(None, sentence(outcome.why))
            else:
                current = urlsplit(request.htmx.current_url_abs_path or "").path
                if request.htmx and current == request.path:
                    # The correction page on its own (a director's queue links to it): back
                    # to the table page.
                    address = table_page.address(table, code)
                    url = reverse(f"{address['ns']}:detail", args=[address["key"]])
                    return HttpResponseClientRedirect(url)
                if request.htmx:
                    # The form swaps itself on errors; a saved correction swaps the sheet.
                    message = gettext("Round %(number)s corrected.") % {"number": number}
                    response = table_page.answer(request, table, entrant.viewer(), message=message)
                    return reswap(retarget(response, "#live"), "outerHTML")
                return table_page.back(table, code)
    else:
        initial = CorrectionForm.initial_for(sheet, number)
        form = CorrectionForm(sheet, initial={**initial, "version": game.version}, auto_id="c_%s")
    template = "tournaments/correct_round.html"
    if request.htmx:
        template += "#correction"
    status = 400 if form.is_bound and not request.htmx else 200
    return render(
        request,
        template,
        {
            "table": table,
            "game": game,
            "form": form,
            "number": number,
            "dispute": dispute,
            **table_page.address(table, code),
        },
        status=status,
    )


def _dispute_of(request: HtmxHttpRequest, table: Table, number: int) -> Dispute | None:
    """The open dispute a director's correction answers (`?dispute=` or the form's field)."""
    wanted = request.POST.get("dispute") or request.GET.get("dispute")
    if not wanted or not str(wanted).isdigit():
        return None
    if not access.can_direct(request.user, table.session.tournament):
        return None
    return Dispute.objects.filter(
        pk=int(wanted), game=table.game, status=Dispute.Status.OPEN, round_number=number
    ).first()


@require_POST
def undo_round(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    entrant = access.get_entrant(request, table_id, code)
    return _reasoned_change(
        request,
        entrant,
        entrant.table.game.undo_last_round,
        gettext("Last round undone."),
    )


@require_POST
def end_game(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = access.get_table_for_director(request, table_id)
    return _reasoned_change(
        request,
        Entrant(table, user=request.user),
        table.game.end_at_time_limit,
        gettext("Game ended at the time limit."),
    )


@require_POST
def add_late_round(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """A round a phone still held when its game ended at the time limit (the session
    finished, say): a director adds it from the phone's text, with a reason in the audit
    log. Its totals count; the game stays ended at the time limit."""
    table = access.get_table_for_director(request, table_id)
    game = table.game
    reasoned = ReasonForm(request.POST)
    form = RoundForm(EntrySheet.load(game), request.POST, auto_id="late_%s")
    if not reasoned.is_valid():
        message = _errors(reasoned)
    elif not form.is_valid():
        message = _errors(form)
    else:
        late_reason = reasoned.cleaned_data["reason"]
        outcome = changes.record(
            game, round_change(form, late_reason=late_reason), by=request.user
        )
        if outcome.saved:
            if not request.htmx:
                return redirect(table)
            number = game.round_count
            message = gettext("Round %(number)s added after the time limit.") % {"number": number}
            return _render_live(request, table, message=message)
        message = sentence(outcome.why)
    return _render_live(request, table, message=message, status=200 if request.htmx else 400)


def _reasoned_change(
    request: HtmxHttpRequest,
    entrant: Entrant,
    change: Any,
    done: str,
) -> HttpResponse:
    table = entrant.table
    form = ReasonForm(request.POST)
    message = ""
    if form.is_valid():
        try:
            change(
                by=entrant.by,
                reason=form.cleaned_data["reason"],
                version=form.cleaned_data["version"],
            )
        except (GameError, SheetChanged) as error:
            message = sentence(error)
        else:
            if not request.htmx:
                return table_page.back(table, entrant.typed)
            message = done
    else:
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
    if request.htmx:
        return table_page.answer(request, table, entrant.viewer(), message=message)
    return table_page.answer(request, table, entrant.viewer(), message=message, status=400)


# --- the players agree; something's wrong ---------------------------------------------------


@require_POST
def confirm(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    """A player taps "I agree" on the finished sheet (on their phone, or one passed around)."""
    entrant = access.get_entrant(request, table_id, code)
    table = entrant.table
    form = ConfirmForm(request.POST)
    message = texts.sentence(str(SheetChanged()))
    if form.is_valid():
        seat = (
            table.seats.select_related("player").filter(position=form.cleaned_data["seat"]).first()
        )
        if seat is None:
            raise Http404("No such seat.")
        device, new_device = access.device_of(request)
        try:
            version = _agreeing_version(table.game, form.cleaned_data["version"])
            signed = table.game.confirm(seat, by=entrant.by, version=version, device=device)
        except (GameError, SheetChanged) as error:
            message = sentence(error)
        else:
            if not request.htmx:
                response = table_page.back(table, code)
                if new_device:
                    access.remember_device(response, device, request)
                return response
            message = (
                gettext("Everyone needed agreed: the sheet is signed off.")
                if signed
                else gettext("%(name)s agrees.") % {"name": seat.player.name}
            )
            response = table_page.answer(request, table, entrant.viewer(), message=message)
            if new_device:
                access.remember_device(response, device, request)
            return response
    return table_page.answer(request, table, entrant.viewer(), message=message)


# What a player agrees to: the rounds and the game's end, not who else agreed or asked.
_SHEET_CHANGES = (
    GameChange.Action.RECORD,
    GameChange.Action.CORRECT,
    GameChange.Action.UNDO,
    GameChange.Action.END,
    GameChange.Action.RESOLVE,
)


def _agreeing_version(game: Game, seen: int) -> int:
    """The version an "I agree" is taken on: the page's, or the current one when only other
    players' agreements, questions or answers came since (a phone behind another's "I agree"
    still agrees to the same sheet)."""
    changed = game.changes.filter(version__gt=seen, action__in=_SHEET_CHANGES).exists()
    return seen if changed else game.version


@require_POST
def dispute(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> HttpResponse:
    """ "Something's wrong" at the table: to the director's queue, answered on this page."""
    table = access.get_table_for_viewer(request, table_id, code)
    if code is None and not access.can_referee(request.user, table):
        raise PermissionDenied(gettext("Only the table's referee or a director can do this."))
    by = access.find_code(request, code) if code is not None else request.user
    form = DisputeForm(GameSheet.load(table.game), request.POST)
    if form.is_valid():
        try:
            table.game.raise_dispute(form.cleaned_data["round"], form.cleaned_data["text"], by=by)
        except TooManyDisputes as refused:
            # Nothing saved; a plain post gets 429, htmx the page with the message.
            message = ngettext(
                "Too many questions sent from this table in a minute: wait %(seconds)s second "
                "and send it again. The director has the earlier ones.",
                "Too many questions sent from this table in a minute: wait %(seconds)s seconds "
                "and send it again. The director has the earlier ones.",
                refused.retry_after,
            ) % {"seconds": refused.retry_after}
            response = _render_live(
                request, table, message=message, code=code, status=200 if request.htmx else 429
            )
            response["Retry-After"] = str(refused.retry_after)
            return response
        if not request.htmx:
            return table_page.back(table, code)
        message = gettext("Sent to the director. The answer appears below.")
    else:
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
    return _render_live(request, table, message=message, code=code)


# --- a device's outbox, one change at a time ----------------------------------------


@require_POST
@answers_refusals()
def sync(
    request: HtmxHttpRequest, table_id: int | None = None, code: str | None = None
) -> JsonResponse:
    """One change of a device's outbox (record, correct or undo a round), answered in JSON.

    The same change sent twice (its client id) is applied once and answered "replayed"; a
    round whose number another device took with other entries is a "conflict", a change made
    on an older sheet "stale": both come with the choice to show, and nothing is stored.
    """
    try:
        entrant = access.get_entrant(request, table_id, code)
    except PermissionDenied as refused:
        # E.g. the sheet was signed off meanwhile: the device keeps its changes and says so.
        why = str(refused)
        if not request.user.is_authenticated and code is None:
            why = str(access.LOGGED_OUT)
        return JsonResponse({"status": "closed", "message": why}, status=403)
    except Http404:
        if code is None:
            if request.user.is_authenticated:
                raise
            # A referee logged out (or their session expired) while the phone was offline: a
            # private tournament's table stays not found, but the phone learns why it may not.
            message = str(access.LOGGED_OUT)
            return JsonResponse({"status": "closed", "message": message}, status=404)
        # A code revoked, or a session finished, while the phone was offline: why, in words.
        message = access.why_code_closed(code)
        return JsonResponse({"status": "closed", "message": message}, status=403)
    change = SyncForm(request.POST)
    if not change.is_valid():
        return _refused(change.errors.as_text())
    # The version of the sheet the device made the change on (older pages send none for a
    # round): a device whose copy is not that version plus its change gets the stored game,
    # and so does one meeting a conflict or a stale change.
    base = change.cleaned_data["version"]
    since = typed_on(request.POST, base)
    outcome = _synced(request, entrant, change.cleaned_data, since)
    if isinstance(outcome, str):
        return _refused(outcome)
    return _sync_answer(request, entrant, code, outcome, base, since)


def _synced(
    request: HtmxHttpRequest, entrant: Entrant, change: dict[str, Any], since: TypedOn
) -> Outcome | str:
    """The outbox's change applied (`tournaments.changes`), or why its form is no change."""
    game, posted = entrant.table.game, request.POST
    action, client_id, base = change["action"], change["client_id"], change["version"]
    if action == "undo":
        reasoned = ReasonForm(posted)
        if not reasoned.is_valid():
            return _errors(reasoned)
        return changes.undo(
            game,
            by=entrant.by,
            reason=reasoned.cleaned_data["reason"],
            version=reasoned.cleaned_data["version"],
            client_id=client_id,
        )
    if action == "correct":
        correction = CorrectionForm(GameSheet.load(game), posted)
        if not correction.is_valid():
            return _errors(correction)
        return changes.correct(
            game,
            correction.cleaned_data["number"],
            correction.entries,
            by=entrant.by,
            reason=correction.cleaned_data["reason"],
            version=correction.cleaned_data["version"],
            client_id=client_id,
            typed_on=since,
        )
    form = RoundForm(_entry_sheet(entrant), posted)
    if not form.is_valid():
        return _errors(form)
    typed_ago = change["typed_ago_ms"]
    typed_ago = None if typed_ago is None else timedelta(milliseconds=typed_ago)
    round_typed = round_change(form, base=base, typed_ago=typed_ago, since=since)
    return changes.record(game, round_typed, by=entrant.by)


def _sync_answer(
    request: HtmxHttpRequest,
    entrant: Entrant,
    code: str | None,
    outcome: Outcome,
    base: int | None,
    since: TypedOn,
) -> JsonResponse:
    """The outcome as the phone's outbox reads it: its status and the stored version; the
    stored game too where the phone's copy is behind, or the choice it shows."""
    game, status, http_status = entrant.table.game, outcome.status, 200
    extra: dict[str, Any] = {}
    if status is Status.REFUSED:
        return _refused(sentence(outcome.why))
    if status is Status.STALE:
        # The rounds other phones stored since: the phone's waiting rounds among them are
        # those rounds, never sent again under new numbers.
        extra = {
            "message": sentence(outcome.why),
            "since": table_page.stored_since(game, since.known, since.mine),
        }
        http_status = 409
    elif outcome.refused is not None:
        http_status, extra = _not_stored(request, entrant, code, outcome.refused, since)
    behind = base is not None and outcome.version != base + (status is Status.STORED)
    if behind or status in (Status.CONFLICT, Status.STALE):
        extra["state"] = GameSheet.load(game).device_state()
    body = {"status": str(status), "version": outcome.version, **extra}
    return JsonResponse(body, status=http_status)


def _not_stored(
    request: HtmxHttpRequest,
    entrant: Entrant,
    code: str | None,
    refused: RoundConflict | AlreadyStored,
    since: TypedOn,
) -> tuple[int, dict[str, Any]]:
    """A round the sync did not store, as its answer: a conflict to choose on (with the
    rounds stored since the phone's version), or a round already stored from another phone
    (the phone drops its copy and shows why; it may still say "this is another round")."""
    choice = table_page.choice(refused, entrant, request, since, device=True)
    html = _conflict_html(request, entrant.table, code, choice)
    if isinstance(refused, AlreadyStored):
        return 200, {"html": html, "number": refused.number}
    return 409, {"html": html, "since": choice["since_records"]}


def _conflict_html(
    request: HtmxHttpRequest, table: Table, code: str | None, choice: dict[str, Any]
) -> str:
    """The panel the phone shows for a round the server would not store as it is."""
    context = {"table": table, "conflict": choice, **table_page.address(table, code)}
    return render_to_string("tournaments/table.html#conflict", context, request)


def _int_or_none(text: str) -> int | None:
    """A number off the address (a version); anything else is None."""
    return int(text) if text.isascii() and text.isdigit() else None


def _errors(form: forms.Form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def _refused(message: str) -> JsonResponse:
    """Nothing stored: the entries cannot be a round (e.g. the game ended meanwhile)."""
    return JsonResponse({"status": "refused", "message": message}, status=400)
