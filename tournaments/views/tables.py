"""The table pages: follow a game; its referee records, corrects and undoes rounds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from functools import cached_property, partial
from typing import Any, NamedTuple, cast
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from scoring import rules
from scoring.errors import GameError
from scoring.records import round_to_record
from tournaments import access, caching, texts
from tournaments.access import Entrant
from tournaments.chart import progression_svg
from tournaments.errors import sentence
from tournaments.forms import (
    ConfirmForm,
    CorrectionForm,
    DisputeForm,
    ReasonForm,
    RoundForm,
    SyncForm,
    VersionForm,
)
from tournaments.models import (
    AlreadyApplied,
    Dispute,
    Game,
    GameChange,
    Round,
    RoundConflict,
    Session,
    SheetChanged,
    Table,
    TableCode,
    TooManyDisputes,
)
from tournaments.models.games import describe_entries
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


def _entrant(request: HtmxHttpRequest, table: Table, code: str | None) -> Entrant | None:
    """Who may record at the table on this page: its referee or a director, or the holder of
    a working table code; None for a follower."""
    if code is not None:
        found = access.find_code(request, code)
        return None if table.game.signed_off else Entrant(table, code=found)
    if access.can_referee(request.user, table):
        return Entrant(table, user=request.user)
    return None


def _follower(request: HtmxHttpRequest, table: Table) -> bool:
    """Someone who only follows the table by account (or none): the same sheet as anyone
    else following it, no entry controls and no account names."""
    user = request.user
    return not access.can_referee(user, table) and not access.can_see_names(user, table)


# The session clock's places in the table page's parts (`_part`): it is drawn fresh for each
# request, never kept, for it carries the server's time of drawing (static/js/clock.js).
CLOCK = "<!--session-clock-->"
CLOCK_OOB = "<!--session-clock-oob-->"


class _Later:
    """The values of the table page built on first use, once: a part of the page served as
    kept (`_part`) uses none of them, so a kept page loads no sheet, forms or history.

    The context holds `partial(later.get, name)`: the template engine calls a callable it
    finds in the context (Django's documented rule), so the values are built when a part is
    rendered, not when it is served."""

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._values: dict[str, Any] | None = None

    @property
    def built(self) -> bool:
        return self._values is not None

    def get(self, name: str) -> Any:
        if self._values is None:
            self._values = self._build()
        return self._values[name]

    def context(self, names: Iterable[str]) -> dict[str, Any]:
        return {name: partial(self.get, name) for name in names}


# The names `_Later` builds for the table page (`_live_values`).
LIVE_VALUES = (
    "sheet",
    "sheet_rows",
    "chart",
    "decks",
    "ruleset",
    "form",
    "confirmations",
    "disputes",
    "dispute_round",
    "dispute_form",
    "history",
    "history_count",
    "device_state",
    "device_texts",
    "withdrawn_seated",
)


def _live_context(
    request: HtmxHttpRequest,
    table: Table,
    form: RoundForm | None = None,
    message: str = "",
    code: str | None = None,
) -> dict[str, Any]:
    """The table page's context for this viewer: who they are at once (the key of a kept
    part), what the page shows on first use (`_Later`)."""
    game = table.game
    editable = _entrant(request, table, code) is not None
    show_names = code is None and access.can_see_names(request.user, table)
    ns = "codes" if code is not None else "tables"
    key: str | int = code if code is not None else table.pk
    is_director = code is None and access.can_direct(request.user, table.session.tournament)
    later = _Later(lambda: _live_values(table, form, editable, is_director, show_names, ns, key))
    return {
        "table": table,
        "tournament": table.session.tournament,
        "game": game,
        "editable": editable,
        "is_director": is_director,
        # The table page by account (tables:) or by table code (codes:), with the same views.
        "ns": ns,
        "key": key,
        "by_code": code is not None,
        "message": message,
        "poll_seconds": poll_seconds(),
        # The session clock's state as the sheet's poll sends it back (`table_detail`).
        "clock_token": table.session.clock(table).token,
        # Followers see the sheet; account names stay with the people running the table.
        "show_names": show_names,
        "clock": mark_safe(CLOCK),  # noqa: S308 - a constant
        "clock_oob": mark_safe(CLOCK_OOB),  # noqa: S308 - a constant
        "later": later,
        **later.context(LIVE_VALUES),
    }


def _live_values(
    table: Table,
    form: RoundForm | None,
    editable: bool,
    is_director: bool,
    show_names: bool,
    ns: str,
    key: str | int,
) -> dict[str, Any]:
    """What the table page shows: the sheet and what is made of it (`_Later`)."""
    game = table.game
    sheet = GameSheet.load(game)
    if form is None and editable and not game.finished:
        form = RoundForm(sheet, initial={"number": len(sheet.rows) + 1}, auto_id="r_%s")
    changes = _changes(game)
    return {
        "sheet": sheet,
        "sheet_rows": sheet.rows_html(_round_url(ns, "correct", key) if editable else None),
        "chart": mark_safe(progression_svg(sheet.sheet)),  # noqa: S308 - our SVG, escaped there
        "decks": sheet.ruleset.decks(len(sheet.seats)),
        "ruleset": sheet.ruleset,
        # A refused form stays on screen with its entries, even after the end.
        "form": form if form is not None and (form.is_bound or not game.finished) else None,
        "confirmations": _confirmations(sheet),
        "disputes": list(game.disputes.all()[:20]),
        # "Something's wrong?" is for the people at the table and the directors.
        "dispute_round": _dispute_round(sheet) if editable or is_director else None,
        "dispute_form": DisputeForm(sheet) if editable or is_director else None,
        "history": _history(changes, table, show_names),
        "history_count": len(changes),
        # The device's copy of the game and the words it needs offline (editable pages).
        "device_state": _device_state(sheet) if editable else None,
        "device_texts": texts.script_texts(sheet.ruleset.name) if editable else None,
        "withdrawn_seated": _withdrawn_seated(sheet) if not game.finished else [],
    }


def _withdrawn_seated(sheet: GameSheet) -> list[str]:
    """The players at this unfinished table who withdrew from the tournament: the table
    keeps playing them until the director decides, and the page says so."""
    return [seat.player.name for seat in sheet.seats if getattr(seat, "withdrawn", False)]


def _round_url(ns: str, view: str, key: str | int) -> Callable[[int], str]:
    """A round's page of `view` by its number, the address reversed once for every round."""
    # Reversed with a stand-in number, cut where the number goes.
    head, _, tail = reverse(f"{ns}:{view}", args=[key, _ROUND_STAND_IN]).rpartition(
        str(_ROUND_STAND_IN)
    )
    return lambda number: f"{head}{number}{tail}"


