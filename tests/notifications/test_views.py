"""Opting in and out: the player's page, a table code's seats, "Stop these", the director's
count, /health/ and the VAPID keys' command."""

from __future__ import annotations

import base64
import collections
import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from py_vapid import Vapid

from notifications.models import Subscription
from notifications.tasks import stop_token
from tests.factories import make_table, make_user
from tests.notifications.conftest import give_phone, player
from tournaments import slots
from tournaments.models import Registration, TableCode, Tournament

pytestmark = pytest.mark.django_db


def _today(tournament: Tournament) -> None:
    """The tournament is played today: its notifications' window is open."""
    tournament.starts_on = tournament.ends_on = datetime.date.today()
    tournament.save()


def _subscribe_url(tournament, name: str) -> str:
    return reverse("notifications:subscribe", args=[tournament.slug, player(tournament, name).pk])


def test_a_phone_subscribes_to_a_player_in_the_language_it_reads(
    client, hall, vapid, push_service
):
    phone = push_service.phone()
    response = client.post(
        _subscribe_url(hall, "Ann"), phone.keys, headers={"accept-language": "fr-BE,fr;q=0.9"}
    )

    assert response.status_code == 201
    subscription = Subscription.objects.get()
    assert (subscription.endpoint, subscription.p256dh, subscription.auth) == (
        phone.endpoint,
        phone.p256dh,
        phone.auth,
    )
    assert (subscription.player, subscription.tournament, subscription.language) == (
        player(hall, "Ann"),
        hall,
        "fr",
    )
    assert subscription.expires > timezone.now() + datetime.timedelta(days=3)


def test_subscribing_again_with_the_announcements_keeps_one_row_per_player_and_one_for_them(
    client, hall, vapid, push_service
):
    phone = push_service.phone()
    client.post(_subscribe_url(hall, "Ann"), phone.keys)
    client.post(_subscribe_url(hall, "Ann"), {**phone.keys, "announcements": "1"})

    assert sorted(Subscription.objects.values_list("player__name", flat=True), key=str) == sorted(
        ["Ann", None], key=str
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("p256dh", base64.urlsafe_b64encode(b"\x04" + b"1" * 30).decode()),
        ("auth", "not-16-bytes"),
        ("endpoint", "ftp://push.example/abc"),
    ],
)
def test_a_subscription_with_bad_keys_is_refused_and_nothing_is_saved(
    client, hall, vapid, push_service, field, value
):
    response = client.post(
        _subscribe_url(hall, "Ann"), {**push_service.phone().keys, field: value}
    )

    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert Subscription.objects.count() == 0


def test_a_push_service_without_tls_is_refused_on_a_real_site(
    client, hall, vapid, push_service, settings
):
    settings.NOTIFICATIONS_ALLOW_HTTP = False
    response = client.post(_subscribe_url(hall, "Ann"), push_service.phone().keys)

    assert response.status_code == 400
    assert response.json()["errors"]["endpoint"] == ["A push service's address starts with https."]


def test_a_private_tournaments_player_is_a_404_for_a_stranger(client, hall, vapid, push_service):
    Tournament.objects.filter(pk=hall.pk).update(is_public=False)
    response = client.post(_subscribe_url(hall, "Ann"), push_service.phone().keys)

    assert response.status_code == 404
    assert Subscription.objects.count() == 0


def test_a_player_of_another_tournament_is_a_404(client, hall, tournament, vapid, push_service):
    other = make_table(tournament=tournament).seats.get(position=1).player
    url = reverse("notifications:subscribe", args=[hall.slug, other.pk])

    assert client.post(url, push_service.phone().keys).status_code == 404


def test_a_site_without_vapid_keys_offers_and_takes_no_subscription(client, hall, push_service):
    page = client.get(reverse("public:player", args=[hall.slug, player(hall, "Ann").pk]))

    assert "Notify me on this phone" not in page.content.decode()
    assert client.post(_subscribe_url(hall, "Ann"), push_service.phone().keys).status_code == 404


def test_the_players_page_offers_the_opt_in_and_says_what_will_be_sent(client, hall, vapid):
    page = client.get(
        reverse("public:player", args=[hall.slug, player(hall, "Ann").pk])
    ).content.decode()

    assert "Notify me on this phone — Ann" in page
    assert "your table and seat when a session's draw is published" in page
    assert f'data-push-key="{vapid}"' in page
    assert reverse("notifications:unsubscribe", args=[hall.slug, player(hall, "Ann").pk]) in page


