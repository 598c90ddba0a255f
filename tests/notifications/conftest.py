"""The notifications' world: the site's VAPID keys, a push service on loopback, the tasks run
as the worker runs them, and a tournament whose players have phones."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest

from notifications import push as push_module
from notifications.models import Subscription, subscribe
from tests.factories import make_tournament
from tests.notifications import push_service as service_module
from tests.notifications.push_service import Phone, PushService
from tests.tasks import run_tasks
from tournaments.models import Player, Registration, Tournament

__all__ = ["give_phone", "player", "run_tasks", "subscriptions"]

NAMES = ("Ann", "Bart", "Chris", "Dirk", "Eva", "Femke", "Guus", "Hanne")


@pytest.fixture
def vapid(settings) -> str:
    """The site's VAPID key pair in the settings (as the environment gives them); the public
    half, which the push service sees in each message's Authorization header."""
    private, public = push_module.new_vapid_keys()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = private, public
    settings.NOTIFICATIONS_ALLOW_HTTP = True
    push_module._signatures.clear()
    return public


@pytest.fixture
def push_service(settings) -> Iterator[PushService]:
    """The push service on loopback, the one private address the site may post to."""
    service, server = service_module.start()
    settings.NOTIFICATIONS_LOCAL_SERVICES = [service.url.removeprefix("http://")]
    yield service
    server.shutdown()
    server.server_close()


@pytest.fixture
def hall(director) -> Tournament:
    """A public running tournament of 8 checked-in players, ending today (no session yet)."""
    tournament = make_tournament(
        name="Gent Open",
        slug="gent-open",
        starts_on=datetime.date.today(),
        directors=[director],
    )
    for name in NAMES:
        player = Player.objects.create(name=name)
        Registration.objects.create(tournament=tournament, player=player, checked_in=True)
    return tournament


def player(tournament: Tournament, name: str) -> Player:
    return Player.objects.get(registrations__tournament=tournament, name=name)


def give_phone(
    service: PushService,
    tournament: Tournament,
    player: Player | None,
    language: str = "en",
    phone: Phone | None = None,
) -> Phone:
    """A phone subscribed to `player` (None: the announcements), as the page does it."""
    phone = phone or service.phone()
    subscribe(
        endpoint=phone.endpoint,
        p256dh=phone.p256dh,
        auth=phone.auth,
        tournament=tournament,
        player=player,
        language=language,
    )
    return phone


def subscriptions() -> int:
    return Subscription.objects.count()
