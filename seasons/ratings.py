"""The skill rating on the site: which games count, keeping the stored ratings up to date, and
what a player's page shows of them. The computation is `scoring.rating` (openskill).

- **Which games**: every finished game (ended by the rules or at the time limit: both rank
  every seat by the totals), of public and private tournaments alike, signed off or still
  provisional. A private game rates its players, but a page shows the rows of the games its
  viewer may see: the public tournaments' and, on a tournament's own page, that tournament's.
- **The order**: when the game finished, then its id (`scoring.rating.FinishedGame.order`).
- **Kept up to date** after each change of a finished game (`schedule`, called by the game's
  state changes, queues a background task once their transaction commits; the worker runs
  it, `seasons.tasks.rate_games`): a game finishing after every rated one is
  rated on its own; a game earlier in the order, a corrected or undone one, or one that is
  no longer finished has its rows and every later one rated again from its place on. The
  result equals a full recompute (`recompute`, `manage.py recompute_ratings`).

Every write of the ratings first updates the one `RatingLedger` row: ratings are written one
change at a time (a row lock on PostgreSQL; SQLite's writes take the database's lock first).
"""

from __future__ import annotations

import datetime
import html
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from scoring.rating import FinishedGame, Placing, Skill, SkillChange, rate_games
from seasons.models.ratings import PlayerRating, RatingChange, RatingLedger
from tournaments.models import Game, Player, Seat, Tournament
from tournaments.signals import player_merged

# A finished game without a finishing moment (none since the moment was kept) comes first.
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MIN_GAMES = 5
# How many games a player's page explains one by one (the chart has them all).
LATEST_GAMES = 20

GameOrder = tuple[datetime.datetime, int]


def min_games() -> int:
    """How many rated games a page must be able to show before it shows a rating."""
    return int(getattr(settings, "RATING_MIN_GAMES", MIN_GAMES))


# --- reading the games -------------------------------------------------------------------


def _from_place(point: GameOrder, at: str, game: str) -> Q:
    """Rows at `point` in the rating order or later (a range on `at` an index can serve)."""
    moment, game_id = point
    return Q(**{f"{at}__gte": moment}) & (
        Q(**{f"{at}__gt": moment}) | Q(**{f"{game}__gte": game_id})
    )


def finished_games(
    since: GameOrder | None = None, game_ids: Sequence[int] | None = None
) -> list[FinishedGame]:
    """Every finished game (from `since` on in the rating order; or of `game_ids`): two
    queries, the games' moments and their seats' ranks."""
    games = Game.objects.filter(finished=True)
    if since is not None:
        from_place = _from_place(since, "finished_at", "pk")
        if since[0] == EPOCH:
            # Finished games without their moment are rated first, by id.
            from_place |= Q(finished_at__isnull=True, pk__gte=since[1])
        games = games.filter(from_place)
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    moments = {game: moment or EPOCH for game, moment in games.values_list("pk", "finished_at")}
    placings: dict[int, list[Placing]] = defaultdict(list)
    unranked: set[int] = set()
    for game, player, rank in (
        Seat.objects.filter(table__game__in=games.values("pk"))
        .order_by()
        .values_list("table__game", "player", "rank")
    ):
        if rank is None:
            unranked.add(game)
        else:
            placings[game].append(Placing(player, rank))
    return [
        FinishedGame(game, moment, tuple(placings[game]))
        for game, moment in moments.items()
        # A finished game ranks every seat; one that does not (or seats one player) is not rated.
        if game not in unranked and len(placings[game]) >= 2
    ]


# --- writing the ratings ------------------------------------------------------------------


def _lock() -> None:
    """Take the ratings' lock (the ledger row) and move their version; inside a transaction."""
    moved = {"version": F("version") + 1, "changed_at": timezone.now()}
    if not RatingLedger.objects.filter(pk=1).update(**moved):
        RatingLedger.objects.get_or_create(pk=1)
        RatingLedger.objects.filter(pk=1).update(**moved)


