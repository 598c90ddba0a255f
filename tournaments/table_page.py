"""The table page's values, made of the one sheet its request loaded (views/tables.py draws
them with templates/tournaments/table.html): the sheet's rows and chart, the entry and
dispute forms, who agreed, the history and the device's copy of the game.

Long games' parts (rows, history, the round choice) are written as strings here rather
than by the template, which took a tag or two per line, a hundred times over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, NamedTuple

from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext

from scoring import rules
from scoring.records import round_to_record
from tournaments.access import Viewer
from tournaments.chart import progression_svg
from tournaments.forms import DisputeForm, RoundForm
from tournaments.models import Game, GameChange, Table
from tournaments.models.rounds import describe_entries
from tournaments.sheets import GameSheet
from tournaments.views.live import poll_seconds


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
    may see and do there, the sheet drawn, its forms, history and disputes."""
    game = table.game
    editable, is_director = viewer.editable, viewer.is_director
    if form is None and editable and not game.finished:
        form = RoundForm(sheet, initial={"number": len(sheet.rows) + 1}, auto_id="r_%s")
    changes = changes_of(game)
    correct_url = round_url(viewer.ns, "correct", viewer.key) if editable else None
    return {
        "table": table,
        "tournament": table.session.tournament,
        "game": game,
        "editable": editable,
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
        "sheet_rows": sheet.rows_html(correct_url),
        "chart": mark_safe(progression_svg(sheet.sheet)),  # noqa: S308 - our SVG, escaped there
        "decks": sheet.ruleset.decks(len(sheet.seats)),
        "ruleset": sheet.ruleset,
        # A refused form stays on screen with its entries, even after the end.
        "form": form if form is not None and (form.is_bound or not game.finished) else None,
        "confirmations": confirmations_of(sheet),
        "disputes": list(game.disputes.all()[:20]),
        # "Something's wrong?" is for the people at the table and the directors.
        "dispute_round": dispute_round(sheet) if editable or is_director else None,
        "dispute_form": DisputeForm(sheet) if editable or is_director else None,
        "history": history_html(changes, table, viewer.show_names),
        "history_count": len(changes),
        # The device's copy of the game and the words it needs offline (editable pages).
        "device_state": device_state(sheet) if editable else None,
        "withdrawn_seated": withdrawn_seated(sheet) if not game.finished else [],
    }


def withdrawn_seated(sheet: GameSheet) -> list[str]:
    """The players at this unfinished table who withdrew from the tournament: the table
    keeps playing them until the director decides, and the page says so."""
    return [seat.player.name for seat in sheet.seats if getattr(seat, "withdrawn", False)]


def round_url(ns: str, view: str, key: str | int) -> Callable[[int], str]:
    """A round's page of `view` by its number, the address reversed once for every round."""
    # Reversed with a stand-in number, cut where the number goes.
    head, _, tail = reverse(f"{ns}:{view}", args=[key, ROUND_STAND_IN]).rpartition(
        str(ROUND_STAND_IN)
    )
    return lambda number: f"{head}{number}{tail}"


ROUND_STAND_IN = 987654321


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


def device_state(sheet: GameSheet) -> dict[str, Any]:
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
