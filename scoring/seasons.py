"""Season standings from tournaments' final places: pure Python, no Django.

A season groups tournaments. Each tournament gives each player it ranked season points for
their final place, by the scheme the organiser picks, times the tournament's coefficient:

- **placement points**: N − place + 1 among the N players the tournament ranked (the winner
  of a 24-player tournament gets 24, the last 1);
- **a table of points per place**: e.g. 25, 20, 16, 13, 11, 10, …; a place beyond the table
  gets 0.

Players who share a place in a tournament all get that place's points. With "best N", only a
player's N best results count; the others are shown struck through. The order: counted
season points (high first), then more results counted, then the best counted result, then
the second best, and so on; players still equal share the place (1, 1, 3).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

from scoring.errors import gettext_noop

# Bounds of what an organiser may set (a form, an import, the admin: all checked here).
MOST_PLACES = 200  # places in a table of points
MOST_POINTS = 10_000  # points for one place
MOST_BEST_OF = 100  # results counted
COEFFICIENT_LOW, COEFFICIENT_HIGH = Decimal("0.01"), Decimal("100")
CENT = Decimal("0.01")


class Scheme(enum.StrEnum):
    PLACEMENT = "placement"
    TABLE = "table"


SCHEMES = {
    Scheme.PLACEMENT: gettext_noop(
        "Each tournament gives N − place + 1 season points among the N players it ranked "
        "(the winner of 24 players gets 24, the last 1), times its coefficient."
    ),
    Scheme.TABLE: gettext_noop(
        "Each tournament gives the points of the table for the player's final place (a place "
        "beyond the table gets 0), times its coefficient."
    ),
}
SHARED_PLACE = gettext_noop("Players who share a place in a tournament all get its points.")
TIE_BREAKS = (
    gettext_noop("counted season points, high first"),
    gettext_noop("more results counted"),
    gettext_noop("the best counted result, then the second best, and so on"),
)

# What the season computation says about a scheme it cannot use; the site translates by code.
SEASON_MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        "scheme_unknown": gettext_noop("the scheme must be one of %(choices)s"),
        "points_table_empty": gettext_noop("a table of points needs the points of place 1"),
        "points_table_long": gettext_noop("a table of points lists at most %(most)s places"),
        "points_table_number": gettext_noop(
            "place %(place)s: “%(value)s” is not a whole number from 0 to %(most)s"
        ),
        "points_table_rises": gettext_noop(
            "place %(place)s cannot get more points than place %(previous)s"
        ),
        "best_of_range": gettext_noop(
            "the number of results counted must be a whole number from 1 to %(most)s"
        ),
        "coefficient_range": gettext_noop(
            "a coefficient must be a number from %(low)s to %(high)s with at most two decimals"
        ),
        "event_twice": gettext_noop("tournament %(event)s is counted twice"),
    }
)


class SeasonError(ValueError):
    """A scheme, a table of points or a coefficient the season cannot use; `code` picks the
    message (SEASON_MESSAGES), `params` fill it in."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params: Mapping[str, object] = MappingProxyType(params)
        super().__init__(self.message)

    @property
    def template(self) -> str:
        return SEASON_MESSAGES[self.code]

    @property
    def message(self) -> str:
        return self.template % self.params


# --- what goes in ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The organiser's choice: the scheme, its table of points, how many results count."""

    scheme: Scheme = Scheme.PLACEMENT
    points_table: tuple[int, ...] = ()
    best_of: int | None = None  # None: every result counts


@dataclass(frozen=True)
class Placing:
    """One player's final place in one tournament (its standings)."""

    player: Hashable
    place: int
    provisional: bool = False


@dataclass(frozen=True)
class Event:
    """A tournament the season counts, with its coefficient and its final places.

    `provisional`: the tournament is still being played (its places may change).
    """

    key: Hashable
    coefficient: Decimal
    placings: tuple[Placing, ...]
    provisional: bool = False


# --- what comes out --------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """A player's season points from one tournament; `counted` false when struck through."""

    event: Hashable
    place: int
    field: int  # the players that tournament ranked
    points: Decimal
    counted: bool
    provisional: bool


@dataclass(frozen=True)
class SeasonStanding:
    place: int
    player: Hashable
    points: Decimal  # the counted results' sum
    results: tuple[Result, ...]  # in the season's order of tournaments
    provisional: bool  # a counted result may still change

    @property
    def counted(self) -> int:
        return sum(1 for result in self.results if result.counted)

    @property
    def best(self) -> Decimal:
        return max((result.points for result in self.results if result.counted), default=CENT * 0)


# --- the rules, checked ----------------------------------------------------------------------


def read_points_table(text: str) -> tuple[int, ...]:
    """A table of points as an organiser types it: "25, 20, 16 13" → (25, 20, 16, 13)."""
    values = text.replace(",", " ").replace(";", " ").split()
    table = []
    for place, value in enumerate(values, start=1):
        if not value.isdecimal() or len(value) > 6:
            raise SeasonError("points_table_number", place=place, value=value, most=MOST_POINTS)
        table.append(int(value))
    return check_points_table(table)


def check_points_table(table: Sequence[object]) -> tuple[int, ...]:
    """Whole numbers 0…MOST_POINTS, place 1 first, never rising, at most MOST_PLACES."""
    if not table:
        raise SeasonError("points_table_empty")
    if len(table) > MOST_PLACES:
        raise SeasonError("points_table_long", most=MOST_PLACES)
    checked: list[int] = []
    for place, value in enumerate(table, start=1):
        if type(value) is not int or not 0 <= value <= MOST_POINTS:
            raise SeasonError("points_table_number", place=place, value=value, most=MOST_POINTS)
        if checked and value > checked[-1]:
            raise SeasonError("points_table_rises", place=place, previous=place - 1)
        checked.append(value)
    return tuple(checked)


