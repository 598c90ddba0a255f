"""The director's sessions: draw the seating, adjust it, assign referees or hand out table
codes, start, print.

A risky step asks first (`_ask`): drawing a session beyond the tournament's plan, starting
one while an earlier session still plays. The question page posts the same fields again with
`confirmed`, so the choices made on the page (the referees) survive the question.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoring import seating
from scoring.errors import SeatingError
from tournaments import texts
from tournaments.access import get_session_for_director, get_tournament_for_director
from tournaments.clock import Phase
from tournaments.errors import Refused, sentence
from tournaments.forms_clock import ClockForm, EndGamesForm, StartClockForm
from tournaments.forms_people import GoAheadForm, SessionEntryForm
from tournaments.forms_sessions import (
    AdjustForm,
    DrawForm,
    RebalanceForm,
    RefereesForm,
    SessionStatusForm,
)
from tournaments.models import GameChange, Session, Table, TableCode, Tournament
from tournaments.models.sessions import BeyondPlan, GamesInPlay, UnfinishedGames
from tournaments.qr import qr_svg
from tournaments.views.live import HtmxHttpRequest
from tournaments.views.refusals import answers_refusals


def _referees(session: Session) -> Any:
    """The accounts the referee picker offers: the tournament's referees, and whoever
    referees a table of this session already (a choice is never dropped unseen). No other
    account of the site is listed."""
    return (
        get_user_model()
        .objects.filter(
            Q(refereed_tournaments=session.tournament_id, is_active=True)
            | Q(refereed_tables__session=session)
        )
        .distinct()
        .order_by("username")
    )


def _code_link(request: HttpRequest, code: TableCode, size: int = 110) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("codes:detail", args=[code.code]))
    return {"url": url, "qr": mark_safe(qr_svg(url, size))}  # noqa: S308 - reportlab's SVG


def _with_codes(request: HttpRequest, session: Session, tables: list[Table], size: int = 110):
    """Each table's code link and QR code (`table.code_link`) while the session takes codes;
    a table without a code gets one (tables drawn again are new tables)."""
    codes = session.ensure_codes()
    for table in tables:
        code = codes.get(table.pk)
        table.code_link = _code_link(request, code, size) if code else None  # type: ignore[attr-defined]


def _rebalance(session: Session, tables: list[Table]) -> dict[str, Any] | None:
    """The seating's suggestion for a drawn session whose players came or went, in the
    page's words: each step with the player's name and the tables' numbers (one query for
    the players who are not seated here)."""
    try:
        rebalanced = session.rebalance()
    except SeatingError as error:
        # Too few players present to seat anyone: say so, the director seats by hand.
        return {"impossible": sentence(error)}
    if rebalanced is None:
        return None
    seated = {seat.player_id: seat.player for table in tables for seat in table.seats.all()}
    registrations = {
        registration.player_id: registration
        for registration in session.tournament.registrations.filter(
            player_id__in={step.player for step in rebalanced.moves}
        ).select_related("player")
    }

    def name(player: int) -> str:
        if player in seated:
            return seated[player].name
        return registrations[player].player.name if player in registrations else str(player)

    steps = [
        {
            "name": name(step.player),
            "leaves": step.leaves,
            "arrives": step.arrives,
            "withdrawn": step.player in registrations and registrations[step.player].withdrawn,
            "from": None if step.from_table is None else step.from_table + 1,
            "to": None if step.to_table is None else step.to_table + 1,
            "repeats": step.repeats,
        }
        for step in rebalanced.moves
    ]
    return {
        "steps": steps,
        "moved": rebalanced.moved,
        "key": Session.rebalance_key(rebalanced),
        "closed": [index + 1 for index in rebalanced.closed_tables],
        "opened": [index + 1 for index in rebalanced.opened_tables],
    }


def _clubmates(tables: list[Table]) -> int:
    """The draw's report of clubmates (players of one club at a table): each table's clubs
    with more than one player there, as `table.clubmates` ([(club, players)], by name), and
    the pairs of clubmates in all. The seats come with their players' clubs."""
    clubs = {seat.player_id: seat.player.club for table in tables for seat in table.seats.all()}
    seated = [[seat.player_id for seat in table.seats.all()] for table in tables]
    for table, players in zip(tables, seated, strict=True):
        together = seating.clubmates_at(players, clubs)
        table.clubmates = sorted(  # type: ignore[attr-defined]
            together.items(), key=lambda item: item[0].name.casefold()
        )
    return seating.count_clubmates(seated, clubs)


