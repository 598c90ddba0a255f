"""A player's page across tournaments, their Yaniv statistics and a club's page: public data only
(`seasons.profiles`, `seasons.statistics`).

A merged player's old address leads to the player they were merged into (301).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from seasons import access, charts, profiles, statistics
from tournaments.models import Club, Player
from tournaments.views.live import HtmxHttpRequest, poll_seconds, site_version, unchanged

# The statistics page's table lists the latest tournaments (all count in the figures above it).
TOURNAMENTS_SHOWN = 50
# The rating's part of the player page (the rating's own templates provide it).
RATING_TEMPLATE = "seasons/_rating.html"


def has_rating_partial() -> bool:
    try:
        get_template(RATING_TEMPLATE)
    except TemplateDoesNotExist:
        return False
    return True


def _moved(player_id: int, page: str) -> HttpResponse:
    """A merged player's old address leads to the player kept (301); else 404."""
    into = access.moved_to(player_id)
    if into is None:
        raise Http404("No such player.")
    return redirect(page, into, permanent=True)


def _render_live(
    request: HtmxHttpRequest, template: str, version: str, context: dict[str, Any]
) -> HttpResponse:
    """These pages follow every tournament (`{% poll version %}`): a poll gets their live
    part."""
    if request.htmx:
        template += "#live"
    return render(
        request, template, {**context, "version": version, "poll_seconds": poll_seconds()}
    )


@require_safe
def player_profile(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    version = site_version()
    if unchanged(request, version):
        return HttpResponse(status=204)
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        return _moved(player_id, "public:profile")
    profile = profiles.player_profile(player)
    if profile is None:
        raise Http404("No such player.")
    return _render_live(
        request,
        "seasons/profiles/player.html",
        version,
        {"profile": profile, "player": player, "rating": has_rating_partial()},
    )


@require_safe
def player_statistics(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    """A player's Yaniv statistics across the listed tournaments and seasons, with charts."""
    version = site_version()
    if unchanged(request, version):
        return HttpResponse(status=204)
    player = access.get_listed_player(player_id)
    if player is None:
        return _moved(player_id, "public:profile_statistics")
    figures = statistics.player_statistics(player)
    bars = [(gettext("All tournaments"), figures.overall)] + [
        (line.tournament.name, line.stats) for line in figures.tournaments[: charts.MOST_BARS]
    ]
    return _render_live(
        request,
        "seasons/profiles/statistics.html",
        version,
        {
            "player": player,
            "figures": figures,
            "calls_chart": charts.calls_svg(bars if len(bars) > 2 else bars[:1]),
            "hands_chart": charts.hands_svg(figures.overall),
            "hand_bins": [
                (charts.bin_label(index), count)
                for index, count in enumerate(figures.overall.hand_bins)
            ],
            # The latest tournaments: a long career's earlier ones count in the figures.
            "tournaments": figures.tournaments[:TOURNAMENTS_SHOWN],
            "earlier": max(0, len(figures.tournaments) - TOURNAMENTS_SHOWN),
        },
    )


@require_safe
def club_detail(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    version = site_version()
    if unchanged(request, version):
        return HttpResponse(status=204)
    club = get_object_or_404(Club, pk=club_id)
    page = profiles.club_page(club)
    if page.empty:
        raise Http404("No such club.")
    return _render_live(
        request,
        "seasons/profiles/club.html",
        version,
        {"page": page, "club": club, "lines": profiles.SEASON_LINES_ON_CLUB_PAGE},
    )
