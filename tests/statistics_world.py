"""The statistics' world (issue 38.5): the fixed games of tests/scoring/statistics_games.py
played through the models, across tournaments and seasons, with a private tournament whose
hands must never count.

- "Ghent Cup" (public, Belgian, `cup`): game 1 at session 1, table 1, finished;
- "Club night" (public, israeli, `night`): game 2 at session 1, table 1, still being played;
- "Secret night" (private, `secret`): Ann holds a Yaniv call against Zoë and Dirk (one round);
- "Gent ladder" (a public season counting all three: the private one is not shown) and
  "Hidden ladder" (a private season counting the cup).

Ann, Bart and Chris play both public games, Dirk the cup and the secret night, Zoë only the
secret night. Ann is of YC Gent.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from seasons.models import Season, SeasonTournament
from tests.factories import make_tournament, make_user, record, seat
from tests.scoring.statistics_games import GAME_1, GAME_2
from tournaments.models import Club, Player, Session, Tournament

SECRET_ROUND = {"hands": {"Ann": 0, "Zoë": 10, "Dirk": 10}, "yaniv": "Ann"}


def play(tournament: Tournament, players: list[Player], rounds: list[dict[str, Any]], by):
    session, _ = Session.objects.get_or_create(
        tournament=tournament, number=1, defaults={"status": Session.Status.RUNNING}
    )
    table = seat(session, session.tables.count() + 1, players, None)
    record(table.game, by, *rounds)
    return table


def statistics_world() -> dict[str, Any]:
    director = make_user("stats-director")
    gent = Club.objects.create(name="YC Gent", city="Gent")
    people = {
        name: Player.objects.create(name=name, club=gent if name == "Ann" else None)
        for name in ("Ann", "Bart", "Chris", "Dirk", "Zoë")
    }
    ann, bart, chris, dirk, zoe = people.values()
    cup = make_tournament(
        name="Ghent Cup", slug="cup", starts_on=datetime.date(2027, 2, 1), directors=[director]
    )
    game_1 = play(cup, [ann, bart, chris, dirk], GAME_1, director)
    night = make_tournament(
        name="Club night",
        slug="night",
        preset="israeli",
        starts_on=datetime.date(2027, 3, 1),
        directors=[director],
    )
    game_2 = play(night, [ann, bart, chris], GAME_2, director)
    secret = make_tournament(
        name="Secret night", slug="secret", is_public=False, directors=[director]
    )
    play(secret, [ann, zoe, dirk], [SECRET_ROUND], director)
    ladder = Season.objects.create(name="Gent ladder", slug="ladder", is_public=True)
    hidden = Season.objects.create(name="Hidden ladder", slug="hidden", is_public=False)
    for tournament in (cup, night, secret):
        SeasonTournament.objects.create(season=ladder, tournament=tournament)
    SeasonTournament.objects.create(season=hidden, tournament=cup)
    return {
        "director": director,
        "people": people,
        "cup": cup,
        "night": night,
        "secret": secret,
        "ladder": ladder,
        "hidden": hidden,
        "game_1": game_1.game,
        "game_2": game_2.game,
    }


def facts_told(html: str, where: str) -> list[str]:
    """The facts a page tells (the list after `where`, up to its section's end) as text."""
    block = html.split(where, 1)[1].split("</section>", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]