def _render_session(
    request: HttpRequest,
    session: Session,
    message: str = "",
    status: int = 200,
    *,
    partials: tuple[str, ...] = (),
    rebalance_message: str = "",
    clock_message: str = "",
    end_question: dict[str, Any] | None = None,
    finish_question: dict[str, str] | None = None,
) -> HttpResponse:
    tables = list(
        session.tables.select_related("referee", "game")
        .prefetch_related("seats__player__club")
        .order_by("number")
    )
    _with_codes(request, session, tables)
    players = sorted(
        (seat.player for table in tables for seat in table.seats.all()), key=lambda p: p.name
    )
    planned = session.status == Session.Status.PLANNED
    unfinished = session.unfinished_earlier_tables() if planned else []
    playing = _playing_tables(session)
    context = {
        "tournament": session.tournament,
        "session": session,
        "tables": tables,
        "players": players,
        "referees": _referees(session),
        "message": message,
        "methods": Session.Seating.drawn(),
        "clubmates": _clubmates(tables),
        "entry_form": SessionEntryForm(initial={"entry": session.entry}),
        "unfinished": texts.sentence(str(UnfinishedGames(unfinished))) if unfinished else "",
        "rebalance": _rebalance(session, tables),
        "rebalance_message": rebalance_message,
        # The session clock: its log, the tables still playing (to end every game at once).
        "clock_events": _clock_history(session),
        "playing_tables": playing,
        "playing_numbers": [line.number for line in playing],
        # Before the finish: the sheets still to sign off, and whether it ends the tournament.
        "unsigned_numbers": [table.number for table in tables if table.game.provisional],
        "finishes_tournament": (
            session.status == Session.Status.RUNNING and session.finishes_tournament()
        ),
        "clock_message": clock_message,
        "end_question": end_question,
        "finish_question": finish_question,
        "last_changes": _last_changes(tables) if session.status == Session.Status.RUNNING else [],
    }
    if partials:
        # An htmx answer: the first part swaps the target, the others come out of band.
        return HttpResponse(
            "".join(
                render_to_string(
                    f"tournaments/sessions/session.html#{name}",
                    {**context, "oob": index > 0},
                    request,
                )
                for index, name in enumerate(partials)
            ),
            status=status,
        )
    return render(request, "tournaments/sessions/session.html", context, status=status)


def _clock_history(session: Session) -> list[Any]:
    """The clock's last 50 changes, newest first; a resume carries `paused_seconds`, the
    pause's length read from the pause before it (a short pause says its seconds, not
    "0 min"), None when that pause is older than the list."""
    events: list[Any] = list(session.clock_events.select_related("by", "table")[:50])
    paused_at = None
    for event in reversed(events):
        event.paused_seconds = None
        if event.action == "pause":
            paused_at = event.at
        elif event.action == "resume" and paused_at is not None:
            event.paused_seconds = max(0, round((event.at - paused_at).total_seconds()))
            paused_at = None
    return events


def _refused(request: HttpRequest, message: str, slug: str, number: int, **_: Any) -> HttpResponse:
    """A refused change of the session: its page says why (status 400)."""
    session = get_session_for_director(request, slug, number)
    return _render_session(request, session, message, status=400)


def _ask(
    request: HttpRequest,
    tournament: Tournament,
    question: str,
    confirm: str,
    back: str,
) -> HttpResponse:
    """Ask before a risky step: the same post again with `confirmed`, or back."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "confirmed")
        for value in values
    ]
    return render(
        request,
        "tournaments/director/confirm.html",
        {
            "tournament": tournament,
            "question": question,
            "confirm": confirm,
            "action": request.path,
            "fields": fields,
            "back": back,
        },
    )


def _go_ahead(request: HttpRequest) -> dict[str, bool]:
    form = GoAheadForm(request.POST)
    form.is_valid()  # two check boxes: anything else is "no"
    return {name: bool(form.cleaned_data.get(name)) for name in ("confirmed", "with_referees")}


@login_required
@require_safe
def session_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _render_session(request, get_session_for_director(request, slug, number))


@login_required
@require_POST
@answers_refusals(back="manage:tournament")
def session_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the next session and draw its seating from the checked-in players; a session
    beyond the tournament's plan is drawn once the director confirms it."""
    tournament = get_tournament_for_director(request, slug)
    form = DrawForm(request.POST)
    form.is_valid()  # every field has a default: a bad method or seed gets the default
    try:
        session = tournament.open_session(
            form.cleaned_data.get("method", Session.Seating.RANDOM),
            form.cleaned_data["seed"],
            beyond_plan=_go_ahead(request)["confirmed"],
        )
    except BeyondPlan as question:
        return _ask(
            request,
            tournament,
            texts.sentence(str(question)),
            gettext("Draw session %(number)s anyway") % {"number": question.number},
            reverse("manage:tournament", args=[slug]),
        )
    return redirect("manage:session", slug, session.number)


