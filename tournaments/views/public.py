"""What anyone can follow without an account: tournaments, live tables, standings, players."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from scoring import rules
from tournaments import caching, statistics, texts
from tournaments.access import get_tournament_for_viewer
from tournaments.models import Player, Seat, Session, Table, Tournament
from tournaments.models.sessions import UnfinishedGames
from tournaments.models.substitutions import played_rounds
from tournaments.notes import standings_notes
from tournaments.rules_text import rules_context
from tournaments.sheets import GameSheet
from tournaments.views.live import HtmxHttpRequest, page_version, poll_seconds, unchanged


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The running and recent public tournaments; it follows them starting and finishing
    (its version: what it lists, read in one query)."""
    tournaments = Tournament.objects.listed()
    running = list(tournaments.filter(status=Tournament.Status.RUNNING))
    recent = list(tournaments.filter(status=Tournament.Status.FINISHED)[:10])
    shown = [(t.pk, t.status, t.name, t.starts_on, t.venue, t.slug) for t in running + recent]
    version = hashlib.sha256(repr(shown).encode()).hexdigest()[:16]
    if unchanged(request, version):
        return HttpResponse(status=204)
    return _render_live(
        request,
        "tournaments/home.html",
        "live",
        {"running": running, "recent": recent, "version": version},
    )


@require_safe
def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "tournaments/rules.html", rules_context(rules.BELGIAN))


@require_safe
def tournament_rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The rules a tournament's games are scored by, in words, from its rule set."""
    tournament = get_tournament_for_viewer(request, slug)
    context = rules_context(tournament.ruleset)
    context.update(tournament=tournament, ruleset_name=tournament.get_preset_display())
    return render(request, "tournaments/rules.html", context)


def _render_live(
    request: HtmxHttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    if request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, {**context, "poll_seconds": poll_seconds()})


@require_safe
def tournament_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_viewer(request, slug)
    version = page_version(tournament)
    if unchanged(request, version):
        return HttpResponse(status=204)

    def render_live() -> HttpResponse:
        sessions = list(tournament.sessions.annotate(table_count=Count("tables")))
        # Every running session's tables (one may still finish while the next one plays);
        # with none running, the last session played.
        shown = [s for s in sessions if s.status == Session.Status.RUNNING] or [
            s for s in sessions[::-1] if s.status != Session.Status.PLANNED
        ][:1]
        tables: dict[int, list[Table]] = {session.pk: [] for session in shown}
        for table in (
            Table.objects.filter(session__in=shown)
            .select_related("game")
            .prefetch_related("seats__player")
            .annotate(round_count=Count("game__rounds"))
            .order_by("session__number", "number")
        ):
            tables[table.session_id].append(table)
        return _render_live(
            request,
            "tournaments/tournament.html",
            "live",
            {
                "tournament": tournament,
                "sessions": sessions,
                "live_sessions": [(session, tables[session.pk]) for session in shown],
                "version": version,
                # The facts of the finished games (kept per version: computed once).
                "facts": statistics.lazy_facts_part(request, tournament),
            },
        )

    if request.htmx:
        # The phones a version behind get the live part as rendered for the first of them
        # (after the access check above: a private tournament's stays with its people).
        return caching.fragment(request, _live_parts(tournament, version), render_live)
    return render_live()


