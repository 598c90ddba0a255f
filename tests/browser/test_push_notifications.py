"""The service worker's push and click handlers in Chromium: a message as the site sent it
(encrypted, through the loopback push service, decrypted there as the phone would) delivered
to the worker by a push event; "Stop these" on it ends the subscription on the site."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse

from hall.models import HallScreen
from notifications.models import Subscription
from tests.notifications.conftest import give_phone, player, run_tasks
from tests.notifications.conftest import hall as hall  # noqa: F401 - the fixture
from tests.notifications.conftest import push_service as push_service  # noqa: F401
from tests.notifications.conftest import vapid as vapid  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

NOTIFICATIONS = """navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data,
                                      actions: n.actions.map((a) => a.title)})))"""


def _registration_id(cdp) -> str:
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + 10
    while not registrations and time.monotonic() < end:
        cdp.send("Runtime.evaluate", {"expression": "1"})
        time.sleep(0.05)
    return registrations[0]["registrationId"]


def test_a_push_shows_the_message_and_stop_these_ends_its_subscription(
    live_server,
    page,
    hall,
    vapid,
    push_service,  # noqa: F811
):
    phone = give_phone(push_service, hall, player(hall, "Ann"))
    give_phone(push_service, hall, None, phone=phone)
    HallScreen.default(hall).set_up(message="Final at 17:00 at table 1")
    run_tasks()
    (received,) = push_service.received
    assert received.message["body"] == "Final at 17:00 at table 1"

    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(live_server.url + reverse("public:player", args=[hall.slug, player(hall, "Ann").pk]))
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": _registration_id(cdp),
            "data": json.dumps(received.message),
        },
    )
    # What the wait saw: read again later, a notification may already be gone (a loaded
    # machine's Chromium closes it), which is not what this test is about.
    (shown,) = page.wait_for_function(
        f"({NOTIFICATIONS}).then((shown) => shown.length === 1 ? shown : null)"
    ).json_value()

    assert shown["title"] == "Gent Open"
    assert shown["body"] == "Final at 17:00 at table 1"
    assert shown["tag"] == received.message["tag"]
    assert shown["actions"] == ["Stop these"]
    assert shown["data"]["url"] == reverse("public:tournament", args=[hall.slug])

    # "Stop these", as the phone's notification would dispatch it.
    (worker,) = page.context.service_workers
    worker.evaluate(
        """async (shown) => {
             let [notification] = await self.registration.getNotifications();
             if (!notification) {
               // Closed already (see above): the same one again, to click its action.
               await self.registration.showNotification(shown.title, shown);
               [notification] = await self.registration.getNotifications();
             }
             self.dispatchEvent(new NotificationEvent("notificationclick",
                                                      {notification, action: "stop"}));
           }""",
        {**shown, "actions": [{"action": "stop", "title": title} for title in shown["actions"]]},
    )
    end = time.monotonic() + 10
    while Subscription.objects.filter(player__isnull=True).exists():
        assert time.monotonic() < end, "the subscription was not stopped"
        time.sleep(0.05)
    # The announcements' subscription ended; the player's own stays.
    assert list(Subscription.objects.values_list("player__name", flat=True)) == ["Ann"]
    assert page.evaluate(NOTIFICATIONS) == []


def test_a_browser_without_a_push_service_says_so_on_the_button(
    live_server,
    page,
    hall,
    vapid,
    push_service,  # noqa: F811
):
    # Playwright's Chromium has no push service (no Google services in it), as some
    # Chromium builds and private windows: subscribing is refused by the browser itself.
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto(live_server.url + reverse("public:player", args=[hall.slug, player(hall, "Ann").pk]))
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_role("button", name="Notify me on this phone — Ann").click()

    status = page.locator(".push-status")
    status.filter(has_text="no push service").wait_for()
    assert status.inner_text() == (
        "This browser has no push service: it cannot receive notifications. Try another browser."
    )
    assert Subscription.objects.count() == 0
