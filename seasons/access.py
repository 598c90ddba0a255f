"""Who may see and organise a season: the tournaments' access rules (tournaments.access) carried
to seasons, whose organisers direct them (`Season.objects.visible_to` is `can_view_season`
for many)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from seasons.models import Season
from tournaments.access import can_create_tournament, can_direct
from tournaments.models import Player, PlayerMerge, Tournament


def can_view_season(user: Any, season: Season) -> bool:
    return season.is_public or season.is_director(user)


def can_create_season(user: Any) -> bool:
    """Who directs a tournament (or may create one) may organise a season."""
    return user.is_authenticated and (
        user.is_superuser
        or user.has_perm("seasons.add_season")
        or can_create_tournament(user)
        or Tournament.directors.through.objects.filter(user_id=user.pk).exists()
    )


def can_count_in_season(user: Any, tournament: Tournament) -> bool:
    """A season's organiser may count any public tournament (its results are public) and the
    private ones they direct (those count in a private season only)."""
    return tournament.is_public or can_direct(user, tournament)


def get_season_for_viewer(request: HttpRequest, slug: str) -> Season:
    """The season, or 404 for anyone who may not see it (a private season's name stays
    hidden)."""
    season = get_object_or_404(Season, slug=slug)
    if not can_view_season(request.user, season):
        raise Http404("No such season.")
    return season


def get_season_for_director(request: HttpRequest, slug: str) -> Season:
    """The season, or 404 for who may not see it and 403 for who may only follow it."""
    season = get_object_or_404(Season, slug=slug)
    if season.is_director(request.user):
        return season
    if not can_view_season(request.user, season):
        raise Http404("No such season.")
    raise PermissionDenied(gettext("Only an organiser of the season can do this."))


def get_listed_player(player_id: int) -> Player | None:
    """A player of a listed tournament (their pages across tournaments are anyone's), with
    their club; None for anyone else: a player known only from private tournaments or drafts
    stays unseen (`moved_to` says whether the id was merged into another player)."""
    return Player.objects.listed().select_related("club").filter(pk=player_id).first()


def moved_to(player_id: int) -> int | None:
    """The player a merged player's id now leads to (their pages answer 301 there), if any."""
    return (
        PlayerMerge.objects.filter(merged_id=player_id, into__isnull=False)
        .order_by("-at", "-pk")
        .values_list("into_id", flat=True)
        .first()
    )
