"""A player across tournaments, and a club: what their public pages show, read in a few queries.

Only listed tournaments count, everywhere here (`Tournament.objects.listed()`: public, not a
draft): a private tournament's or a draft's places, games, table-mates and season points never
reach a profile or a club page, not even as a number. A player who played in no listed
tournament has no public profile (404), and a club with nothing listed (no listed tournament, no
member seen in one, no public season) has no page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q

from scoring import seasons as season_rules
from scoring import standings
from seasons.models import Season
from seasons.models.seasons import (
    SeasonRow,
    SeasonTable,
    final_places,
    finished_seats_of,
    season_tables,
)
from tournaments.models import Club, Player, Seat, Tournament

# How many table-mates the profile lists, and the most lines of a season on a club's page.
RIVALS_SHOWN = 10
SEASON_LINES_ON_CLUB_PAGE = 20


# --- a player ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonPoints:
    """What one tournament gave the player in one season."""

    season: Season
    result: season_rules.Result


@dataclass
class TournamentLine:
    """A public tournament the player played: their final place among how many, their games
    (seats, in order) and the season points it gave them."""

    tournament: Tournament
    standing: standings.Standing | None
    field: int
    # `field` is the number of players above: the dataclasses function is spelt in full.
    games: list[Seat] = dataclasses.field(default_factory=list)
    seasons: list[SeasonPoints] = dataclasses.field(default_factory=list)


@dataclass(frozen=True)
class Rival:
    """A table-mate and how their finished games together went: the player finished above
    them (`above`), below them, or level."""

    player: Player
    games: int
    above: int
    below: int
    level: int


@dataclass(frozen=True)
class Profile:
    player: Player
    tournaments: list[TournamentLine]
    rivals: list[Rival]
    seasons: list[tuple[SeasonTable, SeasonRow]]

    @property
    def game_count(self) -> int:
        return sum(len(line.games) for line in self.tournaments)

    @property
    def wins(self) -> int:
        return sum(
            1
            for line in self.tournaments
            for seat in line.games
            if seat.table.game.finished and seat.rank == 1
        )


def rivals(player_id: int, seats: Sequence[standings.FinishedSeat]) -> dict[int, list[int]]:
    """Table-mate id → [games together, finished above them, below them, level], from the
    finished seats given (the player's and everyone else's)."""
    by_table: dict[object, list[standings.FinishedSeat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table, []).append(seat)
    met: dict[int, list[int]] = {}
    for table_seats in by_table.values():
        mine = next((seat for seat in table_seats if seat.player == player_id), None)
        if mine is None:
            continue
        for other in table_seats:
            if other.player == player_id:
                continue
            tally = met.setdefault(other.player, [0, 0, 0, 0])  # type: ignore[arg-type]
            tally[0] += 1
            if mine.rank < other.rank:
                tally[1] += 1
            elif mine.rank > other.rank:
                tally[2] += 1
            else:
                tally[3] += 1
    return met


def player_profile(player: Player) -> Profile | None:
    """The player's public record (None: no public tournament), in a constant number of
    queries: the tournaments, their finished seats, the player's games, the table-mates, the
    seasons and the other tournaments of those seasons."""
    tournaments = list(
        Tournament.objects.listed()
        .filter(Q(registrations__player=player) | Q(sessions__tables__seats__player=player))
        .distinct()
        .select_related("club")
        .order_by("-starts_on", "name")
    )
    if not tournaments:
        return None
    ids = [tournament.pk for tournament in tournaments]
    seats_by_tournament = finished_seats_of(ids)
    places = final_places(ids, seats_by_tournament)
    lines = {
        tournament.pk: TournamentLine(
            tournament=tournament,
            standing=next((s for s in places[tournament.pk] if s.player == player.pk), None),
            field=len(places[tournament.pk]),
        )
        for tournament in tournaments
    }
    for seat in (
        Seat.objects.filter(player=player, table__session__tournament_id__in=ids)
        .select_related("table__session", "table__game")
        .order_by("table__session__number", "table__number")
    ):
        lines[seat.table.session.tournament_id].games.append(seat)

    met = rivals(player.pk, [seat for seats in seats_by_tournament.values() for seat in seats])
    closest = sorted(met.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))
    closest = closest[:RIVALS_SHOWN]
    names = Player.objects.select_related("club").in_bulk([pk for pk, _ in closest])
    rival_list = [
        Rival(names[pk], games, above, below, level)
        for pk, (games, above, below, level) in closest
    ]

    season_list = list(
        Season.objects.listed().filter(tournaments__in=ids).distinct().order_by("name")
    )
    tables = season_tables(season_list, places=places)
    season_lines = []
    for season in season_list:
        table = tables[season.pk]
        row = table.row_of(player.pk)
        if row is None:
            continue
        season_lines.append((table, row))
        for result in row.standing.results:
            line = lines.get(result.event)  # type: ignore[call-overload]
            if line is not None:
                line.seasons.append(SeasonPoints(season, result))
    return Profile(
        player=player,
        tournaments=[lines[pk] for pk in ids],
        rivals=rival_list,
        seasons=season_lines,
    )


# --- a club ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubPage:
    club: Club
    members: list[Player]
    tournaments: list[Tournament]  # championships and other tournaments with referees
    club_nights: list[Tournament]  # tournaments whose rounds come through table codes
    seasons: list[SeasonTable]

    @property
    def empty(self) -> bool:
        return not (self.members or self.tournaments or self.club_nights or self.seasons)


def club_page(club: Club) -> ClubPage:
    """What the club's page shows, public only (four queries, and three for its seasons)."""
    members = list(Player.objects.listed().filter(club=club).order_by("name", "pk"))
    organised = list(Tournament.objects.listed().filter(club=club).order_by("-starts_on", "name"))
    season_list = list(Season.objects.listed().filter(club=club).order_by("-created_at"))
    tables = season_tables(season_list)
    return ClubPage(
        club=club,
        members=members,
        tournaments=[t for t in organised if t.entry != Tournament.Entry.TABLE_CODES],
        club_nights=[t for t in organised if t.entry == Tournament.Entry.TABLE_CODES],
        seasons=[tables[season.pk] for season in season_list],
    )