@pytest.fixture
def club_table(tournament):
    tournament.entry = Tournament.Entry.TABLE_CODES
    tournament.ends_on = datetime.date.today()
    tournament.save()
    return make_table(tournament=tournament)


def test_a_table_codes_page_offers_each_seat_and_subscribes_its_player(
    client, club_table, vapid, push_service
):
    code = TableCode.issue(club_table).code
    page = client.get(reverse("codes:detail", args=[code])).content.decode()
    for name in ("Ann", "Bart", "Chris", "Dirk"):
        assert f"Notify me on this phone — {name}" in page

    phone = push_service.phone()
    url = reverse("notifications:subscribe_seat", args=[code, 3])
    assert client.post(url, phone.keys).status_code == 201
    assert Subscription.objects.filter(player__name="Chris").count() == 1
    stop = reverse("notifications:unsubscribe_seat", args=[code, 3])
    assert client.post(stop, {"endpoint": phone.endpoint}).status_code == 200
    assert Subscription.objects.count() == 0


def test_a_wrong_table_code_subscribes_nobody(client, club_table, vapid, push_service):
    url = reverse("notifications:subscribe_seat", args=["x" * 32, 1])

    assert client.post(url, push_service.phone().keys).status_code == 404
    assert Subscription.objects.count() == 0


def test_stop_on_the_page_ends_this_phones_subscriptions_only(client, hall, vapid, push_service):
    mine = give_phone(push_service, hall, player(hall, "Ann"))
    give_phone(push_service, hall, None, phone=mine)
    other = give_phone(push_service, hall, player(hall, "Ann"))
    url = reverse("notifications:unsubscribe", args=[hall.slug, player(hall, "Ann").pk])
    response = client.post(url, {"endpoint": mine.endpoint})

    assert response.json() == {"subscribed": False, "message": "Notifications stopped."}
    assert list(Subscription.objects.values_list("endpoint", flat=True)) == [other.endpoint]


def test_stop_these_in_a_message_ends_its_subscription_without_a_session(
    hall, vapid, push_service
):
    phone = give_phone(push_service, hall, player(hall, "Ann"))
    url = reverse("notifications:stop", args=[stop_token(Subscription.objects.get())])
    client = Client(enforce_csrf_checks=True)

    assert "Stop these" in client.get(url).content.decode()
    assert Subscription.objects.filter(endpoint=phone.endpoint).exists()
    response = client.post(url, headers={"accept": "application/json"})
    assert response.json() == {"subscribed": False}
    assert Subscription.objects.count() == 0
    assert "gets no more" in client.get(url).content.decode()


def test_a_forged_stop_address_is_a_404(client, hall, vapid, push_service):
    give_phone(push_service, hall, player(hall, "Ann"))
    url = reverse("notifications:stop", args=["1:forged"])

    assert client.post(url).status_code == 404
    assert Subscription.objects.count() == 1


def test_a_director_sees_how_many_phones_subscribed_never_which(
    director_client, hall, vapid, push_service
):
    ann = give_phone(push_service, hall, player(hall, "Ann"))
    give_phone(push_service, hall, None, phone=ann)
    bart = give_phone(push_service, hall, player(hall, "Bart"))
    page = director_client.get(reverse("manage:tournament", args=[hall.slug])).content.decode()

    assert "2 phones get notifications." in page
    assert ann.endpoint not in page and bart.endpoint not in page
    assert push_service.url not in page


def test_the_dashboard_is_still_the_directors_only(hall):
    client = Client()
    client.force_login(make_user("stranger"))

    assert client.get(reverse("manage:tournament", args=[hall.slug])).status_code in (403, 404)


def test_health_says_when_the_tasks_wait_for_a_worker(client, settings):
    settings.TASKS_LATE_SECONDS = 60
    assert client.get("/health/?tasks=1").json()["tasks"] == "ok"
    from notifications.tasks import send_again

    send_again.enqueue("hall:1:x")
    DBTaskResult.objects.update(enqueued_at=timezone.now() - datetime.timedelta(seconds=90))
    # The load balancer's check does not look at the queue: the app server stays in.
    plain = client.get("/health/")
    assert plain.status_code == 200
    assert "tasks" not in plain.json()
    monitor = client.get("/health/?tasks=1")
    assert monitor.status_code == 503
    assert monitor.json()["status"] == "late"
    assert monitor.json()["tasks"] == "late"
    assert 90 <= monitor.json()["tasks_waiting_seconds"] < 95