@login_required
@require_POST
@answers_refusals(back="manage:tournament")
def final_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the final once the qualifying sessions are over: the top of the standings, seated
    by standings."""
    tournament = get_tournament_for_director(request, slug)
    session = tournament.open_final()
    return redirect("manage:session", slug, session.number)


@login_required
@require_POST
@answers_refusals(_refused)
def session_redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    session = get_session_for_director(request, slug, number)
    form = DrawForm(request.POST)
    form.is_valid()
    session.draw(
        form.cleaned_data.get("method", Session.Seating.RANDOM), form.cleaned_data["seed"]
    )
    return redirect("manage:session", slug, number)


@login_required
@require_POST
@answers_refusals(_refused)
def session_adjust(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A manual swap of two players, or a move of one player to another table."""
    session = get_session_for_director(request, slug, number)
    form = AdjustForm(request.POST)
    if not form.is_valid():
        return _render_session(request, session, form.message(), status=400)
    player = form.cleaned_data["player"]
    if form.cleaned_data["action"] == "swap":
        session.swap_players(player, form.cleaned_data["other"])
    else:
        session.move_player(player, form.cleaned_data["table"])
    return redirect("manage:session", slug, number)


def _rebalance_answer(
    request: HtmxHttpRequest, message: str, slug: str, number: int, **_: Any
) -> HttpResponse:
    """What a rebalance that did not happen says: htmx gets the seating's sections (the
    message in them), a plain post the page with status 400."""
    session = get_session_for_director(request, slug, number)
    if request.htmx:
        return _render_rebalanced(request, session, message)
    return _render_session(request, session, message, status=400)


def _render_rebalanced(request: HtmxHttpRequest, session: Session, message: str) -> HttpResponse:
    return _render_session(
        request,
        session,
        partials=("seating", "size", "facts", "adjust"),
        rebalance_message=message,
    )


