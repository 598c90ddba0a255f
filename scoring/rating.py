"""The skill rating: every finished game moves its players' ratings. Pure Python, no Django.

A rating is openskill's Plackett–Luce model (Weng and Lin's Bayesian approximation): each
player's skill is a belief, a mean `mu` and an uncertainty `sigma`, and a finished game is one
whole-table ranking (shared ranks allowed: players on the same final total tie). The model
moves everyone at the table at once, more for players it knew little about (a large sigma)
and more for results it did not expect (beating stronger players). What a page shows is the
library's "ordinal", `mu - 3 sigma`: a skill the player is very likely to be above, which
starts at 0 and climbs as the model learns.

Deterministic: the same games give the same ratings whatever order they were stored or
loaded in. Games are rated in the order of `FinishedGame.order`, the moment the game finished
and then its id (two games finishing in the same microsecond still have one order), and each
table goes to the library sorted by rank and then player id, so that its sums run in one order.

openskill stays behind this module: the rest of the project speaks `Placing`, `FinishedGame`,
`Skill` and `SkillChange`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from openskill.models import PlackettLuce, PlackettLuceRating

# How many sigmas the shown rating stays below the mean (openskill's ordinal, z = 3: the
# player's skill is above it with about 99.7 % confidence).
DISPLAY_SIGMAS = 3.0


@dataclass(frozen=True)
class RatingModel:
    """The model's parameters: openskill's defaults.

    `mu`, `sigma`: a new player's belief; `beta`: how much one game's result varies around
    the skills (luck of the deal); `tau`: added to every sigma before each game, so that a
    rating keeps moving after hundreds of games (a player's skill changes over the years).
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0


DEFAULT_MODEL = RatingModel()


@dataclass(frozen=True)
class Placing:
    """A player's final rank at the table: 1 the winner; players on the same total share it."""

    player: int
    rank: int


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the rating reads it: who finished where, and when it finished."""

    game: int
    finished_at: datetime
    placings: tuple[Placing, ...]

    def __post_init__(self) -> None:
        players = [placing.player for placing in self.placings]
        if len(players) < 2 or len(set(players)) != len(players):
            raise ValueError(f"game {self.game}: a rated game has two or more distinct players")
        if any(placing.rank < 1 for placing in self.placings):
            raise ValueError(f"game {self.game}: ranks start at 1")

    @property
    def order(self) -> tuple[datetime, int]:
        """The game's place in the rating order: when it finished, then its id."""
        return (self.finished_at, self.game)


def ordinal(mu: float, sigma: float) -> float:
    """The rating a page shows for a belief: `mu - 3 sigma`."""
    return mu - DISPLAY_SIGMAS * sigma


@dataclass(frozen=True)
class Skill:
    """A player's rating: the belief (`mu`, `sigma`) and how many games made it."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)


def new_skill(model: RatingModel = DEFAULT_MODEL) -> Skill:
    """A player who has not played a rated game yet."""
    return Skill(model.mu, model.sigma)


@dataclass(frozen=True)
class SkillChange:
    """What one game did to one player's rating, and where they finished in it."""

    player: int
    game: int
    finished_at: datetime
    rank: int
    before: Skill
    after: Skill

    @property
    def delta(self) -> float:
        """How much the skill estimate (mu) moved."""
        return self.after.mu - self.before.mu

    @property
    def rating_delta(self) -> float:
        """How much the shown rating moved (mu and the narrowing sigma together)."""
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Ratings:
    """Every player's rating after a run of games, and each game's changes in rating order."""

    skills: Mapping[int, Skill]
    changes: tuple[SkillChange, ...]


@functools.cache
def _library(model: RatingModel) -> PlackettLuce:
    return PlackettLuce(mu=model.mu, sigma=model.sigma, beta=model.beta, tau=model.tau)


def in_rating_order(games: Iterable[FinishedGame]) -> list[FinishedGame]:
    """The games in the order they are rated (finished_at, then id), however they came."""
    return sorted(games, key=_order)


def _order(game: FinishedGame) -> tuple[datetime, int]:
    return (game.finished_at, game.game)


def rate_game(
    game: FinishedGame, skills: Mapping[int, Skill], model: RatingModel = DEFAULT_MODEL
) -> tuple[SkillChange, ...]:
    """One game's changes, from its players' ratings before it (a missing player is new).

    The whole table is one Plackett–Luce ranking; players sharing a rank are level in it
    (neither beat the other), each moved by their own update.
    """
    at_table = {p.player: skills[p.player] for p in game.placings if p.player in skills}
    return tuple(_Rater(at_table, model).rate(game))


def rate_games(
    games: Iterable[FinishedGame],
    skills: Mapping[int, Skill] | None = None,
    model: RatingModel = DEFAULT_MODEL,
) -> Ratings:
    """Rate `games` in rating order, starting from `skills` (everyone new by default).

    The result's skills are every player's after the last game, those of `skills` who did
    not play included; its changes run in rating order, a game's players by rank and id.
    """
    rater = _Rater(dict(skills or {}), model)
    changes: list[SkillChange] = []
    for game in in_rating_order(games):
        changes.extend(rater.rate(game))
    return Ratings(MappingProxyType(rater.skills), tuple(changes))


def _by_rank(placing: Placing) -> tuple[int, int]:
    return (placing.rank, placing.player)


class _Rater:
    """Rates games one after the other, keeping beside each player's `Skill` the library's
    rating object it came from (made once a player, not once a game: the same numbers)."""

    def __init__(self, skills: dict[int, Skill], model: RatingModel) -> None:
        self.skills = skills
        self.model = model
        self.library = _library(model)
        self.objects: dict[int, PlackettLuceRating] = {}

    def rate(self, game: FinishedGame) -> list[SkillChange]:
        # One order for the table's sums, whatever the seats' order.
        placings = sorted(game.placings, key=_by_rank)
        before: list[Skill] = []
        teams: list[list[PlackettLuceRating]] = []
        for placing in placings:
            skill = self.skills.get(placing.player) or new_skill(self.model)
            before.append(skill)
            # The library's object kept from the player's last game, or one made from their
            # skill: the same numbers either way (this only spares making it again).
            rating = self.objects.get(placing.player)  # pragma: no mutate
            if rating is None:
                rating = self.library.rating(mu=skill.mu, sigma=skill.sigma)
            teams.append([rating])
        rated = self.library.rate(teams, ranks=[float(placing.rank) for placing in placings])
        changes = []
        # Equal lengths by construction: `strict` never fires here.
        for placing, old, (new,) in zip(placings, before, rated, strict=True):  # pragma: no mutate
            after = Skill(new.mu, new.sigma, old.games + 1)
            self.skills[placing.player] = after
            self.objects[placing.player] = new  # pragma: no mutate (a cache: see above)
            changes.append(
                SkillChange(placing.player, game.game, game.finished_at, placing.rank, old, after)
            )
        return changes
