"""A player's Yaniv statistics across games, tournaments and seasons (issue 38.5): public data
only, like the rest of a player's page (`seasons.profiles`).

Only listed tournaments count (public, not a draft): a private tournament's hands never reach a
player's statistics, not even as a number. Every recorded round of those tournaments counts,
of finished games and of games still being played. The figures are `scoring.statistics`' fold
of the player's hands (`tournaments.statistics.hand_lines`), gathered by tournament; a
season's are those of its tournaments the player played, the career's all of them.

Three queries, whatever the player's history: the hands, their tournaments, the public seasons
counting those tournaments (`bench statistics` measures them at 10,000 games).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.statistics import YanivStats, gather, total
from seasons.models import Season, SeasonTournament
from tournaments.models import Hand, Player, Tournament
from tournaments.statistics import hand_lines


@dataclass(frozen=True)
class TournamentFigures:
    tournament: Tournament
    stats: YanivStats


@dataclass(frozen=True)
class SeasonFigures:
    season: Season
    stats: YanivStats
    tournaments: int


@dataclass(frozen=True)
class PlayerStatistics:
    """The player's figures: in all, per season (by name) and per tournament (latest first)."""

    player: Player
    overall: YanivStats
    tournaments: list[TournamentFigures]
    seasons: list[SeasonFigures]


def player_hands(player: Player):
    """The player's hands in the listed tournaments."""
    return Hand.objects.filter(
        seat__player=player, seat__table__session__tournament__in=Tournament.objects.listed()
    )


def player_statistics(player: Player) -> PlayerStatistics:
    """The player's statistics (all zero without a hand in a listed tournament)."""
    by_tournament = gather(hand_lines(player_hands(player)))
    tournaments = sorted(
        Tournament.objects.filter(pk__in=by_tournament),
        key=lambda tournament: (tournament.starts_on, tournament.name),
        reverse=True,
    )
    lines = [TournamentFigures(t, by_tournament[t.pk]) for t in tournaments]
    entries: dict[int, list[int]] = {}
    seasons: dict[int, Season] = {}
    for entry in SeasonTournament.objects.filter(
        season__in=Season.objects.listed(), tournament_id__in=by_tournament
    ).select_related("season"):
        seasons[entry.season_id] = entry.season
        entries.setdefault(entry.season_id, []).append(entry.tournament_id)
    season_lines = [
        SeasonFigures(
            season,
            total(by_tournament[pk] for pk in entries[season.pk]),
            len(entries[season.pk]),
        )
        for season in sorted(seasons.values(), key=lambda season: season.name.casefold())
    ]
    return PlayerStatistics(
        player=player,
        overall=total(by_tournament.values()),
        tournaments=lines,
        seasons=season_lines,
    )