_ROUND_STAND_IN = 987654321


def _dispute_round(sheet: GameSheet) -> SafeString:
    """The "Something's wrong" form's round choice, as Django draws `DisputeForm`'s round
    field (a test holds the two equal), written here: Django draws each option with a
    template of its own, a hundred in a long game."""
    whole = conditional_escape(gettext("the whole sheet"))
    options = "".join(
        f'\n  <option value="{number}">{number}</option>\n'
        for number in (row.number for row in sheet.rows)
    )
    return mark_safe(  # noqa: S308 - numbers and an escaped text
        f'<select name="round" id="id_round">\n  <option value="" selected>{whole}</option>\n'
        f"{options}\n</select>"
    )


def _confirmations(sheet: GameSheet) -> dict[str, Any] | None:
    """Who agreed to a finished sheet of a table-code session, and who may still."""
    game = sheet.game
    if not (game.finished and game.table.session.by_table_codes):
        return None
    agreed = set(game.confirmations.values_list("seat_id", flat=True))
    return {
        "seats": [(seat, seat.pk in agreed) for seat in sheet.seats],
        "count": len(agreed),
        "needed": game.confirmations_needed(),
        "phones": phones_of(game),
    }


def phones_of(game: Game) -> list[str]:
    """Which seats agreed from one phone, in words (one phone passed round the table is
    fine; hiding it is not): the sheet and the director both read it."""
    lines = []
    for positions in game.confirmation_devices():
        if len(positions) > 1:
            lines.append(
                gettext("Seats %(seats)s agreed from one phone.")
                % {"seats": ", ".join(map(str, positions))}
            )
    return lines


