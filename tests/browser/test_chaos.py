"""A few seeded chaos games (tests/browser/chaos.py): network drops at random moments, reloads
online and offline, a second phone recording, conflicts chosen at random; nothing typed is lost,
doubled or reordered without a choice, and the totals are the engine's.

`python -m bench chaos --games N` runs many seeds through this test and sums the figures (it
sets YANIV_CHAOS_SEEDS and YANIV_CHAOS_REPORT, a file each game's figures are added to).
"""

from __future__ import annotations

import json
import os

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page

from tests.browser.chaos import Game
from tests.browser.test_offline import log_in
from tests.factories import make_user

SEEDS = [int(seed) for seed in os.environ.get("YANIV_CHAOS_SEEDS", "3,11").split(",")]


@pytest.fixture
def chaos_referee():
    return make_user("ref-chaos")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.django_db(transaction=True)
def test_a_chaos_game_loses_doubles_and_misnumbers_nothing(
    live_server, context: BrowserContext, page: Page, tournament, chaos_referee, settings, seed
):
    settings.LIVE_POLL_SECONDS = 2  # polls land between and during the submissions
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error} {error.stack or ''}"))
    log_in(page, live_server.url, chaos_referee)
    assert page.url.endswith(reverse("tables:mine"))
    game = Game(seed, live_server.url, context, page, chaos_referee, tournament)
    figures = game.play()
    report = os.environ.get("YANIV_CHAOS_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as out:
            out.write(json.dumps({"seed": seed, **figures.as_dict()}) + "\n")
    summary = "\n".join(figures.lines() + figures.problems)
    assert figures.found == 0 and not figures.problems and not errors, summary + str(errors)
    # Every round typed on the phone is stored, but those a choice gave up.
    assert figures.rounds >= len(game.phone_rounds) - len(game.given_up)
