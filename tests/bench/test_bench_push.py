"""The web push benchmark runs (a small size), with its worker, and cleans up after itself."""

from __future__ import annotations

import re

import pytest
from django_tasks_db.models import DBTaskResult

from bench import push
from notifications.models import Message, Subscription
from tournaments.models import Tournament


@pytest.mark.django_db(transaction=True)
def test_the_benchmark_times_a_draw_to_every_phone_and_leaves_nothing_behind(capsys, settings):
    # Set through the fixture: what the benchmark sets is undone after the test.
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.NOTIFICATIONS_ALLOW_HTTP = False
    settings.NOTIFICATIONS_LOCAL_SERVICES = []
    settings.NOTIFICATIONS_PER_TOURNAMENT = 5000
    assert push.main(["--players", "8", "--rounds", "3"]) == 0
    report = capsys.readouterr().out

    assert re.search(r"the last of 8 messages arrived \d+\.\d+ s after", report), report
    assert re.search(r"8 subscribed +: round save median \d+\.\d+ ms", report), report
    assert re.search(r"nobody subscribed : round save median \d+\.\d+ ms", report), report
    assert Tournament.objects.count() == 0
    assert (Subscription.objects.count(), Message.objects.count()) == (0, 0)
    assert DBTaskResult.objects.count() == 0
