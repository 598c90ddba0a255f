"""What anyone can follow without an account: tournaments, live tables, standings, players."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from scoring import rules
from scoring.models import Hand, hand_mark
from tournaments import texts
from tournaments.models import Player, Seat, Session, Table, Tournament


def poll_seconds() -> int:
    """How often the live parts of a page ask whether something changed (tests shorten it)."""
    return getattr(settings, "LIVE_POLL_SECONDS", 15)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(is_public=True).exclude(status=Tournament.Status.DRAFT)
    return render(
        request,
        "tournaments/home.html",
        {
            "running": tournaments.filter(status=Tournament.Status.RUNNING),
            "recent": tournaments.filter(status=Tournament.Status.FINISHED)[:10],
        },
    )


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    ruleset = rules.BELGIAN
    return render(request, "tournaments/rules.html", _rules_context(ruleset))


@require_GET
def tournament_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules a tournament's games are scored by, in words, from its rule set."""
    tournament = _get_tournament_for_viewer(request, slug)
    context = _rules_context(tournament.ruleset)
    context.update(tournament=tournament, ruleset_name=tournament.get_preset_display())
    return render(request, "tournaments/rules.html", context)


def _rules_context(ruleset: rules.Ruleset) -> dict:
    totals = ruleset.reduction_totals
    return {
        "ruleset": ruleset,
        "ruleset_name": texts.ruleset_name(ruleset.name),
        # "100 → 50, 200 → 100" when the reductions are not one amount.
        "reduction_steps": ", ".join(
            f"{total} → {becomes}" for total, becomes in ruleset.reduction_steps
        ),
        # The example of one reduction a round (100 → 50, not on to 0) needs both totals.
        "chained_example": 50 in totals and 100 in totals,
    }


def can_view(user, tournament: Tournament) -> bool:
    """Public tournaments for anyone; a private one for its directors and referees only."""
    if tournament.is_public:
        return True
    if not user.is_authenticated:
        return False
    return (
        tournament.is_director(user)
        or Table.objects.filter(session__tournament=tournament, referee=user).exists()
    )


def _get_tournament_for_viewer(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, or 404 for anyone who may not see it (names stay hidden)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def _unchanged(request: HttpRequest, version: str) -> bool:
    """A poll that already shows this version: answer 204, htmx swaps nothing."""
    return bool(request.htmx) and request.GET.get("since") == version


def _render_live(request, template: str, partial: str, context: dict) -> HttpResponse:
    if request.htmx:
        template = f"{template}#{partial}"
    return render(request, template, {**context, "poll_seconds": poll_seconds()})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    version = tournament.live_version()
    if _unchanged(request, version):
        return HttpResponse(status=204)
    sessions = list(tournament.sessions.annotate(table_count=Count("tables")))
    current = next(
        (s for s in reversed(sessions) if s.status == Session.Status.RUNNING),
        next((s for s in reversed(sessions) if s.status != Session.Status.PLANNED), None),
    )
    tables = []
    if current is not None:
        tables = (
            current.tables.select_related("game")
            .prefetch_related("seats__player")
            .annotate(round_count=Count("game__rounds"))
        )
    return _render_live(
        request,
        "tournaments/tournament.html",
        "live",
        {
            "tournament": tournament,
            "sessions": sessions,
            "current": current,
            "tables": tables,
            "version": version,
        },
    )


@require_GET
def standings_page(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    session = None
    if number is not None:
        session = get_object_or_404(tournament.sessions, number=number)
    version = tournament.live_version(finished_games_only=True)
    if _unchanged(request, version):
        return HttpResponse(status=204)
    return _render_live(
        request,
        "tournaments/standings.html",
        "live",
        {
            "tournament": tournament,
            "session": session,
            "sessions": tournament.sessions.exclude(status=Session.Status.PLANNED),
            "rows": tournament.standings(session),
            "scheme": texts.scheme(),
            "order": texts.tie_break_order(),
            "version": version,
        },
    )


@require_GET
def player_search(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    query = request.GET.get("q", "").strip()
    players = Player.objects.filter(
        Q(registrations__tournament=tournament) | Q(seats__table__session__tournament=tournament)
    ).distinct()
    if query:
        players = players.filter(name__icontains=query)
    template = "tournaments/players.html"
    if request.htmx:
        template += "#results"
    return render(
        request,
        template,
        {"tournament": tournament, "players": players.select_related("club")[:200], "q": query},
    )


@require_GET
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament = _get_tournament_for_viewer(request, slug)
    seats = list(
        Seat.objects.filter(player_id=player_id, table__session__tournament=tournament)
        .select_related("player__club", "table__session", "table__game")
        .order_by("table__session__number")
    )
    if not seats:
        player = get_object_or_404(
            Player.objects.filter(registrations__tournament=tournament), pk=player_id
        )
    else:
        player = seats[0].player
    hands = Hand.objects.filter(seat__in=seats).select_related("round").order_by("round__number")
    rounds_by_seat: dict[int, list[dict]] = {seat.pk: [] for seat in seats}
    for hand in hands:
        rounds_by_seat[hand.seat_id].append(
            {
                "number": hand.round.number,
                "hand": hand,
                "mark": hand_mark(hand.round, hand),
                "arrived": hand.total + hand.reduction,
            }
        )
    games = [{"seat": seat, "rounds": rounds_by_seat[seat.pk]} for seat in seats]
    overall = {standing.player: standing for standing, _ in tournament.standings()}
    return render(
        request,
        "tournaments/player.html",
        {
            "tournament": tournament,
            "player": player,
            "games": games,
            "standing": overall.get(player.pk),
        },
    )
