"""The API's test world: the championship (public, running; tests/factories.py), and beside it
what must never show: a private tournament and a draft, each with players who played only
there, and one player who played in the championship and in the private tournament too.

Seasons and ratings: a public season counts the championship, the private tournament and
the public draft (only the championship may show); a private season counts the championship.
The private tournament and the public draft each have a finished game (the private one with
the championship's player), and the ratings are computed from every finished game, a rating
showing from one game on.

Their names, slugs and ids are distinctive (`HIDDEN_NAMES`), so that a test can look for
them in every answer.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from django.test import Client

from api import http
from seasons import ratings
from seasons.models import Season
from tests.factories import make_championship, make_table, make_tournament, make_user, record
from tests.season_factories import finished_tables, make_season
from tournaments.models import Player, Registration, Seat, Tournament

PRIVATE_PLAYERS = ("Quentin Secretus", "Ursula Hiddenberg", "Valentin Privé")
DRAFT_PLAYERS = ("Xavier Draftsman", "Walter Unseen")
PUBLIC_DRAFT_PLAYERS = ("Yolanda Unpublished", "Zeno Invisible")
PRIVATE_SLUG, DRAFT_SLUG, PUBLIC_DRAFT_SLUG = "hush-club-night", "draft-open", "draft-public"
PRIVATE_NAME, DRAFT_NAME = "The Secret Night", "The Unfinished Draft"
SEASON_SLUG, PRIVATE_SEASON_SLUG = "flanders-2027", "whisper-ladder"
PRIVATE_SEASON_NAME = "The Whisper Ladder"
HIDDEN_NAMES = (
    *PRIVATE_PLAYERS,
    *DRAFT_PLAYERS,
    *PUBLIC_DRAFT_PLAYERS,
    PRIVATE_NAME,
    DRAFT_NAME,
    PRIVATE_SEASON_NAME,
)
HIDDEN_SLUGS = (PRIVATE_SLUG, DRAFT_SLUG, PUBLIC_DRAFT_SLUG, PRIVATE_SEASON_SLUG)


@dataclass
class World:
    championship: Tournament
    private: Tournament
    draft: Tournament
    # The championship player who also played in the private tournament.
    both: Player
    # Public: the championship, the private tournament and the public draft.
    season: Season
    # Private: the championship.
    private_season: Season

    @property
    def hidden_player_ids(self) -> set[int]:
        return set(
            Player.objects.filter(
                name__in=(*PRIVATE_PLAYERS, *DRAFT_PLAYERS, *PUBLIC_DRAFT_PLAYERS)
            ).values_list("pk", flat=True)
        )


def _played(tournament: Tournament, names: tuple[str, ...], *, with_player: Player | None = None):
    """A table of `names` (and `with_player` in the last seat) with one round played."""
    referee = make_user(f"ref-{tournament.slug}")
    table = make_table(names, referee=referee, tournament=tournament)
    if with_player is not None:
        Seat.objects.create(table=table, position=len(names) + 1, player=with_player)
    seats = list(table.seats.select_related("player"))
    hands = {seat.player.name: 5 + seat.position for seat in seats}
    record(table.game, referee, {"hands": hands, "yaniv": seats[0].player.name})
    for seat in seats:
        Registration.objects.create(tournament=tournament, player=seat.player, checked_in=True)
    return table


@pytest.fixture
def world(db, settings) -> World:
    championship = make_championship()
    both = Player.objects.get(name="Dirk Maes")
    private = make_tournament(
        name=PRIVATE_NAME,
        slug=PRIVATE_SLUG,
        is_public=False,
        starts_on=datetime.date(2027, 1, 9),
    )
    _played(private, PRIVATE_PLAYERS, with_player=both)
    draft = make_tournament(
        name=DRAFT_NAME,
        slug=DRAFT_SLUG,
        is_public=False,
        status=Tournament.Status.DRAFT,
        starts_on=datetime.date(2027, 2, 1),
    )
    _played(draft, DRAFT_PLAYERS)
    # A public draft: its page opens by address, but nothing lists it.
    public_draft = make_tournament(
        name=DRAFT_NAME + " (public)",
        slug=PUBLIC_DRAFT_SLUG,
        status=Tournament.Status.DRAFT,
        starts_on=datetime.date(2027, 3, 1),
    )
    _played(public_draft, PUBLIC_DRAFT_PLAYERS)
    # Finished games: the private tournament's (with the championship's player) and one of
    # the public draft (a tournament set back to draft after its games).
    secret = [*Player.objects.filter(name__in=PRIVATE_PLAYERS).order_by("name"), both]
    finished_tables(private, 2, [[(player, 10 * i) for i, player in enumerate(secret)]])
    unpublished = list(Player.objects.filter(name__in=PUBLIC_DRAFT_PLAYERS).order_by("name"))
    finished_tables(public_draft, 2, [[(player, 10 * i) for i, player in enumerate(unpublished)]])
    season = make_season(
        championship,
        private,
        public_draft,
        coefficients=["1.5", "2", "2"],
        name="Flanders ranking 2027",
        slug=SEASON_SLUG,
    )
    private_season = make_season(
        championship, name=PRIVATE_SEASON_NAME, slug=PRIVATE_SEASON_SLUG, is_public=False
    )
    settings.RATING_MIN_GAMES = 1
    ratings.recompute()
    return World(
        championship=championship,
        private=private,
        draft=draft,
        both=both,
        season=season,
        private_season=private_season,
    )


@pytest.fixture(autouse=True)
def _unlimited(settings) -> None:
    # Every request of a test comes from one address: no test depends on the default limit
    # (the rate limit's own tests set theirs).
    settings.API_REQUESTS = 1_000_000


@pytest.fixture(autouse=True)
def _one_moment(monkeypatch) -> None:
    # The ETags' fresh window (10 minutes) and the rate limit's window (a minute) are read off
    # the clock: a test crossing a boundary would see its ETag change or its count reset (a CI
    # run failed so at 18:39:59). Each test runs at one moment, mid-window; the tests of the
    # windows move it themselves.
    moment = (time.time() // 3600) * 3600 + 30
    monkeypatch.setattr(http, "time", SimpleNamespace(time=lambda: moment))


@pytest.fixture
def api() -> Client:
    """An anonymous client of the API."""
    return Client()
