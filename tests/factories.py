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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from scoring import rules
from scoring.models import Game, Round
from tournaments.models import Player, Seat, Session, Table, Tournament

PASSWORD = "a-long-test-password"

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
    table = Table.objects.create(
        session=session, number=session.tables.count() + 1, referee=referee
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
