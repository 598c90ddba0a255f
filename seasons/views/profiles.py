"""A player's page across tournaments and a club's page: public data only (`seasons.profiles`).

A merged player's old address leads to the player they were merged into (301).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.views.decorators.http import require_safe

from seasons import profiles
from tournaments.models import Club, Player, PlayerMerge
from tournaments.views.live import HtmxHttpRequest

# The rating's part of the player page (the rating's own templates provide it).
RATING_TEMPLATE = "seasons/_rating.html"


def has_rating_partial() -> bool:
    try:
        get_template(RATING_TEMPLATE)
    except TemplateDoesNotExist:
        return False
    return True


@require_safe
def player_profile(request: HtmxHttpRequest, player_id: int) -> HttpResponse:
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        into = (
            PlayerMerge.objects.filter(merged_id=player_id, into__isnull=False)
            .order_by("-at", "-pk")
            .values_list("into_id", flat=True)
            .first()
        )
        if into is None:
            raise Http404("No such player.")
        return redirect("public:profile", into, permanent=True)
    profile = profiles.player_profile(player)
    if profile is None:
        raise Http404("No such player.")
    return render(
        request,
        "seasons/profiles/player.html",
        {"profile": profile, "player": player, "rating": has_rating_partial()},
    )


@require_safe
def club_detail(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    page = profiles.club_page(club)
    if page.empty:
        raise Http404("No such club.")
    return render(
        request,
        "seasons/profiles/club.html",
        {"page": page, "club": club, "lines": profiles.SEASON_LINES_ON_CLUB_PAGE},
    )
