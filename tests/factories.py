"""Plain factory functions for the tests: users, tournaments, tables and rounds.

Everything is created in the database with the fewest required fields; pass
keyword arguments to override a default. Rounds are given as dicts in the game
record format of shared/RULES.md, keyed by the players' names at the table:

    table = make_table()
    record(table.game, referee, {"hands": {...}, "yaniv": "Ann", "along": []})
"""

from __future__ import annotations

import datetime
import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from scoring import rules
from tournaments.models import (
    Club,
    Game,
    Player,
    Registration,
    Round,
    Seat,
    Session,
    Table,
    Tournament,
)

PASSWORD = "a-long-test-password"
# The request headers of an htmx swap: `client.post(url, data, headers=HTMX)`.
HTMX = {"HX-Request": "true"}

_serial = itertools.count(1)


@functools.cache
def _hashed(password: str) -> str:
    # Hashing takes a good part of a second: do it once per password.
    return make_password(password)


def make_user(username: str, **kw: Any):
    """A user who can log in with `PASSWORD` (or `password=`)."""
    password = kw.pop("password", PASSWORD)
    user = get_user_model().objects.create_user(username, **kw)
    user.password = _hashed(password)
    user.save(update_fields=["password"])
    return user


def make_tournament(*, directors: Iterable = (), **kw: Any) -> Tournament:
    """A running, public tournament under the Belgian rules by default."""
    serial = next(_serial)
    fields: dict[str, Any] = {
        "name": f"Tournament {serial}",
        "slug": f"tournament-{serial}",
        "starts_on": datetime.date(2026, 3, 14),
        "status": Tournament.Status.RUNNING,
        "is_public": True,
    }
    directors = list(directors)
    # As the site makes one: its first director created it.
    fields.setdefault("created_by", directors[0] if directors else None)
    fields.update(kw)
    tournament = Tournament.objects.create(**fields)
    if directors:
        tournament.directors.add(*directors)
    return tournament


def make_table(
    players: Sequence[str] = ("Ann", "Bart", "Chris", "Dirk"),
    referee=None,
    tournament: Tournament | None = None,
    session_status: str = Session.Status.RUNNING,
) -> Table:
    """A table (and its game) with new players seated 1..n clockwise, in order.

    Tables of one tournament share its latest session when that session has
    `session_status`; otherwise a new session is opened with that status.
    """
    tournament = tournament or make_tournament()
    session = tournament.sessions.order_by("-number").first()
    if session is None or session.status != session_status:
        session = Session.objects.create(
            tournament=tournament,
            number=(session.number + 1) if session else 1,
            status=session_status,
        )
    (table,) = Table.objects.create_with_games(
        [Table(session=session, number=session.tables.count() + 1, referee=referee)]
    )
    for position, name in enumerate(players, start=1):
        Seat.objects.create(
            table=table, position=position, player=Player.objects.create(name=name)
        )
    return table


def entries(record: Mapping[str, Any]) -> rules.Round:
    """One round of a game record as the engine's entries."""
    return rules.Round(
        hands=dict(record["hands"]),
        yaniv=record.get("yaniv"),
        along=tuple(record.get("along", ())),
        empty_hand=record.get("empty_hand"),
    )


def record(game: Game, by, *rounds: Mapping[str, Any]) -> list[Round]:
    """Record `rounds` (game record dicts) as the game's next rounds, in order."""
    first = game.rounds.count() + 1
    return [
        game.record_round(entries(entry), by=by, number=number)
        for number, entry in enumerate(rounds, start=first)
    ]


# --- the championship: a whole tournament with every kind of game history -----------------
# The downloads', the archive's and the presets' tests read it (the `championship` fixture).

HELENE, JURGEN, CELIK, DIRK = "Hélène Dubois", "Jürgen Peeters", "Emre Çelik", "Dirk Maes"
ANN, BART, CHRIS, EVA = "Ann Claes", "Bart Janssens", "Chris Wouters", "Eva Smet"


def seat(session: Session, number: int, players: list[Player], referee) -> Table:
    """Table `number` of `session` (and its game), the given players seated 1..n."""
    (table,) = Table.objects.create_with_games(
        [Table(session=session, number=number, referee=referee)]
    )
    for position, player in enumerate(players, start=1):
        Seat.objects.create(table=table, position=position, player=player)
    return table


def hands(**by_initial: int) -> dict[str, int]:
    """The championship's hands by initial: `hands(H=0, J=3)`."""
    names = {"H": HELENE, "J": JURGEN, "C": CELIK, "D": DIRK}
    names |= {"A": ANN, "B": BART, "K": CHRIS, "E": EVA}
    return {names[initial]: hand for initial, hand in by_initial.items()}