@login_required
@require_POST
@answers_refusals(_rebalance_answer)
def session_rebalance(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """Apply the seating's suggestion for the players who came or went (the one the page
    showed, by its key); htmx gets the seating, the counts and the hand adjustments back."""
    session = get_session_for_director(request, slug, number)
    form = RebalanceForm(request.POST)
    if not form.is_valid():
        missing = gettext("The suggestion is missing: reload the page.")
        return _rebalance_answer(request, missing, slug, number)
    session.apply_rebalance(form.cleaned_data["key"], by=request.user)
    done = gettext("Done: the seating follows the players present.")
    if request.htmx:
        return _render_rebalanced(request, session, done)
    messages.success(request, done)
    return redirect("manage:session", slug, number)


@login_required
@require_POST
def session_referees(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    session = get_session_for_director(request, slug, number)
    form = RefereesForm(session, _referees(session), request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        return _render_session(request, session, str(first), 400)
    session.assign_referees(form.referees())
    return redirect("manage:session", slug, number)


@login_required
@require_POST
@answers_refusals(_refused)
def session_status(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Start the session (with the referees chosen on the page, when the post carries them)
    or finish it. Starting while an earlier session still plays asks first, naming the
    tables; so does finishing while its own tables still play (`_finish`)."""
    session = get_session_for_director(request, slug, number)
    form = SessionStatusForm(request.POST)
    form.is_valid()
    go = _go_ahead(request)
    if form.cleaned_data.get("action") == "finish":
        return _finish(request, session, confirmed=go["confirmed"])
    referees = None
    if go["with_referees"]:
        picked = RefereesForm(session, _referees(session), request.POST)
        if not picked.is_valid():
            first = next(iter(picked.errors.values()))[0]
            return _render_session(request, session, str(first), 400)
        referees = picked.referees()
    try:
        session.start(
            referees,
            confirmed=go["confirmed"],
            start_clock=StartClockForm(request.POST).wanted(),
            by=request.user,
        )
    except UnfinishedGames as question:
        return _ask(
            request,
            session.tournament,
            texts.sentence(str(question)),
            gettext("Start session %(number)s anyway") % {"number": session.number},
            reverse("manage:session", args=[slug, number]),
        )
    return redirect("manage:session", slug, number)


def _last_changes(tables: list[Table]) -> list[dict[str, Any]]:
    """When each table's last change reached the site (None: nothing yet): finishing the
    session says so, for a phone offline may still hold rounds (issue 32)."""
    last = dict(
        GameChange.objects.filter(game__table__in=tables)
        .values("game__table")
        .annotate(last=Max("at"))
        .values_list("game__table", "last")
    )
    return [{"number": table.number, "at": last.get(table.pk)} for table in tables]


def _finish(request: HttpRequest, session: Session, *, confirmed: bool) -> HttpResponse:
    """Finish the session; while tables still play, ask first, naming them: the director
    ends their games at the time limit with the session (their players stay in the
    standings) or cancels and the tables play on."""
    page = reverse("manage:session", args=[session.tournament.slug, session.number])
    try:
        session.finish(end_games=confirmed, by=request.user)
    except GamesInPlay as playing:
        count = len(playing.tables)
        tables = ", ".join(str(table.number) for table in playing.tables)
        question = {
            "question": ngettext(
                "Table %(tables)s still plays. Finishing session %(number)s ends its game at "
                "the time limit: its current totals become final, ranked by them, and its "
                "players count in the standings.",
                "Tables %(tables)s still play. Finishing session %(number)s ends their games "
                "at the time limit: their current totals become final, ranked by them, and "
                "their players count in the standings.",
                count,
            )
            % {"tables": tables, "number": session.number},
            "confirm": ngettext(
                "End %(count)s game and finish session %(number)s",
                "End %(count)s games and finish session %(number)s",
                count,
            )
            % {"count": count, "number": session.number},
        }
        if getattr(request, "htmx", False):
            return _render_session(
                request, session, partials=("finish",), finish_question=question
            )
        return _ask(request, session.tournament, question["question"], question["confirm"], page)
    if getattr(request, "htmx", False):
        # The whole page changes (status, clock, codes): the browser loads it afresh.
        return HttpResponseClientRedirect(page)
    return redirect(page)


@login_required
@require_POST
@answers_refusals(_refused)
def session_entry(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The session's own way of entering rounds (or the tournament's)."""
    session = get_session_for_director(request, slug, number)
    form = SessionEntryForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        return _render_session(request, session, str(first), 400)
    session.set_entry(form.cleaned_data["entry"])
    return redirect("manage:session", slug, number)


@login_required
@require_POST
@answers_refusals(_refused)
def reissue_code(
    request: HtmxHttpRequest, slug: str, number: int, table_number: int
) -> HttpResponse:
    """Revoke a table's code and issue a new one: the old link stops working at once."""
    session = get_session_for_director(request, slug, number)
    table = get_object_or_404(session.tables.all(), number=table_number)
    code = session.reissue_code(table)
    if request.htmx:
        table.code_link = _code_link(request, code)  # type: ignore[attr-defined]
        return render(
            request,
            "tournaments/sessions/session.html#code",
            {"tournament": session.tournament, "session": session, "table": table, "new": True},
        )
    messages.success(
        request,
        gettext("Table %(number)s has a new code: the old link no longer works.")
        % {"number": table.number},
    )
    return redirect(reverse("manage:session", args=[slug, number]) + f"#table-{table.number}")


@login_required
@require_safe
def table_list(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Print-ready: every player's table and seat, alphabetically, with the site's QR code;
    while the session takes table codes, each table's code link and QR code."""
    session = get_session_for_director(request, slug, number)
    tables = list(session.tables.prefetch_related("seats__player__club").order_by("number"))
    _with_codes(request, session, tables, size=150)
    seats = [(seat.player, table, seat.position) for table in tables for seat in table.seats.all()]
    seats.sort(key=lambda row: row[0].name.casefold())
    url = request.build_absolute_uri(reverse("public:tournament", args=[slug]))
    return render(
        request,
        "tournaments/sessions/table_list.html",
        {
            "tournament": session.tournament,
            "session": session,
            "seats": seats,
            "tables": tables,
            "url": url,
            "qr": mark_safe(qr_svg(url)),  # noqa: S308 - reportlab's own SVG
            "codes": any(table.code_link for table in tables),  # type: ignore[attr-defined]
            "clubmates": _clubmates(tables),
        },
    )


# --- the session clock ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayingTable:
    """A table whose game goes on, with its own clock: `time_up` once its own time (the
    session's and what was added for it) is up, or without a time limit; else `left`, its
    minutes left (a started minute counts) and `shown`, that time as the clock shows it
    (the panel says "8:25 left" while the clock shows 8:25, not "9 minutes").
    """

    number: int
    time_up: bool
    left: int
    shown: str = ""


def _playing_tables(session: Session) -> list[PlayingTable]:
    """The tables whose game is not over (one query; none before the start)."""
    if session.status == Session.Status.PLANNED:
        return []
    now = timezone.now()
    lines = []
    for table in session.playing_tables():
        clock = session.clock(table, now)
        time_up = clock.phase is Phase.NONE or clock.over
        left = 0 if time_up else math.ceil((clock.remaining or 0) / 60)
        lines.append(PlayingTable(table.number, time_up, left, "" if time_up else clock.shown))
    return lines


def _clock_answer(
    request: HtmxHttpRequest,
    session: Session,
    message: str,
    *,
    failed: bool = False,
    end_question: dict[str, Any] | None = None,
) -> HttpResponse:
    """An htmx post gets the clock's section (the message in it); a plain one the session
    page: after a change, by a redirect (the message flashed), a refusal with status 400."""
    if request.htmx:
        # Before the start, the start button's clock box follows the limit (out of band).
        planned = session.status == Session.Status.PLANNED
        return _render_session(
            request,
            session,
            partials=("clock", "start_clock") if planned else ("clock",),
            clock_message=message,
            end_question=end_question,
        )
    if failed:
        return _render_session(request, session, clock_message=message, status=400)
    messages.success(request, message)
    page = reverse("manage:session", args=[session.tournament.slug, session.number])
    return redirect(page + "#clock")


def _clock_refused(
    request: HtmxHttpRequest, message: str, slug: str, number: int, **_: Any
) -> HttpResponse:
    """A clock change refused: said in the clock's section (htmx) or on the page (400)."""
    session = get_session_for_director(request, slug, number)
    return _clock_answer(request, session, message, failed=True)


@login_required
@require_POST
@answers_refusals(_clock_refused)
def session_clock(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """The session clock's time limit, start, pause, resume, or an extension for every table
    or one; each logged as the director's (Session's clock methods)."""
    session = get_session_for_director(request, slug, number)
    form = ClockForm(session, request.POST)
    if not form.is_valid():
        return _clock_answer(request, session, form.message(), failed=True)
    return _clock_answer(request, session, form.apply(by=request.user))


@login_required
@require_POST
@answers_refusals(_clock_refused)
def session_end_games(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """End the unfinished games of the tables chosen (the page proposes those whose own time
    is up) at the time limit, with a reason, once the director confirms: the question names
    the tables and warns for each one that still has time of its own; one transaction."""
    session = get_session_for_director(request, slug, number)
    playing = {line.number: line for line in _playing_tables(session)}
    if not playing:
        return _clock_answer(request, session, sentence(Refused("games_over")), failed=True)
    form = EndGamesForm(list(playing), request.POST)
    if not form.is_valid():
        errors = [str(error) for errors in form.errors.values() for error in errors]
        return _clock_answer(request, session, " ".join(errors), failed=True)
    reason = form.cleaned_data["reason"]
    chosen = sorted(form.cleaned_data["tables"])
    if not form.cleaned_data["confirmed"]:
        question = ngettext(
            "End the game of table %(tables)s at the time limit? Its current totals become final.",
            "End the games of tables %(tables)s at the time limit? Their current totals "
            "become final.",
            len(chosen),
        ) % {"tables": ", ".join(str(table) for table in chosen)}
        # A table given more time may still be playing on its own clock: say so, by name.
        warnings = [
            ngettext(
                "Table %(number)s still has %(minutes)s minute of its own time.",
                "Table %(number)s still has %(minutes)s minutes of its own time.",
                playing[table].left,
            )
            % {"number": table, "minutes": playing[table].left}
            for table in chosen
            if not playing[table].time_up
        ]
        confirm = ngettext("End %(count)s game", "End %(count)s games", len(chosen)) % {
            "count": len(chosen)
        }
        if request.htmx:
            return _clock_answer(
                request,
                session,
                "",
                end_question={
                    "question": question,
                    "warnings": warnings,
                    "confirm": confirm,
                    "reason": reason,
                    "tables": chosen,
                },
            )
        return _ask(
            request,
            session.tournament,
            " ".join([question, *warnings]),
            confirm,
            reverse("manage:session", args=[slug, number]) + "#clock",
        )
    ended = session.end_games(by=request.user, reason=reason, tables=chosen)
    done = ngettext(
        "%(count)s game ended at the time limit.",
        "%(count)s games ended at the time limit.",
        len(ended),
    ) % {"count": len(ended)}
    return _clock_answer(request, session, done)
