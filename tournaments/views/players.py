"""One player across tournaments: a director registers a known player found by name, club or
member number; an administrator merges two records of one person.

The search answers a GET (htmx swaps the results under the field; without a script the form
reloads the page); "Register" posts the player's id. Merging is an administrator's, and a
director's for players seen only in the tournaments they direct (anyone else is told who
can): pick the duplicate and the player to keep, read what follows, confirm.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event

from tournaments import access
from tournaments.errors import on_form
from tournaments.forms_people import (
    SEARCH_LIMIT,
    SEARCH_MIN_LENGTH,
    MergeForm,
    PlayerChoiceForm,
    PlayerSearchForm,
)
from tournaments.models import MergeRefused, Player, PlayerMerge, Registration, Tournament
from tournaments.views.live import HtmxHttpRequest

# Sent with a registration: the dashboard's counts fetch themselves again.
REGISTRATIONS_CHANGED = "registrations-changed"
SEARCH_TEMPLATE = "tournaments/director/_known_players.html"


# --- registering a known player ----------------------------------------------------------


def _search_context(
    request: HtmxHttpRequest, tournament: Tournament, form: PlayerSearchForm
) -> dict[str, object]:
    found = form.players(request.user)
    players = list(found) if found is not None else None
    registered: set[int] = set()
    if players:
        registered = set(
            tournament.registrations.filter(player__in=players).values_list("player_id", flat=True)
        )
    return {
        "tournament": tournament,
        "search_form": form,
        "found": players,
        "registered": registered,
        "limit": SEARCH_LIMIT,
        "min_length": SEARCH_MIN_LENGTH,
    }


@access.login_to_read
@require_safe
def player_search(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Players of the site by name, club or member number, each with a Register button; htmx
    gets the results list alone."""
    tournament = access.get_tournament_for_director(request, slug)
    context = _search_context(request, tournament, PlayerSearchForm(request.GET))
    template = SEARCH_TEMPLATE + ("#results" if request.htmx else "")
    return render(request, template, context)