@require_safe
def standings_page(request: HtmxHttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    version = None
    # An htmx poll (the header read as it came: `request.htmx` would build every header).
    since = request.GET.get("since") if request.META.get("HTTP_HX_REQUEST") == "true" else None
    if since is not None:
        # A hall's phone polling a public tournament: the version alone, read by slug before
        # anything is loaded, answers the unchanged poll. A private tournament's (None) takes
        # the access check below.
        version = Tournament.public_standings_version(slug, number)
        if version == since:
            return HttpResponse(status=204)
    tournament = get_tournament_for_viewer(request, slug)
    session = None
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
    if version is None:
        version = tournament.live_version(finished_games_only=True)
        if unchanged(request, version):
            return HttpResponse(status=204)
    parts = (number, *_live_parts(tournament, version))

    def render_live() -> HttpResponse:
        return _render_live(
            request,
            "tournaments/standings.html",
            "live",
            {
                "tournament": tournament,
                "session": session,
                "sessions": tournament.sessions.exclude(status=Session.Status.PLANNED),
                "standings_table": _standings_table(request, tournament, session, parts),
                "scheme": texts.scheme(tournament.ranking),
                "order": texts.tie_break_order(tournament.ranking),
                "version": version,
            },
        )

    if request.htmx:
        return caching.fragment(request, parts, render_live)
    return render_live()


def _still_playing(tournament: Tournament, session: Session | None) -> str:
    """The tables whose game goes on, as a sentence: their players are not in the standings
    yet, and the page says so rather than leave them out silently (one query, once per
    standings version: a game finishing changes both)."""
    playing = Table.objects.filter(session__tournament=tournament, game__finished=False).exclude(
        session__status=Session.Status.PLANNED
    )
    if session is not None:
        playing = playing.filter(session=session)
    tables = list(playing.select_related("session").order_by("session__number", "number"))
    if not tables:
        return ""
    return texts.sentence(str(UnfinishedGames(tables)))


def _standings_table(
    request: HtmxHttpRequest, tournament: Tournament, session: Session | None, parts: tuple
) -> SafeString:
    """The standings' tables as kept for `parts` (caching.part): computed only when they are
    rendered, once per version, language and page (overall or a session's)."""
    rows = SimpleLazyObject(lambda: tournament.standings(session))
    final = SimpleLazyObject(
        lambda: None if session is not None else tournament.final_standings(rows)
    )
    return caching.part(
        request,
        "tournaments/_standings_table.html",
        parts,
        {
            "tournament": tournament,
            "rows": rows,
            # With a final, the overall standings put its players first.
            "final": final,
            # "Final standings" once the final is played, the standings so far before.
            "final_heading": SimpleLazyObject(lambda: texts.final_heading(final or [])),
            # The tables still playing, named: their players are not in the standings yet.
            "still_playing": SimpleLazyObject(lambda: _still_playing(tournament, session)),
            # Penalty and bonus points, substitutes: the marks and their reasons.
            "notes": SimpleLazyObject(lambda: standings_notes(tournament, session)),
        },
    )


def _live_parts(tournament: Tournament, version: str) -> tuple[object, ...]:
    """What a live part shows besides its path and language: the version, the tournament
    itself (whether it still polls: its status) and how often it polls."""
    return (version, caching.stamp(tournament), poll_seconds())


@require_safe
def player_search(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament_for_viewer(request, slug)
    # The list grows as players register (before the first draw too) and are seated.
    registered = tournament.registrations.aggregate(count=Count("pk"), last=Max("pk"))
    version = f"{page_version(tournament)}.{registered['count']}.{registered['last']}"
    if unchanged(request, version):
        return HttpResponse(status=204)
    query = request.GET.get("q", "").strip()
    players = Player.objects.filter(
        Q(registrations__tournament=tournament) | Q(seats__table__session__tournament=tournament)
    ).distinct()
    if query:
        players = players.filter(name__icontains=query)
    return _render_live(
        request,
        "tournaments/players.html",
        "results",
        {
            "tournament": tournament,
            "players": players.select_related("club")[:200],
            "q": query,
            "version": version,
        },
    )


@require_safe
def player_detail(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's games round by round, their place and notes; it follows the day like the
    tournament's page (its version)."""
    tournament = get_tournament_for_viewer(request, slug)
    version = page_version(tournament)
    if unchanged(request, version):
        return HttpResponse(status=204)
    # Their seats, and the seats they left to a substitute (the rounds they played there).
    played = Q(player_id=player_id)
    if tournament.has_substitutes:
        played |= Q(substitutions__player_out_id=player_id)
    seats = list(
        Seat.objects.filter(played, table__session__tournament=tournament)
        .distinct()
        .select_related("player__club", "table__session", "table__game")
        .order_by("table__session__number")
    )
    mine = [seat for seat in seats if seat.player_id == player_id]
    if mine:
        player = mine[0].player
    else:
        player = get_object_or_404(
            Player.objects.filter(
                Q(registrations__tournament=tournament) | Q(pk__in=[s.player_id for s in seats])
            ).distinct(),
            pk=player_id,
        )
    for seat in seats:
        # Every game is of this tournament: its rule set is asked once.
        seat.table.session.tournament = tournament
    sheets = GameSheet.load_many(seat.table.game for seat in seats)
    games = [
        {"seat": seat, "column": sheet.sheet.column(sheet.label(seat)), "sheet": sheet}
        for seat, sheet in zip(seats, sheets, strict=True)
    ]
    turns = played_rounds(seats) if tournament.has_substitutes else {}
    for game, seat in zip(games, seats, strict=True):
        game["turns"] = turns.get(seat.pk, [])
    overall = {standing.player: standing for standing, _ in tournament.standings()}
    return _render_live(
        request,
        "tournaments/player.html",
        "live",
        {
            "version": version,
            "tournament": tournament,
            "player": player,
            "games": games,
            "standing": overall.get(player.pk),
            # Penalty and bonus points, substitutes: what the standings mark beside them.
            "notes": standings_notes(tournament).get(player.pk, []),
        },
    )
