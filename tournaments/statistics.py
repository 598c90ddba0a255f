"""The statistics' reads (issue 38.5): the stored hands as `scoring.statistics` folds them, and a
tournament's facts in the site's words, kept by the standings' version.

Nothing is entered for the statistics: every figure comes from the hands the referees typed and
the engine's points cached on them (`Hand`). One query reads a set of hands as plain tuples in
the order of `scoring.statistics.HandLine`, game by game and round by round.

A tournament's facts (the most Yaniv calls held, the best comeback, …) are of its finished
games: they change only when the standings do, so they are computed once per version of the
standings (`Tournament.standings_version`, which every change of a finished game and of a
session moves, a player renamed included) and kept in the shared cache; the tournament page and
the hall read them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, cast

from django.core.cache import cache
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString

from scoring import statistics
from scoring.statistics import PLAYER, YanivStats
from tournaments import caching
from tournaments.models import Game, Hand, Player, Tournament

# A hand as `scoring.statistics.HandLine` reads it: the tournament is its group.
HAND_LINE = (
    "seat__table__session__tournament_id",
    "round__game_id",
    "round__number",
    "round__kind",
    "round__caller_id",
    "round__empty_hand_id",
    "seat_id",
    "seat__player_id",
    "hand_total",
    "along",
    "points",
    "reduction",
    "total",
)


def hand_lines(hands: QuerySet[Hand]) -> list[tuple[Any, ...]]:
    """The hands as the statistics fold them (one query): plain tuples in `HAND_LINE`'s
    order, game by game, each game's rounds in order."""
    return list(hands.order_by("round__game_id", "round__number").values_list(*HAND_LINE))


def finished_hands(tournament: Tournament) -> QuerySet[Hand]:
    return Hand.objects.filter(
        seat__table__session__tournament=tournament, round__game__finished=True
    )


def tournament_statistics(tournament: Tournament) -> dict[int, YanivStats]:
    """Each player's figures in the tournament, from every round recorded (one query)."""
    hands = Hand.objects.filter(seat__table__session__tournament=tournament)
    return statistics.gather(hand_lines(hands), by=PLAYER)  # type: ignore[return-value]


def figures_data(stats: YanivStats) -> dict[str, Any]:
    """A player's figures as plain data: the API and the archive write them so (counts, the
    hands by fives as a list, the averages to two decimals or null)."""
    data: dict[str, Any] = {field.name: getattr(stats, field.name) for field in fields(stats)}
    data["hand_bins"] = list(stats.hand_bins)
    data["average_hand"] = _two_decimals(stats.average_hand)
    data["average_call"] = _two_decimals(stats.average_call)
    return data


def _two_decimals(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 2)


# --- a tournament's facts -------------------------------------------------------------------


@dataclass(frozen=True)
class ShownFact:
    """A fact as the pages tell it: the players by name (alphabetical) and, for a fact of
    one game, its session and table (`scoring.statistics.Fact`)."""

    code: str
    value: int | float
    names: tuple[str, ...]
    players: tuple[int, ...]
    session: int | None = None
    table: int | None = None
    round: int | None = None


def tournament_facts(tournament: Tournament) -> tuple[ShownFact, ...]:
    """The facts of the tournament's finished games, kept per version of its standings (no
    query when kept; three when not: the hands, the players' names, the games' tables)."""
    name = f"facts:{caching.generation()}:{tournament.pk}:{tournament.standings_version}"
    kept = cache.get(name)
    if kept is None:
        kept = shown_facts(statistics.facts(hand_lines(finished_hands(tournament))))
        cache.set(name, kept, caching.FRAGMENT_SECONDS)
    return kept


def shown_facts(facts: tuple[statistics.Fact, ...]) -> tuple[ShownFact, ...]:
    """The facts with the players' names and the games' session and table numbers."""
    players = {pk for fact in facts for pk in fact.players}
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    games = {fact.game for fact in facts if fact.game is not None}
    tables = {
        pk: (session, table)
        for pk, session, table in Game.objects.filter(pk__in=games).values_list(
            "pk", "table__session__number", "table__number"
        )
    }
    shown = []
    for fact in facts:
        session, table = tables.get(cast(int, fact.game), (None, None))
        tied = sorted(
            (cast(int, pk) for pk in fact.players),
            key=lambda pk: (names.get(pk, "").casefold(), pk),
        )
        value = float(fact.value) if isinstance(fact.value, Fraction) else fact.value
        shown.append(
            ShownFact(
                code=fact.code,
                value=value,
                names=tuple(names.get(pk, "") for pk in tied),
                players=tuple(tied),
                session=session,
                table=table,
                round=fact.round,
            )
        )
    return tuple(shown)


def facts_part(request: HttpRequest, tournament: Tournament) -> SafeString:
    """The tournament page's facts (templates/tournaments/_facts.html), rendered once per
    version of the standings and language (`caching.part`)."""
    return caching.part(
        request,
        "tournaments/_facts.html",
        ("facts", tournament.pk, tournament.standings_version, caching.stamp(tournament)),
        lambda: {"tournament": tournament, "facts": tournament_facts(tournament)},
    )


def lazy_facts_part(request: HttpRequest, tournament: Tournament) -> Any:
    """`facts_part`, rendered only if the page shows it (not in a poll's live part)."""
    return SimpleLazyObject(lambda: facts_part(request, tournament))


def fact_data(fact: ShownFact) -> dict[str, Any]:
    """A fact as plain data (the API, the archive)."""
    return {
        "code": fact.code,
        "value": fact.value,
        "players": [
            {"id": pk, "name": name} for pk, name in zip(fact.players, fact.names, strict=True)
        ],
        "session": fact.session,
        "table": fact.table,
        "round": fact.round,
    }