def _insert(changes: Sequence[SkillChange]) -> None:
    """Store the changes as `RatingChange` rows: one INSERT run over every row.

    Written with the driver's executemany rather than bulk_create: building and preparing a
    model instance a row cost five times the rating itself over 40,000 rows.
    """
    if not changes:
        return
    ops = connection.ops
    columns: tuple[str, ...] = ("player_id", "game_id", "at", "rank", "games")
    columns += ("mu_before", "sigma_before", "mu", "sigma")
    moments = {change.finished_at for change in changes}
    stored_moment = {moment: ops.adapt_datetimefield_value(moment) for moment in moments}
    rows = [
        (
            change.player,
            change.game,
            stored_moment[change.finished_at],
            change.rank,
            change.after.games,
            change.before.mu,
            change.before.sigma,
            change.after.mu,
            change.after.sigma,
        )
        for change in changes
    ]
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        ops.quote_name(RatingChange._meta.db_table),
        ", ".join(ops.quote_name(column) for column in columns),
        ", ".join(["%s"] * len(columns)),
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _current(player: int, skill: Skill) -> PlayerRating:
    return PlayerRating(
        player_id=player, mu=skill.mu, sigma=skill.sigma, rating=skill.rating, games=skill.games
    )


@dataclass(frozen=True)
class Recomputed:
    games: int
    players: int


def recompute() -> Recomputed:
    """Every rating again from every finished game, in one transaction (bulk writes)."""
    with transaction.atomic():
        _lock()
        ratings = rate_games(finished_games())
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        _insert(ratings.changes)
        PlayerRating.objects.bulk_create(
            (_current(player, skill) for player, skill in sorted(ratings.skills.items())),
            batch_size=5000,
        )
    return Recomputed(len({change.game for change in ratings.changes}), len(ratings.skills))


def rate_from(point: GameOrder) -> int:
    """Rate every finished game from `point` on in the rating order again, starting from the
    ratings just before it: the same rows as a full recompute. Inside a transaction, locked.
    How many games were rated."""
    later = RatingChange.objects.filter(_from_place(point, "at", "game"))
    start: dict[int, Skill] = {}
    for player, mu, sigma, played in later.order_by("at", "game", "player").values_list(
        "player", "mu_before", "sigma_before", "games"
    ):
        # A player's first row from here on holds their rating just before it.
        start.setdefault(player, Skill(mu, sigma, played - 1))
    later.delete()
    games = finished_games(since=point)
    newcomers = {placing.player for game in games for placing in game.placings} - set(start)
    # Every row of these players is earlier: their current rating is the one before `point`.
    for current in PlayerRating.objects.filter(player__in=newcomers):
        start[current.player_id] = Skill(current.mu, current.sigma, current.games)
    ratings = rate_games(games, start)
    _insert(ratings.changes)
    rated = {player: skill for player, skill in ratings.skills.items() if skill.games}
    if rated:
        PlayerRating.objects.bulk_create(
            [_current(player, skill) for player, skill in sorted(rated.items())],
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["mu", "sigma", "rating", "games"],
        )
    # A player whose only rated games are no longer rated has no rating.
    PlayerRating.objects.filter(player__in=set(ratings.skills) - set(rated)).delete()
    return len(games)


def _out_of_date(game_ids: Sequence[int]) -> list[GameOrder]:
    """The places in the rating order from which `game_ids`' ratings must be made again: a
    rated game's old place, a finished game's new one; none for a game rated as it stands."""
    rated: dict[int, set[tuple[int, int]]] = defaultdict(set)
    rated_at: dict[int, datetime.datetime] = {}
    for game, player, rank, at in RatingChange.objects.filter(game__in=game_ids).values_list(
        "game", "player", "rank", "at"
    ):
        rated[game].add((player, rank))
        rated_at[game] = at
    finished = {game.game: game for game in finished_games(game_ids=game_ids)}
    points: list[GameOrder] = []
    for game in game_ids:
        now = finished.get(game)
        as_it_stands = (
            now is not None
            and rated_at.get(game) == now.finished_at
            and rated[game] == {(placing.player, placing.rank) for placing in now.placings}
        )
        if as_it_stands:
            continue  # e.g. a correction that moved no rank
        if game in rated_at:
            points.append((rated_at[game], game))
        if now is not None:
            points.append(now.order)
    return points


