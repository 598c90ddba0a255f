"""No visitor reaches the worker's network: endpoints that are not a push service on the
internet are refused when a phone subscribes, and again when the worker sends (a listener on
loopback sees nothing), and one bad endpoint fails its own message only."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from hall.models import HallScreen
from notifications import endpoints
from notifications.models import Message, Subscription
from tests.notifications.conftest import give_phone, player, run_tasks

pytestmark = pytest.mark.django_db


class Listener:
    """A port on loopback that counts every connection made to it (and answers nothing)."""

    def __init__(self, family: socket.AddressFamily = socket.AF_INET) -> None:
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    listening = Listener()
    yield listening
    listening.close()


@pytest.fixture
def listener6() -> Iterator[Listener]:
    listening = Listener(socket.AF_INET6)
    yield listening
    listening.close()


def _refused_endpoints(port: int, port6: int) -> list[str]:
    """What issue 34 found accepted, and their neighbours."""
    return [
        f"https://[::1]:{port6}/x",
        f"https://user:pw@127.0.0.1:{port}/",
        f"https://127.0.0.1:{port}/x",
        f"http://127.0.0.1:{port}/x",
        f"https://localhost:{port}/x",
        f"https://[::ffff:127.0.0.1]:{port}/x",
        f"https://0.0.0.0:{port}/x",
        "https://[::1]/x",
        "https://localhost/x",
        "https://10.0.0.1/x",
        "https://192.168.1.1/x",
        "https://100.64.0.1/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fe80::1]/x",
        "https://224.0.0.1/x",
        "https://240.0.0.1/x",
        "https://metadata.google.internal/x",
        "https://127.0.0.1:6379",
        "127.0.0.1:6379",
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://user:pw@fcm.googleapis.com/fcm/send/abc",
        "https://fcm.googleapis.com:8443/fcm/send/abc",
        "https://fcm.googleapis.com/",
        "ftp://fcm.googleapis.com/fcm/send/abc",
    ]


def test_every_endpoint_off_the_internet_is_refused_with_a_message_and_nothing_is_saved(
    client, hall, vapid, push_service, listener, listener6
):
    phone = push_service.phone()
    url = reverse("notifications:subscribe", args=[hall.slug, player(hall, "Ann").pk])
    for endpoint in _refused_endpoints(listener.port, listener6.port):
        response = client.post(url, {**phone.keys, "endpoint": endpoint})

        assert response.status_code == 400, endpoint
        answer = response.json()
        assert answer["subscribed"] is False
        assert answer["message"] and "will be notified" not in answer["message"], endpoint
    assert Subscription.objects.count() == 0
    assert listener.connections == listener6.connections == 0


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.251",
        "240.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:8.8.8.8",
        "2002:0808:0808::1",
        "2001:0000:4136:e378:8000:63bf:3fff:fdd2",
        "2001:db8::1",
    ],
)
def test_an_address_off_the_internet_is_not_public(address):
    assert not endpoints.is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["8.8.8.8", "142.250.74.106", "2a00:1450:400e:80f::200a"])
def test_an_address_on_the_internet_is_public(address):
    assert endpoints.is_public(ipaddress.ip_address(address))


def test_a_name_resolving_to_loopback_is_refused_where_it_resolves():
    with pytest.raises(endpoints.Refused):
        endpoints.resolve(urlsplit("https://localhost/push/x"))


def test_an_allow_list_of_push_hosts_refuses_the_others(settings):
    settings.NOTIFICATIONS_PUSH_HOSTS = ["fcm.googleapis.com", ".push.services.mozilla.com"]
    endpoints.shape("https://fcm.googleapis.com/fcm/send/abc")
    endpoints.shape("https://updates.push.services.mozilla.com/wpush/v2/abc")
    with pytest.raises(endpoints.Refused):
        endpoints.shape("https://push.example.com/abc")


def _stored(endpoint: str, tournament, phone) -> Subscription:
    """A subscription already in the database (made before this check, or its name moved to
    another address since): the worker must refuse it on its own."""
    return Subscription.objects.create(
        endpoint=endpoint,
        p256dh=phone.p256dh,
        auth=phone.auth,
        tournament=tournament,
        language="en",
        expires=timezone.now() + datetime.timedelta(days=3),
    )


def _announce(hall, capture, text: str) -> None:
    screen = HallScreen.objects.filter(tournament=hall).first() or HallScreen.default(hall)
    with capture(execute=True):
        screen.set_up(message=text)


@pytest.mark.slow  # a dripping endpoint, cut at its deadline (1 s here)
def test_the_worker_reaches_no_private_address_follows_no_redirect_and_cuts_a_slow_service(
    hall, vapid, push_service, listener, listener6, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_TIMEOUT = 1
    good = [give_phone(push_service, hall, None) for _ in range(3)]
    keys = push_service.phone()
    bad = [
        _stored(endpoint, hall, keys)
        for endpoint in _refused_endpoints(listener.port, listener6.port)
    ]
    redirecting, slow, bad_keys = (give_phone(push_service, hall, None) for _ in range(3))
    push_service.answers[redirecting.token] = 307
    push_service.redirect_to = f"http://127.0.0.1:{listener.port}/steal"
    push_service.dripping.add(slow.token)
    Subscription.objects.filter(endpoint=bad_keys.endpoint).update(p256dh="not a key")

    _announce(hall, django_capture_on_commit_callbacks, "Final at 17:00")
    run_tasks()

    assert listener.connections == listener6.connections == 0
    assert all(push_service.texts(phone) == ["Final at 17:00"] for phone in good)
    assert push_service.texts(redirecting) == push_service.texts(slow) == []
    # The drip was cut at the deadline, not read a byte at a time for ever.
    assert 0 < push_service.dripped[slow.token] < 100
    failed = Message.objects.filter(status=Message.Status.FAILED)
    assert failed.count() == len(bad) + 3
    assert Message.objects.filter(status=Message.Status.SENT).count() == 3
    assert DBTaskResult.objects.filter(status="READY").count() == 0
    assert set(Subscription.objects.filter(failures=1).values_list("pk", flat=True)) >= {
        subscription.pk for subscription in bad
    }


def test_a_subscription_failing_again_and_again_is_removed_and_the_tournament_still_hears(
    hall, vapid, push_service, settings, django_capture_on_commit_callbacks
):
    settings.NOTIFICATIONS_FAILURES = 3
    good = give_phone(push_service, hall, None)
    broken = _stored("https://user:pw@fcm.googleapis.com/fcm/send/x", hall, good)
    for number in range(1, 4):
        _announce(hall, django_capture_on_commit_callbacks, f"Message {number}")
        run_tasks()

    assert not Subscription.objects.filter(pk=broken.pk).exists()
    assert push_service.texts(good) == ["Message 1", "Message 2", "Message 3"]


def test_the_tournaments_bound_serves_phones_that_received_before_newer_subscriptions(
    hall, vapid, push_service, settings, django_capture_on_commit_callbacks
):
    junk = [give_phone(push_service, hall, None) for _ in range(3)]
    for phone in junk:
        push_service.answers[phone.token] = 400
    real = give_phone(push_service, hall, None)
    Subscription.objects.filter(endpoint=real.endpoint).update(acknowledged_at=timezone.now())
    settings.NOTIFICATIONS_PER_TOURNAMENT = 1
    _announce(hall, django_capture_on_commit_callbacks, "Bar is open")
    run_tasks()

    assert push_service.texts(real) == ["Bar is open"]


def test_subscribing_after_the_tournaments_window_is_refused_and_says_so(
    client, hall, vapid, push_service, settings
):
    hall.starts_on = hall.ends_on = datetime.date.today() - datetime.timedelta(days=10)
    hall.save()
    url = reverse("notifications:subscribe", args=[hall.slug, player(hall, "Ann").pk])
    response = client.post(url, push_service.phone().keys)

    assert response.status_code == 400
    assert "over" in response.json()["message"]
    assert Subscription.objects.count() == 0


def test_one_phone_holds_a_bounded_number_of_subscriptions_and_renews_those_it_holds(
    client, hall, vapid, push_service, settings
):
    settings.NOTIFICATIONS_SUBSCRIPTIONS_PER_PHONE = 2
    phone = push_service.phone()
    urls = [
        reverse("notifications:subscribe", args=[hall.slug, player(hall, name).pk])
        for name in ("Ann", "Bart", "Chris")
    ]
    assert [client.post(url, phone.keys).status_code for url in urls] == [201, 201, 400]
    assert client.post(urls[0], phone.keys).status_code == 201
    assert Subscription.objects.count() == 2


def test_one_ipv6_network_makes_a_bounded_number_of_subscriptions_an_hour(
    client, hall, vapid, push_service, settings
):
    settings.NOTIFICATIONS_SUBSCRIPTIONS_PER_ADDRESS = 5
    settings.TRUSTED_PROXY_COUNT = 1
    url = reverse("notifications:subscribe", args=[hall.slug, player(hall, "Ann").pk])
    statuses = [
        client.post(
            url, push_service.phone().keys, headers={"x-forwarded-for": f"2001:db8:1:2::{n:x}"}
        ).status_code
        for n in range(1, 9)
    ]

    assert statuses == [201] * 5 + [429] * 3
    other = client.post(
        url, push_service.phone().keys, headers={"x-forwarded-for": "2001:db8:1:3::1"}
    )
    assert other.status_code == 201