def check_rules(rules: Rules) -> Rules:
    if rules.scheme not in tuple(Scheme):
        raise SeasonError("scheme_unknown", choices=", ".join(Scheme))
    if rules.scheme is Scheme.TABLE:
        check_points_table(rules.points_table)
    best_of = rules.best_of
    if best_of is not None and (type(best_of) is not int or not 1 <= best_of <= MOST_BEST_OF):
        raise SeasonError("best_of_range", most=MOST_BEST_OF)
    return rules


def check_coefficient(value: object) -> Decimal:
    """A tournament's weight: 0.01 to 100, in hundredths (1.5 for a championship)."""
    try:
        coefficient = Decimal(str(value))
    except (InvalidOperation, ValueError):
        coefficient = Decimal(
            # Decimal reads "NaN" in any case: "nan" and "NAN" are the same value.
            "NaN"  # pragma: no mutate
        )
    if (
        not coefficient.is_finite()
        or not COEFFICIENT_LOW <= coefficient <= COEFFICIENT_HIGH
        or coefficient != coefficient.quantize(CENT)
    ):
        raise SeasonError(
            "coefficient_range", low=str(COEFFICIENT_LOW), high=str(COEFFICIENT_HIGH)
        )
    return coefficient


# --- one result ------------------------------------------------------------------------------


def placement_points(place: int, field: int) -> int:
    """N − place + 1 among N players: the winner gets N, the last 1."""
    return max(field - place + 1, 0)


def table_points(place: int, table: Sequence[int]) -> int:
    """The table's points for the place; 0 beyond it."""
    return table[place - 1] if 1 <= place <= len(table) else 0


def base_points(rules: Rules, place: int, field: int) -> int:
    if rules.scheme is Scheme.TABLE:
        return table_points(place, rules.points_table)
    return placement_points(place, field)


def season_points(rules: Rules, place: int, field: int, coefficient: Decimal) -> Decimal:
    """The season points of a final place: the scheme's points times the coefficient."""
    return (base_points(rules, place, field) * coefficient).quantize(CENT)


def counted(points: Sequence[Decimal], best_of: int | None) -> list[bool]:
    """Which of a player's results count: the `best_of` highest (all without a limit).

    Among equal points the earlier tournament counts: the sum is the same either way, and a
    result never moves from counted to struck through as later tournaments are added with
    fewer points.
    """
    # No more results than `best_of`: the best `best_of` below are every one of them.
    if best_of is None:
        return [True] * len(points)
    order = sorted(range(len(points)), key=lambda index: (-points[index], index))
    kept = set(order[:best_of])
    return [index in kept for index in range(len(points))]


# --- the season ------------------------------------------------------------------------------


def results_by_player(rules: Rules, events: Iterable[Event]) -> dict[Hashable, list[Result]]:
    """Every player's results, in the events' order, counted or struck through."""
    seen: set[Hashable] = set()
    raw: dict[Hashable, list[tuple[Event, Placing, int]]] = {}
    for event in events:
        if event.key in seen:
            raise SeasonError("event_twice", event=event.key)
        seen.add(event.key)
        field = len(event.placings)
        for placing in event.placings:
            raw.setdefault(placing.player, []).append((event, placing, field))
    by_player: dict[Hashable, list[Result]] = {}
    for player, entries in raw.items():
        points = [
            season_points(rules, placing.place, field, event.coefficient)
            for event, placing, field in entries
        ]
        kept = counted(points, rules.best_of)
        # A value and a verdict an entry, by construction: strict or not, the same triples.
        scored = zip(entries, points, kept, strict=True)  # pragma: no mutate
        by_player[player] = [
            Result(
                event=event.key,
                place=placing.place,
                field=field,
                points=value,
                counted=keep,
                provisional=event.provisional or placing.provisional,
            )
            for (event, placing, field), value, keep in scored
        ]
    return by_player


def _order(results: Sequence[Result]) -> tuple[Decimal, int, tuple[Decimal, ...]]:
    """What ranks a player: counted points, results counted, counted results best first."""
    kept = sorted((result.points for result in results if result.counted), reverse=True)
    return (sum(kept, CENT * 0), len(kept), tuple(kept))


def season_standings(rules: Rules, events: Sequence[Event]) -> list[SeasonStanding]:
    """Rank the players of the season's tournaments (see the module's docstring)."""
    check_rules(rules)
    by_player = results_by_player(rules, events)
    keyed = {player: _order(results) for player, results in by_player.items()}

    def sort_key(player: Hashable) -> tuple[object, ...]:
        total, count, kept = keyed[player]
        # High first: negate; the results best first compare as a tuple of negatives.
        return (-total, -count, tuple(-value for value in kept), str(player))

    placed: list[SeasonStanding] = []
    # The first player always differs from `previous` and sets `place`: their starting
    # values are never read.
    previous: tuple[Decimal, int, tuple[Decimal, ...]] | None = None  # pragma: no mutate
    place = 0  # pragma: no mutate
    for index, player in enumerate(sorted(by_player, key=sort_key), start=1):
        order = keyed[player]
        if order != previous:
            place, previous = index, order
        results = tuple(by_player[player])
        placed.append(
            SeasonStanding(
                place=place,
                player=player,
                points=order[0],
                results=results,
                provisional=any(r.provisional for r in results if r.counted),
            )
        )
    return placed