def rate_changed_games(game_ids: Sequence[int]) -> int:
    """Bring the ratings up to date after `game_ids` changed (finished, corrected, undone):
    one transaction. How many games were rated (0: they were up to date)."""
    with transaction.atomic():
        _lock()
        points = _out_of_date(game_ids)
        return rate_from(min(points)) if points else 0


def rate_player_again(player_id: int) -> int:
    """Rate every game from the player's first rated one on again (after a merge made two
    players' rows one player's); one transaction. How many games were rated."""
    with transaction.atomic():
        _lock()
        first = (
            RatingChange.objects.filter(player=player_id)
            .order_by("at", "game")
            .values_list("at", "game")
            .first()
        )
        return rate_from(first) if first else 0


@receiver(player_merged, dispatch_uid="ratings_follow_a_merge")
def _rate_merged_player(sender: Any, into: Player, **kwargs: Any) -> None:
    """Two records of one person became one: their games make one rating again (inside the
    merge's transaction: the merge and its ratings commit together)."""
    rate_player_again(into.pk)


# --- what a player's page shows -------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One rated game on a player's page: how much it moved the rating, and why."""

    change: RatingChange
    table_size: int
    beat: tuple[str, ...]
    lost_to: tuple[str, ...]
    tied_with: tuple[str, ...]

    @property
    def delta(self) -> float:
        # Rounded as shown, without a "-0.0".
        return round(self.change.rating_delta, 1) + 0.0

    @property
    def tournament(self) -> Tournament:
        return self.change.game.table.session.tournament


@dataclass(frozen=True)
class RatingCard:
    """A player's rating as a page shows it, from the games that page may show.

    The shown rating is the one after the last of those games; with fewer than the minimum,
    the page says "Not settled yet" and how many games it has.
    """

    player: Player
    games: int
    minimum: int
    rating: float | None
    mu: float | None
    sigma: float | None
    lines: tuple[GameLine, ...]
    chart: SafeString
    summary: str

    @property
    def provisional(self) -> bool:
        return self.games < self.minimum


def rating_card(
    player: Player, tournament: Tournament | None = None, latest: int = LATEST_GAMES
) -> RatingCard:
    """The rating panel of `player` (templates/seasons/_rating.html), in three queries
    (one while provisional): the games of listed tournaments (public, not drafts) and, when
    the page is one of `tournament` (its viewer may see it), of that tournament too."""
    visible = Q(game__table__session__tournament__in=Tournament.objects.listed())
    if tournament is not None:
        visible |= Q(game__table__session__tournament=tournament)
    rows = RatingChange.objects.filter(visible, player=player)
    history = list(
        rows.order_by("at", "game").values_list("mu_before", "sigma_before", "mu", "sigma")
    )
    minimum = min_games()
    if len(history) < minimum:
        return RatingCard(player, len(history), minimum, None, None, None, (), SafeString(""), "")
    last = history[-1]
    points = [Skill(history[0][0], history[0][1]).rating] + [
        Skill(mu, sigma).rating for _, _, mu, sigma in history
    ]
    shown = list(
        rows.select_related("game__table__session__tournament").order_by("-at", "-game")[:latest]
    )
    at_table: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game, rank, name in (
        RatingChange.objects.filter(game__in=[change.game_id for change in shown])
        .exclude(player=player)
        .order_by("rank", "player__name")
        .values_list("game", "rank", "player__name")
    ):
        at_table[game].append((rank, name))
    lines = []
    for change in shown:
        others, mine = at_table[change.game_id], change.rank
        lines.append(
            GameLine(
                change,
                len(others) + 1,
                beat=tuple(name for rank, name in others if rank > mine),
                lost_to=tuple(name for rank, name in others if rank < mine),
                tied_with=tuple(name for rank, name in others if rank == mine),
            )
        )
    summary = chart_summary(points)
    return RatingCard(
        player,
        len(history),
        minimum,
        Skill(last[2], last[3]).rating,
        last[2],
        last[3],
        tuple(lines),
        rating_svg(points, summary),
        summary,
    )


