"""The skill rating as stored: a row per player per rated game, and each player's current one.

The rows are the history: a player's rating after every game, with the belief before it
and their rank at the table, so "how much it moved and why" is read off rows (the other rows
of the same game are who they beat and who beat them). `PlayerRating` is the last row of
each player, kept beside it for lists and the profile. `seasons.ratings` writes them all
(scoring.rating computes); nothing else does. See docs/rating.md.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.rating import ordinal
from tournaments.models.games import Game
from tournaments.models.people import Player


class RatingChange(models.Model):
    """What one rated game did to one player's rating."""

    # Indexed by the player's history and the game's constraint below, not each on its own:
    # a recompute writes 40,000 rows and every index costs it.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
        db_index=False,
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("game"),
        db_index=False,
    )
    # The game's place in the rating order (with the game's id): when it finished, as rated.
    at = models.DateTimeField(_("finished at"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    # The player's rated games up to and including this one.
    games = models.PositiveIntegerField(_("games"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_ratingchange"
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            # Also the index of a game's rows.
            models.UniqueConstraint(fields=["game", "player"], name="one_rating_change_a_game"),
            models.CheckConstraint(
                condition=Q(sigma__gt=0, sigma_before__gt=0, games__gte=1, rank__gte=1),
                name="rating_change_is_a_belief",
            ),
        ]
        indexes = [
            # A recompute from a game on reads and deletes the rows from its place on.
            models.Index(fields=["at", "game"], name="rating_changes_in_order"),
            # A player's history.
            models.Index(fields=["player", "at", "game"], name="rating_history_of_a_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.game}: {self.rating:.1f}"

    @property
    def delta(self) -> float:
        """How much the skill estimate (mu) moved in this game."""
        return self.mu - self.mu_before

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def rating_before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def rating_delta(self) -> float:
        """How much the shown rating moved in this game."""
        return self.rating - self.rating_before


class PlayerRating(models.Model):
    """A player's current rating: their last `RatingChange`, kept for lists and pages."""

    player = models.OneToOneField(
        Player,
        on_delete=models.CASCADE,
        primary_key=True,
        # Hidden: a merge of two players moves their rows (`Player.merge_into` follows every
        # visible relation), while a current rating is never moved but made again (below).
        related_name="+",
        verbose_name=_("player"),
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma, stored to order a list of players by it.
    rating = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("rated games"))

    class Meta:
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_playerrating"
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=Q(sigma__gt=0, games__gte=1), name="player_rating_is_a_belief"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.1f} ({self.games} games)"


class RatingLedger(models.Model):
    """One row: every change of the ratings writes it first (a lock: ratings are written one
    change at a time), and its version moves with every change (for caches and pages)."""

    version = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # Moved from the tournaments app: the table keeps its name.
        db_table = "tournaments_ratingledger"
        verbose_name = _("rating ledger")
        constraints = [
            models.CheckConstraint(condition=Q(pk=1), name="one_rating_ledger"),
        ]

    def __str__(self) -> str:
        return f"ratings, version {self.version}"