def _device_state(sheet: GameSheet) -> dict[str, Any]:
    """The game as the table page's script scores it on the device (scoring, offline)."""
    game, ruleset = sheet.game, sheet.ruleset
    return {
        "version": game.version,
        "finished": game.finished,
        "ended_at_time_limit": game.ended_at_time_limit,
        "signed_off": game.signed_off,
        "players": list(sheet.players),
        "positions": [seat.position for seat in sheet.seats],
        "ruleset": ruleset.name,
        "options": ruleset.options_from(rules.RULESETS[ruleset.name]),
        "rounds": [round_to_record(row.entries, ruleset) for row in sheet.rows],
    }


class _Change(NamedTuple):
    """A line of the page's history, read as plain values (no model instances)."""

    action: str
    round_number: int | None
    user_id: int | None
    username: str | None
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reason: str


def _changes(game: Game) -> list[_Change]:
    """The game's last fifty changes, newest first."""
    rows = game.changes.values_list(
        "action", "round_number", "user_id", "user__username", "at", "before", "after", "reason"
    )[:50]
    return [_Change._make(row) for row in rows]


def _history(changes: Iterable[_Change], table: Table, show_names: bool) -> SafeString:
    """The last changes as the page's history lists them, each with who made it as this
    viewer may read it: written here rather than by the template, which took a tag per
    line and a translation per tag, fifty times over."""
    someone, referee, director = gettext("someone"), gettext("the referee"), gettext("a director")
    # A session kept by table codes has no referee: its rounds come from a phone at the table.
    if table.session.by_table_codes:
        referee = gettext("a phone at the table")
    with_round = gettext("%(who)s %(action)s round %(number)s")
    without_round = gettext("%(who)s %(action)s")
    reason_text = gettext(": “%(reason)s”")
    before_text, after_text = gettext("before: %(entries)s"), gettext("after: %(entries)s")
    actions = {value: conditional_escape(label) for value, label in GameChange.Action.choices}
    lines = []
    for change in changes:
        if show_names:
            who = change.username or someone
        else:
            who = referee if change.user_id == table.referee_id else director
        words = {"who": conditional_escape(who), "action": actions[change.action]}
        if change.round_number:
            line = with_round % {**words, "number": change.round_number}
        else:
            line = without_round % words
        if change.reason:
            line += reason_text % {"reason": conditional_escape(change.reason)}
        before = after = ""
        if change.before:
            entries = conditional_escape(describe_entries(change.before))
            before = f'<div class="entries">{before_text % {"entries": entries}}</div>'
        if change.after and change.action != GameChange.Action.RECORD:
            entries = conditional_escape(describe_entries(change.after))
            after = f'<div class="entries">{after_text % {"entries": entries}}</div>'
        at = localtime(change.at)
        lines.append(
            f'\n      <li><time datetime="{at.strftime("%Y-%m-%dT%H:%M:%S%z")}">'
            f"{at.strftime('%H:%M:%S')}</time>\n        {line}\n        {before}\n        {after}"
            "\n      </li>\n      "
        )
    return mark_safe("".join(lines))  # noqa: S308 - every value escaped above


def _part(
    request: HtmxHttpRequest,
    name: str,
    context: dict[str, Any],
    kept: Iterable[object] | None = None,
) -> str:
    """A part of the table page (`name`: content, live or sheet) with the session clock
    drawn in: kept by `kept` (what makes it differ: version, viewer, …), else rendered."""
    template = f"tournaments/table.html#{name}"
    html: str
    if kept is not None:
        html = caching.part(request, template, kept, context)
    else:
        html = render_to_string(template, context, request)
    table = context["table"]
    for place, oob in ((CLOCK, False), (CLOCK_OOB, True)):
        if place in html:
            clock = render_to_string(
                "tournaments/_clock.html",
                {
                    "session": table.session,
                    "table": table,
                    # The sheet only if the clock asks (after the limit, unfinished).
                    "sheet": _ClockSheet(context["later"], table.game),
                    "oob": oob,
                },
            )
            html = html.replace(place, clock)
    return html


