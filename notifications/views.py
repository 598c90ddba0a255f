"""Opting in and out: a phone subscribes to a player of a tournament (from the player's page,
or per seat from a table code's page), and stops from the page or from any message."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from notifications import push
from notifications.forms import EndpointForm, SubscriptionForm
from notifications.models import Subscription, expiry_for, subscribe
from notifications.tasks import subscription_of
from tournaments import access, addresses
from tournaments.addresses import client_network
from tournaments.models import Player, Seat, Table, Tournament


def _language(request: HttpRequest) -> str:
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _refused(message: str, status: int = 400, **extra: Any) -> JsonResponse:
    """A subscription not taken: the message is what the button shows."""
    return JsonResponse({"subscribed": False, "message": message, **extra}, status=status)


def _bound(request: HttpRequest, endpoint: str, new: bool) -> JsonResponse | None:
    """The bounds on subscribing: NOTIFICATIONS_SUBSCRIPTIONS_PER_ADDRESS an hour from one
    address (an IPv6 /64), NOTIFICATIONS_SUBSCRIPTIONS_PER_PHONE at once for one phone (its
    endpoint); renewing one already held is always allowed."""
    hour = int(timezone.now().timestamp()) // 3600
    made = addresses.count(f"subscriptions:{hour}:{client_network(request)}", 3600)
    if made > settings.NOTIFICATIONS_SUBSCRIPTIONS_PER_ADDRESS:
        return _refused(gettext("Too many subscriptions from this network: try again later."), 429)
    held = Subscription.objects.filter(endpoint=endpoint, expires__gt=timezone.now()).count()
    if new and held >= settings.NOTIFICATIONS_SUBSCRIPTIONS_PER_PHONE:
        return _refused(
            gettext("This phone already follows %(count)s players or tables: stop some first.")
            % {"count": held}
        )
    return None


def _subscribe(
    request: HttpRequest, tournament: Tournament, player: Player | None, referee: Any = None
) -> HttpResponse:
    """This phone hears about `player` (and, if ticked, the announcements), or about
    `referee`'s tables: "will be notified" only once every check that sending makes passed
    (a push service on the internet, the tournament's window still open, the bounds)."""
    if not push.enabled():
        raise Http404("This site sends no notifications.")
    if expiry_for(tournament) <= timezone.now():
        return _refused(gettext("This tournament's notifications are over: nothing more is sent."))
    form = SubscriptionForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        return _refused(str(first), errors=form.errors)
    keys = {name: form.cleaned_data[name] for name in ("endpoint", "p256dh", "auth")}
    new = not Subscription.objects.filter(
        endpoint=keys["endpoint"], tournament=tournament, player=player, referee=referee
    ).exists()
    refused = _bound(request, keys["endpoint"], new)
    if refused is not None:
        return refused
    language = _language(request)
    subscribe(**keys, tournament=tournament, player=player, referee=referee, language=language)
    if referee is None and form.cleaned_data["announcements"]:
        subscribe(**keys, tournament=tournament, player=None, language=language)
    elif referee is None:
        # The announcements are neither a player's nor a referee's subscription.
        Subscription.objects.filter(
            endpoint=keys["endpoint"],
            tournament=tournament,
            player__isnull=True,
            referee__isnull=True,
        ).delete()
    return JsonResponse(
        {"subscribed": True, "message": gettext("This phone will be notified.")}, status=201
    )


def _registered_player(
    request: HttpRequest, slug: str, player_id: int
) -> tuple[Tournament, Player]:
    """The tournament (if this visitor may see it) and one of its registered players, or 404."""
    tournament = access.get_tournament_for_viewer(request, slug)
    player = get_object_or_404(
        Player.objects.filter(registrations__tournament=tournament), pk=player_id
    )
    return tournament, player


def _seat_by_code(request: HttpRequest, code: str, position: int) -> tuple[Table, Seat]:
    """The table a working code opens and its seat at `position` (with its player), or 404."""
    table = access.get_table_for_viewer(request, code=code)
    return table, get_object_or_404(table.seats.select_related("player"), position=position)


@require_POST
def subscribe_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """From the player's page in a tournament: anyone who may see it."""
    tournament, player = _registered_player(request, slug, player_id)
    return _subscribe(request, tournament, player)


@require_POST
def subscribe_seat(request: HttpRequest, code: str, position: int) -> HttpResponse:
    """From a table code's page, one seat's player: whoever holds the table's code."""
    table, seat = _seat_by_code(request, code, position)
    return _subscribe(request, table.session.tournament, seat.player)


@require_POST
def subscribe_referee(request: HttpRequest, table_id: int) -> HttpResponse:
    """From a referee's own table page: disputes at their tables of this tournament reach
    this phone. Only the table's referee (403 for who may only follow it, 404 for others)."""
    table = access.get_table_for_referee(request, table_id)
    if table.referee_id != request.user.pk:
        raise PermissionDenied(gettext("Only the table's referee is told of its disputes."))
    return _subscribe(request, table.session.tournament, None, referee=request.user)


@require_POST
def unsubscribe_referee(request: HttpRequest, table_id: int) -> HttpResponse:
    table = access.get_table_for_referee(request, table_id)
    form = EndpointForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    Subscription.objects.filter(
        endpoint=form.cleaned_data["endpoint"],
        tournament=table.session.tournament,
        referee=request.user.pk,
    ).delete()
    return JsonResponse({"subscribed": False, "message": gettext("Notifications stopped.")})


def _unsubscribe(request: HttpRequest, tournament: Tournament, player: Player) -> HttpResponse:
    """ "Stop" on the page: this phone's subscriptions to the player and to the tournament's
    announcements end. The endpoint, secret to the phone, is the proof."""
    form = EndpointForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    Subscription.objects.filter(
        Q(player=player) | Q(player__isnull=True, referee__isnull=True),
        endpoint=form.cleaned_data["endpoint"],
        tournament=tournament,
    ).delete()
    return JsonResponse({"subscribed": False, "message": gettext("Notifications stopped.")})


@require_POST
def unsubscribe_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    tournament, player = _registered_player(request, slug, player_id)
    return _unsubscribe(request, tournament, player)


@require_POST
def unsubscribe_seat(request: HttpRequest, code: str, position: int) -> HttpResponse:
    table, seat = _seat_by_code(request, code, position)
    return _unsubscribe(request, table.session.tournament, seat.player)


# The signed token in the message is the proof: the service worker posts it without a
# session or a CSRF token, and it names one subscription only.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def stop(request: HttpRequest, token: str) -> HttpResponse:
    """ "Stop these" on a message: the subscription it came through ends."""
    pk = subscription_of(token)
    if pk is None:
        raise Http404("No such subscription.")
    if request.method == "POST":
        Subscription.objects.filter(pk=pk).delete()
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse({"subscribed": False})
        return render(request, "notifications/stop.html", {"stopped": True})
    exists = Subscription.objects.filter(pk=pk).exists()
    return render(request, "notifications/stop.html", {"stopped": not exists})
