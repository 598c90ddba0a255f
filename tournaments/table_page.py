"""The table page's answers and values, drawn with templates/tournaments/table.html from
the one sheet its request loaded: the entry and dispute forms, who agreed and the history
(the template draws the sheet's rows, chart and the device's copy of the game from the
`GameSheet` itself); after a change (the views in views/tables.py), the page, its live part
for htmx, a round's conflict, or the way back.

Long games' parts (history, the round choice) are written as strings rather than by the
template, which took a tag or two per line, a hundred times over; the sheet's rows are the
template's (its `sheet-row` partial, also the script's stand-in row).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

from django.contrib import messages
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

from scoring.records import round_to_record
from tournaments.access import Entrant, Viewer
from tournaments.chart import chart_texts
from tournaments.forms import DisputeForm, RoundForm
from tournaments.models import (
    AlreadyStored,
    Game,
    GameChange,
    Round,
    RoundConflict,
    Seat,
    Table,
    TypedOn,
)
from tournaments.models.rounds import describe_entries
from tournaments.sheets import SPECIMEN_ROW, GameSheet, drawn_rows
from tournaments.views.live import HtmxHttpRequest, poll_seconds

TEMPLATE = "tournaments/table.html"


def answer(
    request: HtmxHttpRequest,
    table: Table,
    viewer: Viewer,
    *,
    sheet: GameSheet | None = None,
    form: RoundForm | None = None,
    message: str = "",
    conflict: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The table page after a change, or its live part for htmx, drawn from the request's
    one sheet (loaded here if the caller had none); never kept (a message, a conflict or a
    refused form is one reader's)."""
    context = page_values(
        table,
        sheet or GameSheet.load(table.game),
        viewer,
        form=form,
        message=message,
        conflict=conflict,
    )
    template = f"{TEMPLATE}#live" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


def saved(
    request: HtmxHttpRequest,
    entrant: Entrant,
    seats: Sequence[Seat] = (),
    *,
    number: int | None = None,
) -> HttpResponse:
    """A saved change's answer: back to the page for a plain post; for htmx the fresh sheet
    (of the seats the write locked, with their new totals, if it had them), or, if the
    database drops right after the commit, that the round is saved (never "not saved"), and
    the sheet fetched again until it answers.

    `number`: a round stored before, posted again (a double tap without the script: the
    browser shows the second post's answer, which must say "saved" too)."""
    table = entrant.table
    if not request.htmx:
        if seats or number:
            # A page without its script says so too, as the next page's message.
            said = number or table.game.round_count
            messages.success(request, gettext("Round %(number)s saved.") % {"number": said})
        return back(table, entrant.typed)
    try:
        sheet = GameSheet.of(table.game, seats) if seats else None
        return answer(request, table, entrant.viewer(), sheet=sheet)
    except DatabaseError:
        return render(
            request,
            "tournaments/_saved.html",
            {"table": table, "number": table.game.round_count, **address(table, entrant.typed)},
        )


def back(table: Table, code: str | None) -> HttpResponse:
    """A plain post's answer: back to the table page it came from."""
    if code is not None:
        return redirect("codes:detail", code)
    return redirect(table)


def address(table: Table, code: str | None) -> dict[str, Any]:
    """The table page's address as the templates reverse it: by table code or by account."""
    return {"ns": "codes" if code is not None else "tables", "key": code or table.pk}


def choice(
    refused: RoundConflict | AlreadyStored,
    entrant: Entrant,
    request: HttpRequest,
    since: TypedOn,
    *,
    device: bool = False,
) -> dict[str, Any]:
    """What the entrant chooses between for a round the sheet would not take as it is: the
    stored round beside theirs (`conflict_choice`, `already_choice`), for the page (HTML) and
    the phone's outbox (`device`, JSON) alike."""
    if isinstance(refused, AlreadyStored):
        return already_choice(refused, entrant, request, device=device)
    return conflict_choice(refused, entrant, request, device=device, since=since)


def conflict_choice(
    conflict: RoundConflict,
    entrant: Entrant,
    request: HttpRequest,
    *,
    device: bool = False,
    since: TypedOn | None = None,
) -> dict[str, Any]:
    """The stored round and the entrant's own, side by side, with what it takes to replace,
    and the rounds stored since the sheet the entrant typed on (`since`: what the post says
    it knew), which the phone's waiting rounds are compared with. The game as stored now
    (the change's outcome read its version and round count).

    `device`: the phone's outbox asks (tables:sync), which may also record its round after
    the stored ones."""
    existing, game = conflict.existing, entrant.table.game
    stored, mine = (
        round_to_record(entries, game.ruleset) for entries in (conflict.entries, conflict.attempt)
    )
    rounds_since = (
        []
        if since is None
        else [
            (each["number"], each["record"])
            for each in stored_since(game, since.known, since.mine)
        ]
    )
    return {
        "kind": "record",
        "number": existing.number,
        "stored": describe_entries(stored),
        "mine": describe_entries(mine),
        "who": _who(existing, entrant),
        "fields": _fields(request, "another"),
        "version": game.version,
        "device": device,
        "next": game.round_count + 1,
        # Beside the waiting rounds: what the sheet took since this phone last had it.
        "since": [(number, describe_entries(record)) for number, record in rounds_since],
        "since_records": [{"number": number, "record": record} for number, record in rounds_since],
    }