class _ClockSheet:
    """The sheet as the session clock reads it (the rounds recorded after the limit, once
    the time is up on an unfinished game): the page's own sheet if it was built, else the
    rounds' times alone (one query), not the whole page's values a kept page does without."""

    def __init__(self, later: _Later, game: Game) -> None:
        self._later, self._game = later, game

    @cached_property
    def stored_rounds(self) -> Sequence[Any]:
        if self._later.built:
            return cast(GameSheet, self._later.get("sheet")).stored_rounds
        return list(Round.objects.filter(game=self._game).only("entered_at"))


def _kept(table: Table, context: dict[str, Any]) -> tuple[object, ...]:
    """What a kept part of the table page is kept by: the game's version, the session's
    state and clock, the tournament's settings, and what the viewer may see and do there
    (a follower, a referee, a director, a table code: never one's part to another)."""
    session = table.session
    return (
        table.pk,
        table.game.version,
        table.referee_id,
        session.changed_at,
        context["clock_token"],
        caching.stamp(session.tournament),
        context["poll_seconds"],
        context["editable"],
        context["is_director"],
        context["show_names"],
        context["ns"],
        context["key"],
    )


def _render_live(
    request: HtmxHttpRequest,
    table: Table,
    form: RoundForm | None = None,
    message: str = "",
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    code: str | None = None,
    keep: bool = False,
) -> HttpResponse:
    """The table page, or its live part for htmx; `keep`: a plain GET's, kept by version and
    viewer (`_kept`) — never one with a message, a conflict or a refused form."""
    context = {**_live_context(request, table, form, message, code), "conflict": conflict}
    kept = _kept(table, context) if keep else None
    if request.htmx:
        return HttpResponse(_part(request, "live", context, kept), status=status)
    shell = {
        "table": table,
        "tournament": context["tournament"],
        "editable": context["editable"],
        # A table code's page offers each seat's notifications (the notifications app).
        "code": code,
        "content": mark_safe(_part(request, "content", context, kept)),  # noqa: S308 - rendered
    }
    return render(request, "tournaments/table.html", shell, status=status)


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
    if request.htmx and request.GET.get("part") == "sheet":
        if code is None and _follower(request, table):
            # A follower's poll a version behind: the sheet as rendered for the first of them
            # (tournaments.caching; after the access check above).
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
                    _part(request, "sheet", _live_context(request, table, code=code))
                ),
            )
        # The sheet alone: a referee's entry form, being typed in, stays as it is.
        context = _live_context(request, table, code=code)
        return HttpResponse(_part(request, "sheet", context, _kept(table, context)))
    return _render_live(request, table, code=code, keep=True)


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
        "device_texts": texts.script_texts(table.game.ruleset.name),
    }
    return render(request, "tournaments/code_closed.html", context, status=410)