@require_POST
def register_player(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Register a known player in the tournament (one click from the search results)."""
    tournament = access.get_tournament_for_director(request, slug)
    form = PlayerChoiceForm(request.user, request.POST)
    back = reverse("manage:player_search", args=[tournament.slug])
    query = request.POST.get("q", "")
    if not form.is_valid():
        messages.error(request, gettext("That player no longer exists: search again."))
        return redirect(f"{back}?{_query(query)}")
    player: Player = form.cleaned_data["player"]
    registration = None
    try:
        with transaction.atomic():
            registration = Registration.objects.create(tournament=tournament, player=player)
    except IntegrityError:
        text = gettext("%(name)s is already registered.") % {"name": player.name}
    else:
        text = gettext("%(name)s is registered.") % {"name": player.name}
    if not request.htmx:
        if registration is None:
            messages.info(request, text)
        else:
            messages.success(request, text)
        return redirect(f"{back}?{_query(query)}")
    # The search result says so, and the dashboard's list gets the player's row.
    context = {"tournament": tournament, "player": player, "registered": {player.pk}, "note": text}
    response = render(request, SEARCH_TEMPLATE + "#result", context)
    if registration is not None:
        row = render_to_string(
            "tournaments/director/dashboard.html#registration",
            {
                "tournament": tournament,
                "registration": registration,
                "seated": set(),
            },
            request=request,
        )
        # Out of band: the list's children go at its end (a template keeps the <ul> whole).
        response.content += (
            f'<template><ul data-hx-swap-oob="beforeend:#registration-list">{row}</ul></template>'
        ).encode()
    return trigger_client_event(response, REGISTRATIONS_CHANGED)


def _query(text: str) -> str:
    return urlencode({"q": text[:120]})


# --- merging duplicates (administrators) --------------------------------------------------


def _footprint(player: Player) -> dict[str, int]:
    """What follows a player when merged: their seats, finished games and tournaments."""
    return Player.objects.filter(pk=player.pk).aggregate(
        games=Count("seats", distinct=True),
        finished_games=Count("seats", filter=Q(seats__table__game__finished=True), distinct=True),
        registered=Count("registrations", distinct=True),
    )


def _player_id(value: str) -> int | None:
    """A player's id as typed in the address: digits, at most 11 of them (a longer number is
    no player's, and 5,000 digits would not even convert)."""
    return int(value) if value.isdecimal() and value.isascii() and len(value) < 12 else None


def _require_merger(request: HtmxHttpRequest) -> None:
    """The merge page is an administrator's, and a director's for the players of their own
    tournaments (`_not_theirs`); anyone else is told who can (403)."""
    user: Any = request.user
    if not user.is_authenticated:
        raise Http404("No such page.")
    if not (user.is_superuser or user.directed_tournaments.exists()):
        raise PermissionDenied(
            gettext(
                "Only an administrator can merge players, or a director when both players "
                "were seen only in tournaments they direct."
            )
        )


def _not_theirs(user: Any, players: list[Player]) -> list[Player]:
    """The players seen (registered or seated) in a tournament this director does not
    direct: only an administrator merges those. One query a player."""
    if user.is_superuser:
        return []
    others = Tournament.objects.exclude(directors=user)
    return [
        player
        for player in players
        if others.filter(
            Q(registrations__player=player) | Q(sessions__tables__seats__player=player)
        ).exists()
    ]


def _check_merger(request: HtmxHttpRequest, chosen: MergeForm) -> None:
    """A director choosing a player of another's tournament: said on the form."""
    if chosen.is_valid():
        outside = _not_theirs(
            request.user, [chosen.cleaned_data["merge"], chosen.cleaned_data["into"]]
        )
        if outside:
            chosen.add_error(
                None,
                gettext(
                    "Only an administrator can merge %(names)s: seen in a tournament you do "
                    "not direct."
                )
                % {"names": ", ".join(player.name for player in outside)},
            )


@access.login_to_read
@require_http_methods(["GET", "POST"])
def merge_players(request: HtmxHttpRequest) -> HttpResponse:
    """Pick the duplicate (`merge`) and the player kept (`into`) from the search, see what
    follows, confirm (POST)."""
    _require_merger(request)
    data = request.POST if request.method == "POST" else request.GET
    merge_id, into_id = data.get("merge", ""), data.get("into", "")
    chosen = MergeForm(data) if merge_id and into_id else None
    if chosen is not None:
        _check_merger(request, chosen)
    status = 200
    if request.method == "POST":
        if chosen is not None and chosen.is_valid():
            merged, into = chosen.cleaned_data["merge"], chosen.cleaned_data["into"]
            name = merged.name
            try:
                merged.merge_into(into, by=request.user)
            except MergeRefused as error:
                on_form(chosen, error)
            else:
                messages.success(
                    request,
                    gettext("%(merged)s is merged into %(into)s: every game follows.")
                    % {"merged": name, "into": into.name},
                )
                return redirect(reverse("manage:merge_players"))
        status = 400
    merge_pk, into_pk = _player_id(merge_id), _player_id(into_id)
    picked = Player.objects.select_related("club").in_bulk(
        [pk for pk in (merge_pk, into_pk) if pk is not None]
    )
    pair = None
    if chosen is not None and chosen.is_valid():
        merged, into = chosen.cleaned_data["merge"], chosen.cleaned_data["into"]
        pair = [(merged, _footprint(merged)), (into, _footprint(into))]
    search = PlayerSearchForm(request.GET if request.method == "GET" else None)
    found = search.players(request.user) if search.is_bound else None
    return render(
        request,
        "seasons/profiles/merge.html",
        {
            "search_form": search,
            "found": list(found) if found is not None else None,
            "chosen": chosen,
            "merge_player": picked.get(merge_pk) if merge_pk is not None else None,
            "into_player": picked.get(into_pk) if into_pk is not None else None,
            "merge_id": merge_id,
            "into_id": into_id,
            "q": search.data.get("q", "") if search.is_bound else "",
            "pair": pair,
            # The site's possible duplicates and merges are the administrators' to read.
            "suspects": Player.suspected_duplicates() if request.user.is_superuser else [],
            "recent": _recent_merges(request.user),
        },
        status=status,
    )


def _recent_merges(user: Any) -> Any:
    merges = PlayerMerge.objects.select_related("by", "into")
    return (merges if user.is_superuser else merges.filter(by=user))[:20]