def chart_summary(points: Sequence[float]) -> str:
    """The chart in words, for everyone (screen readers read it as the image's name)."""
    games = len(points) - 1

    def shown(value: float) -> str:
        # In the reader's language: 25,3 in Dutch and French.
        return number_format(round(value, 1), decimal_pos=1)

    return ngettext(
        "Rating %(last)s after %(games)s game, from %(first)s; highest %(high)s.",
        "Rating %(last)s after %(games)s games, from %(first)s; highest %(high)s.",
        games,
    ) % {
        "last": shown(points[-1]),
        "games": games,
        "first": shown(points[0]),
        "high": shown(max(points[1:])),
    }


def _step(span: float) -> int:
    """A round grid step giving 3 to 6 lines over `span`."""
    for step in (1, 2, 5, 10, 20, 50):
        if span / step <= 6:
            return step
    return 100


def rating_svg(points: Sequence[float], summary: str, *, width: int = 320) -> SafeString:
    """The rating over a player's games as an inline <svg>: a line from the rating before the
    first game through the rating after each one. Attributes only (the CSP forbids inline
    styles), scaling to its container; role=img named by `summary`."""
    font_size, left, right, top, plot_height = 11, 33, 8, 8, 120
    axis = top + plot_height
    height = axis + 2 * font_size + 10
    low = math.floor(min(points))
    high = math.ceil(max(points))
    step = _step(max(1, high - low))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_width = width - left - right
    last = max(1, len(points) - 1)

    def x(game: int) -> float:
        return left + plot_width * game / last

    def y(rating: float) -> float:
        return axis - plot_height * (rating - low) / (high - low)

    parts: list[str] = []
    value = low
    while value <= high:
        parts.append(
            f'<line x1="{left}" y1="{y(value):.1f}" x2="{width - right}" y2="{y(value):.1f}"'
            ' stroke="#dddddd" stroke-width="0.5"/>'
            f'<text x="{left - 4}" y="{y(value) + font_size / 3:.1f}" text-anchor="end"'
            f' font-size="{font_size}" fill="#666666">{value:g}</text>'
        )
        value += step
    games = len(points) - 1
    x_step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if games / s <= 6)
    for number in range(0, games + 1, x_step):
        parts.append(
            f'<text x="{x(number):.1f}" y="{axis + font_size + 3}" text-anchor="middle"'
            f' font-size="{font_size}" fill="#666666">{number}</text>'
        )
    axis_name = html.escape(pgettext("chart axis", "game"))
    parts.append(
        f'<text x="{width - right}" y="{axis + 2 * font_size + 5}" text-anchor="end"'
        f' font-size="{font_size}" fill="#666666">{axis_name}</text>'
    )
    line = " ".join(f"{x(n):.1f},{y(rating):.1f}" for n, rating in enumerate(points))
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="#0072B2" stroke-width="2"'
        ' stroke-linejoin="round"/>'
        f'<circle cx="{x(games):.1f}" cy="{y(points[-1]):.1f}" r="3" fill="#0072B2"/>'
    )
    title = html.escape(gettext("Rating over time"))
    label = html.escape(summary)
    # Every text in it is escaped above.
    return mark_safe(
        f'<svg width="100%" viewBox="0 0 {width} {height}" role="img" aria-label="{label}"'
        ' xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif"'
        f' class="rating-chart"><title>{title}</title>{"".join(parts)}</svg>'
    )