@require_POST
def sign_off(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The referee signs the finished sheet off, as the players sign the paper one."""
    table = access.get_table_for_referee(request, table_id)
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
    entrant = access.get_entrant(request, table_id, code)
    table = entrant.table
    game = table.game
    form = RoundForm(GameSheet.load(game), request.POST, auto_id="r_%s")
    if form.is_valid():
        number = form.cleaned_data["number"]
        try:
            game.record_round(
                form.entries,
                by=entrant.by,
                number=number,
                client_id=form.cleaned_data["client_id"],
            )
        except AlreadyApplied:
            pass
        except RoundConflict as conflict:
            # Never stored as another round: the referee chooses between the two versions.
            response = _render_live(
                request, table, conflict=_conflict(request, table, conflict, code), code=code
            )
            response.status_code = 200 if request.htmx else 409
            return response
        except GameError as error:
            form.add_game_error(error)
        else:
            if request.htmx:
                return _render_saved(request, table, number, code)
            return _back(table, code)
    return _render_live(request, table, form=form, status=200 if request.htmx else 400, code=code)


def _back(table: Table, code: str | None) -> HttpResponse:
    """A plain post's answer: back to the table page it came from."""
    if code is not None:
        return redirect("codes:detail", code)
    return redirect(table)


def _render_saved(
    request: HtmxHttpRequest, table: Table, number: int, code: str | None = None
) -> HttpResponse:
    """The fresh sheet after a saved round; if the database drops right after the commit,
    say the round is saved (never "not saved") and fetch the sheet again until it answers."""
    try:
        return _render_live(request, table, code=code)
    except DatabaseError:
        return render(
            request,
            "tournaments/_saved.html",
            {"table": table, "number": number, **_address(table, code)},
        )


def _address(table: Table, code: str | None) -> dict[str, Any]:
    return {"ns": "codes" if code is not None else "tables", "key": code or table.pk}


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
            try:
                game.correct_round(
                    number,
                    form.entries,
                    by=entrant.by,
                    reason=form.cleaned_data["reason"],
                    version=form.cleaned_data["version"],
                    client_id=form.cleaned_data["client_id"],
                    dispute=dispute,
                )
            except AlreadyApplied:
                return _back(table, code)
            except GameError as error:
                form.add_game_error(error)
            except SheetChanged as error:
                form.add_error(None, sentence(error))
            else:
                current = urlsplit(request.htmx.current_url_abs_path or "").path
                if request.htmx and current == request.path:
                    # The correction page on its own (a director's queue links to it): back
                    # to the table page.
                    address = _address(table, code)
                    url = reverse(f"{address['ns']}:detail", args=[address["key"]])
                    return HttpResponseClientRedirect(url)
                if request.htmx:
                    # The form swaps itself on errors; a saved correction swaps the sheet.
                    message = gettext("Round %(number)s corrected.") % {"number": number}
                    response = _render_live(request, table, message=message, code=code)
                    return reswap(retarget(response, "#live"), "outerHTML")
                return _back(table, code)
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
            **_address(table, code),
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
        code,
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


def _reasoned_change(
    request: HtmxHttpRequest,
    entrant: Entrant,
    change: Any,
    done: str,
    code: str | None = None,
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
                return _back(table, code)
            message = done
    else:
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
    if request.htmx:
        return _render_live(request, table, message=message, code=code)
    return _render_live(request, table, message=message, status=400, code=code)


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
                response = _back(table, code)
                if new_device:
                    access.remember_device(response, device, request)
                return response
            message = (
                gettext("Everyone needed agreed: the sheet is signed off.")
                if signed
                else gettext("%(name)s agrees.") % {"name": seat.player.name}
            )
            response = _render_live(request, table, message=message, code=code)
            if new_device:
                access.remember_device(response, device, request)
            return response
    return _render_live(request, table, message=message, code=code)


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
            return _back(table, code)
        message = gettext("Sent to the director. The answer appears below.")
    else:
        message = " ".join(str(error) for errors in form.errors.values() for error in errors)
    return _render_live(request, table, message=message, code=code)


# --- the conflict of two versions of a round --------------------------------------


def _conflict(
    request: HtmxHttpRequest,
    table: Table,
    conflict: RoundConflict,
    code: str | None,
    device: bool = False,
) -> dict[str, Any]:
    """The stored round and the referee's own, side by side, with what it takes to replace.

    `device`: the phone's outbox asks (tables:sync), which may also record its round after
    the stored ones."""
    existing = conflict.existing
    if code is None and existing.entered_by_id == request.user.pk:
        who = gettext("another phone of yours")
    elif code is None and access.can_see_names(request.user, table) and existing.entered_by:
        who = existing.entered_by.get_username()
    else:
        who = gettext("another device")
    ruleset = table.game.ruleset
    return {
        "kind": "record",
        "number": existing.number,
        "stored": describe_entries(round_to_record(conflict.entries, ruleset)),
        "mine": describe_entries(round_to_record(conflict.attempt, ruleset)),
        "who": who,
        # Replacing the stored round is a correction with the referee's entries.
        "fields": [
            (name, value)
            for name, values in request.POST.lists()
            if name not in ("csrfmiddlewaretoken", "number", "client_id", "reason", "version")
            for value in values
        ],
        "version": table.game.version,
        "device": device,
        "next": table.game.round_count + 1,
    }


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
    table = entrant.table
    game = table.game
    change = SyncForm(request.POST)
    if not change.is_valid():
        return _refused(change.errors.as_text())
    action, client_id = change.cleaned_data["action"], change.cleaned_data["client_id"]
    # The version of the sheet the device made the change on (older pages send none for a
    # round): a device whose copy is not that version plus its change gets the stored game,
    # and so does one meeting a conflict or a stale change.
    base = change.cleaned_data["version"]

    def answer(status: str, http_status: int = 200, **extra: Any) -> JsonResponse:
        behind = base is not None and game.version != base + (status == "stored")
        if behind or status in ("conflict", "stale"):
            extra["state"] = _device_state(GameSheet.load(game))
        body = {"status": status, "version": game.version, **extra}
        return JsonResponse(body, status=http_status)

    try:
        if action == "undo":
            reasoned = ReasonForm(request.POST)
            if not reasoned.is_valid():
                return _refused(_errors(reasoned))
            game.undo_last_round(
                by=entrant.by,
                reason=reasoned.cleaned_data["reason"],
                version=reasoned.cleaned_data["version"],
                client_id=client_id,
            )
        elif action == "correct":
            correction = CorrectionForm(GameSheet.load(game), request.POST)
            if not correction.is_valid():
                return _refused(_errors(correction))
            game.correct_round(
                correction.cleaned_data["number"],
                correction.entries,
                by=entrant.by,
                reason=correction.cleaned_data["reason"],
                version=correction.cleaned_data["version"],
                client_id=client_id,
            )
        else:
            before = game.version
            try:
                typed_ago = change.cleaned_data["typed_ago_ms"]
                game.record_parsed(
                    lambda locked, seats: _parsed(EntrySheet.of(locked, seats), request, base),
                    by=entrant.by,
                    client_id=client_id,
                    typed_ago=None if typed_ago is None else timedelta(milliseconds=typed_ago),
                )
            except FormRefused as refused:
                return _refused(_errors(refused.form))
            except RoundConflict as conflict:
                context = {
                    "table": table,
                    "conflict": _conflict(request, table, conflict, code, device=True),
                    **_address(table, code),
                }
                html = render_to_string("tournaments/table.html#conflict", context, request)
                game.refresh_from_db(fields=["version"])
                return answer("conflict", 409, html=html)
            if game.version == before:
                # The same round was stored already (another device typed it too).
                return answer("same")
    except AlreadyApplied:
        game.refresh_from_db(fields=["version"])
        return answer("replayed")
    except SheetChanged:
        game.refresh_from_db(fields=["version"])
        return answer("stale", 409, message=sentence(SheetChanged()))
    except GameError as error:
        return _refused(sentence(error))
    return answer("stored")


def _int_or_none(text: str) -> int | None:
    """A number off the address (a version); anything else is None."""
    return int(text) if text.isascii() and text.isdigit() else None


class FormRefused(Exception):
    """The entries of a change are not a round: nothing is written."""

    def __init__(self, form: forms.Form) -> None:
        super().__init__("the form is not valid")
        self.form = form


def _parsed(
    sheet: EntrySheet, request: HtmxHttpRequest, base: int | None = None
) -> tuple[rules.Round, int]:
    """A round's entries and number off the posted form, checked against the locked seats.

    `base`: the version the device typed the round on. A device that knew the stored sheet
    as it is now and still numbers its round among the stored ones is behind on its own
    rounds, not meeting another device's: never "already stored", a choice to show."""
    form = RoundForm(sheet, request.POST)
    if not form.is_valid():
        raise FormRefused(form)
    entries, number = form.entries, form.cleaned_data["number"]
    game = sheet.game
    client_id = form.cleaned_data["client_id"]
    if (
        base is not None
        and game.version <= base
        and number <= game.round_count
        and not GameChange.objects.filter(client_id=client_id).exists()
    ):
        rows = game.rows()
        existing = rows.rounds[number - 1]
        raise RoundConflict(existing, rows.entries(existing), entries)
    return entries, number


def _errors(form: forms.Form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def _refused(message: str) -> JsonResponse:
    """Nothing stored: the entries cannot be a round (e.g. the game ended meanwhile)."""
    return JsonResponse({"status": "refused", "message": message}, status=400)