def test_a_deferred_task_is_not_late_before_its_time(client, settings):
    from notifications.tasks import send_again

    settings.TASKS_LATE_SECONDS = 60
    send_again.using(run_after=timezone.now() + datetime.timedelta(minutes=5)).enqueue("x")
    DBTaskResult.objects.update(enqueued_at=timezone.now() - datetime.timedelta(hours=1))

    assert client.get("/health/?tasks=1").json()["tasks"] == "ok"


def test_the_vapid_command_prints_a_working_key_pair_as_environment_lines():
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())

    assert set(lines) == {"VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"}
    public = base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4
    signed = Vapid.from_string(lines["VAPID_PRIVATE_KEY"]).sign(
        {"sub": "mailto:a@example.org", "aud": "https://push.example.org"}
    )
    assert lines["VAPID_PUBLIC_KEY"] in signed["Authorization"]


def test_a_referee_subscribes_from_their_table_page_to_its_disputes(
    referee_client, referee, table, vapid, push_service
):
    _today(table.session.tournament)
    page = referee_client.get(reverse("tables:detail", args=[table.pk])).content.decode()
    assert "Notify me on this phone of disputes" in page
    phone = push_service.phone()
    url = reverse("notifications:subscribe_referee", args=[table.pk])

    assert referee_client.post(url, phone.keys).status_code == 201
    subscription = Subscription.objects.get()
    assert (subscription.referee, subscription.player) == (referee, None)
    stop = reverse("notifications:unsubscribe_referee", args=[table.pk])
    assert referee_client.post(stop, {"endpoint": phone.endpoint}).status_code == 200
    assert Subscription.objects.count() == 0


def test_only_the_tables_referee_subscribes_to_its_disputes(
    client, director_client, table, vapid, push_service
):
    url = reverse("notifications:subscribe_referee", args=[table.pk])
    # The director may record at the table, but is not its referee.
    assert director_client.post(url, push_service.phone().keys).status_code == 403
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(url, push_service.phone().keys).status_code in (403, 404)
    assert client.post(url, push_service.phone().keys).status_code in (302, 403, 404)
    assert Subscription.objects.count() == 0


def test_a_referees_phone_following_a_player_keeps_its_disputes_subscription(
    referee_client, referee, table, vapid, push_service
):
    _today(table.session.tournament)
    phone = push_service.phone()
    referee_client.post(reverse("notifications:subscribe_referee", args=[table.pk]), phone.keys)
    tournament = table.session.tournament
    seated = table.seats.get(position=1).player
    Registration.objects.get_or_create(tournament=tournament, player=seated)
    url = reverse("notifications:subscribe", args=[tournament.slug, seated.pk])

    assert referee_client.post(url, phone.keys).status_code == 201
    assert sorted(
        (str(s.referee_id == referee.pk), str(s.player_id)) for s in Subscription.objects.all()
    ) == sorted([("True", "None"), ("False", str(seated.pk))])


def test_the_pages_fill_their_places_with_the_notifications_parts_and_nothing_without_them(
    client, director_client, hall, vapid, monkeypatch
):
    """The tournaments' pages know no notifications: they name places (tournaments.slots)
    that this app fills; without its parts the places show nothing."""
    player_page = reverse("public:player", args=[hall.slug, player(hall, "Ann").pk])
    dashboard = reverse("manage:tournament", args=[hall.slug])
    page = client.get(player_page).content.decode()
    assert "Notify me on this phone — Ann" in page and 'name="csrfmiddlewaretoken"' in page
    assert 'id="phones-subscribed">0 phones get notifications.' in (
        director_client.get(dashboard).content.decode()
    )

    monkeypatch.setattr(slots, "PARTS", collections.defaultdict(list))
    assert client.get(player_page).status_code == 200
    assert "Notify me" not in client.get(player_page).content.decode()
    assert "phones-subscribed" not in director_client.get(dashboard).content.decode()