def stored_since(game: Game, known: int | None, mine: Sequence[UUID]) -> list[dict[str, Any]]:
    """The rounds other changes than the phone's own (`mine`) stored since version `known`,
    as the phone compares them with its waiting rounds: number and entries."""
    if known is None:
        return []
    return [
        {"number": each.number, "record": round_to_record(entries, game.ruleset)}
        for each, entries in game.rounds_stored_since(known, mine)
    ]


def already_choice(
    already: AlreadyStored, entrant: Entrant, request: HttpRequest, *, device: bool = False
) -> dict[str, Any]:
    """A round equal to one stored since the sheet it was typed on: that round, shown beside
    the entrant's, with the way to record it all the same ("this is another round")."""
    game = entrant.table.game
    mine = round_to_record(already.entries, game.ruleset)
    return {
        "kind": "already",
        "number": already.number,
        "typed": request.POST.get("number", ""),
        "stored": describe_entries(mine),
        "mine": describe_entries(mine),
        "who": _who(already.existing, entrant),
        "fields": _fields(request, "another", "known", "mine"),
        "device": device,
        "next": game.round_count + 1,
        "version": game.version,
    }


def _who(existing: Round, entrant: Entrant) -> str:
    """Who stored a round, as the entrant may read it."""
    user = entrant.user
    if user is not None and existing.entered_by_id == user.pk:
        return gettext("another phone of yours")
    if user is not None and existing.entered_by:
        # Who records by account runs the table: they see account names.
        return existing.entered_by.get_username()
    return gettext("another device")


def _fields(request: HttpRequest, *dropped: str) -> list[tuple[str, str]]:
    """The entrant's entries as posted, to post again (a replacement, another round)."""
    skipped = {"csrfmiddlewaretoken", "number", "client_id", "reason", "version", *dropped}
    return [
        (name, value)
        for name, values in request.POST.lists()
        if name not in skipped
        for value in values
    ]


def page_values(
    table: Table,
    sheet: GameSheet,
    viewer: Viewer,
    *,
    form: RoundForm | None = None,
    message: str = "",
    conflict: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The table page's values, made of the one sheet the request loaded: what the viewer
    may see and do there, its forms, history and disputes; the template draws the sheet
    itself (its rows, chart and the device's copy: `GameSheet`)."""
    game = table.game
    editable, is_director = viewer.editable, viewer.is_director
    # "Something's wrong?" is for the people at the table and the directors.
    asks = editable or is_director
    changes = changes_of(game)
    values = {
        "table": table,
        "tournament": table.session.tournament,
        "game": game,
        "editable": editable,
        "may_sign_off": viewer.may_sign_off,
        "is_director": is_director,
        "show_names": viewer.show_names,
        "ns": viewer.ns,
        "key": viewer.key,
        "code": viewer.code,
        "by_code": viewer.code is not None,
        "message": message,
        "conflict": conflict,
        "poll_seconds": poll_seconds(),
        # The session clock's state as the sheet's poll sends it back (`table_detail`).
        "clock_token": table.session.clock(table).token,
        "sheet": sheet,
        "sheet_row_specimen": drawn_rows([SPECIMEN_ROW])[0] if editable else None,
        "decks": sheet.ruleset.decks(len(sheet.seats)),
        "ruleset": sheet.ruleset,
        "confirmations": confirmations_of(sheet),
        "disputes": list(game.disputes.all()[:20]),
        "dispute_round": dispute_round(sheet) if asks else None,
        "withdrawn_seated": withdrawn_seated(sheet) if not game.finished else [],
        "history": history_html(changes, table, viewer.show_names),
        "history_count": len(changes),
        "dispute_form": DisputeForm(sheet) if asks else None,
        # The phone draws the chart past the stored rounds (saved or waiting on it).
        "chart_texts": (
            chart_texts(sheet.ruleset.end_above, sheet.ruleset.eliminates) if editable else None
        ),
    }
    if form is None and editable and not game.finished:
        form = RoundForm(sheet, initial={"number": len(sheet.rows) + 1}, auto_id="r_%s")
    # A refused form stays on screen with its entries, even after the end.
    values["form"] = form if form is not None and (form.is_bound or not game.finished) else None
    # A game the clock ended: a director may add the rounds a phone still held.
    values["late_form"] = (
        RoundForm(sheet, initial={"number": len(sheet.rows) + 1}, auto_id="late_%s")
        if is_director and game.ended_at_time_limit and not game.signed_off_at
        else None
    )
    return values


def withdrawn_seated(sheet: GameSheet) -> list[str]:
    """The players at this unfinished table who withdrew from the tournament: the table
    keeps playing them until the director decides, and the page says so."""
    return [seat.player.name for seat in sheet.seats if getattr(seat, "withdrawn", False)]


def dispute_round(sheet: GameSheet) -> SafeString:
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


def confirmations_of(sheet: GameSheet) -> dict[str, Any] | None:
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


class Change(NamedTuple):
    """A line of the page's history, read as plain values (no model instances)."""

    action: str
    round_number: int | None
    user_id: int | None
    username: str | None
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reason: str


def changes_of(game: Game) -> list[Change]:
    """The game's last fifty changes, newest first."""
    rows = game.changes.values_list(
        "action", "round_number", "user_id", "user__username", "at", "before", "after", "reason"
    )[:50]
    return [Change._make(row) for row in rows]


def history_html(changes: Iterable[Change], table: Table, show_names: bool) -> SafeString:
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