def make_championship() -> Tournament:
    """Two sessions under `others_score_hand`, with every kind of game history.

    Session 1, table 1 (signed off): Hélène and Jürgen tie for the win on 0; Çelik is
    reduced 50 → 0 in round 3; Dirk goes above 150.
    Session 1, table 2 (ended at the time limit, provisional): a false Yaniv by Chris, a
    corrected round 3 (Eva went along too), an undone round 4.
    Session 2: table 1 is playing (an emptied hand, a Yaniv with a player along); table 2
    has no round yet. Session 3 is planned, without tables.
    """
    director, ref1, ref2 = make_user("director"), make_user("ref1"), make_user("ref2")
    liege = Club.objects.create(name="Yaniv Club Liège", city="Liège")
    gent = Club.objects.create(name="Yaniv Club Gent", city="Gent")
    tournament = make_tournament(
        name="Championnat de Belgique — Liège",
        slug="bk",
        directors=[director],
        club=liege,
        venue="Salle des fêtes",
        false_yaniv="others_score_hand",
    )
    people = {
        name: Player.objects.create(name=name, club=club, member_number=number)
        for name, club, number in [
            (HELENE, liege, "L-1"),
            (JURGEN, gent, "G-7"),
            (CELIK, gent, ""),
            (DIRK, None, ""),
            (ANN, gent, "G-1"),
            (BART, gent, "G-2"),
            (CHRIS, liege, "L-2"),
            (EVA, None, "E-5"),
        ]
    }
    for name, player in people.items():
        Registration.objects.create(tournament=tournament, player=player, checked_in=name != EVA)
    first = Session.objects.create(tournament=tournament, number=1, status="finished", seed=42)
    second = Session.objects.create(tournament=tournament, number=2, status="running", seed=7)
    Session.objects.create(tournament=tournament, number=3)

    game = seat(first, 1, [people[n] for n in (HELENE, JURGEN, CELIK, DIRK)], ref1).game
    record(
        game,
        ref1,
        {"hands": hands(H=0, J=0, C=9, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=9, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=32, D=45), "yaniv": HELENE},
        {"hands": hands(H=0, J=0, C=7, D=45), "yaniv": HELENE},
    )
    game.sign_off(by=ref1, version=game.version)

    game = seat(first, 2, [people[n] for n in (ANN, BART, CHRIS, EVA)], ref2).game
    record(
        game,
        ref2,
        {"hands": hands(A=3, B=12, K=7, E=20), "yaniv": ANN},
        {"hands": hands(A=6, B=2, K=8, E=14), "yaniv": CHRIS},
        {"hands": hands(A=4, B=15, K=4, E=19), "yaniv": ANN, "along": [CHRIS]},
        {"hands": hands(A=2, B=10, K=10, E=10), "yaniv": ANN},
    )
    corrected = entries(
        {"hands": hands(A=4, B=15, K=4, E=19), "yaniv": ANN, "along": [CHRIS, EVA]}
    )
    game.correct_round(
        3, corrected, by=director, reason="Eva went along too", version=game.version
    )
    game.undo_last_round(by=ref2, reason="entered at the wrong table", version=game.version)
    game.end_at_time_limit(by=director, reason="90 minutes are up", version=game.version)

    game = seat(second, 1, [people[n] for n in (HELENE, ANN, CHRIS, EVA)], ref1).game
    record(
        game,
        ref1,
        {"hands": hands(H=0, A=5, K=12, E=3), "empty_hand": HELENE},
        {"hands": hands(H=3, A=20, K=1, E=8), "yaniv": HELENE, "along": [CHRIS]},
    )
    seat(second, 2, [people[n] for n in (JURGEN, CELIK, DIRK, BART)], None)
    return tournament


def settings_post(page: str, tournament: Tournament, **fields: str) -> dict[str, str]:
    """What the tournament's settings form posts: every field the page shows, empty, then
    the tournament's own required values, then `fields`."""
    post = dict.fromkeys(re.findall(r'name="(\w+)"', page), "")
    post.pop("csrfmiddlewaretoken", None)
    post.update(
        name=tournament.name,
        slug=tournament.slug,
        starts_on="2026-11-21",
        table_size="4",
        session_count="4",
        preset="belgian",
        false_yaniv=tournament.false_yaniv,
        status=tournament.status,
    )
    post.update(fields)
    return post
