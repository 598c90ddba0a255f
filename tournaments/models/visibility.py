"""Who may see what, as queries, and who directs: the one copy of each rule.

`Model.objects.visible_to(user)` is what `user` may open (a private tournament's name stays
hidden from everyone else); `Model.objects.listed()` is what the public lists show — the home
page, a player's and a club's page, the API: public tournaments that are not drafts, the
players seen in them, the public seasons. A draft opens by its address for whoever knows it
(`tournaments.access.can_view`, the per-object form of `visible_to`) but is listed nowhere.

This module comes before every other model module (`people` imports it): the models it
names are looked up by name when a query is built, so no import runs in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, TypeVar

from django.apps import apps
from django.db import models, transaction
from django.db.models import Exists, OuterRef, Q

if TYPE_CHECKING:
    # For the type checker alone (the querysets' item types, named in quotes below): at run
    # time these modules import this one.
    from tournaments.models.people import Club, Player  # noqa: F401
    from tournaments.models.tournaments import Tournament  # noqa: F401

_Directed = TypeVar("_Directed", bound="Directed")


def _model(name: str) -> Any:
    return apps.get_model("tournaments", name)


def _sees_everything(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_superuser)


class Directed(models.Model):
    """A tournament or a season: run by its directors (a season's organisers), public or not.
    Each model declares its own `directors` and `is_public` (their related names and help
    texts differ)."""

    if TYPE_CHECKING:
        directors: Any
        is_public: bool

    class Meta:
        abstract = True

    def is_director(self, user: Any) -> bool:
        if not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        # Asked several times per request (permission check, page controls).
        known = self.__dict__.setdefault("_directors_known", {})
        if user.pk not in known:
            known[user.pk] = self.directors.filter(pk=user.pk).exists()
        return bool(known[user.pk])

    def forget_directors(self) -> None:
        """After the directors changed: `is_director` asks again."""
        self.__dict__.pop("_directors_known", None)

    def save_with_director(self, user: Any) -> None:
        """Save a new one with `user` as its first director, in one transaction."""
        with transaction.atomic():
            self.save()
            self.directors.add(user)
        self.forget_directors()


class DirectedQuerySet(models.QuerySet[_Directed]):
    def directed_by(self, user: Any) -> Self:
        """Those `user` directs (every one for a superuser, none without an account)."""
        if _sees_everything(user):
            return self
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=self._directed_by(user))

    def public_or_directed_by(self, user: Any) -> Self:
        """The public ones and those `user` directs (every one for a superuser)."""
        if _sees_everything(user):
            return self
        if not user.is_authenticated:
            return self.filter(is_public=True)
        return self.filter(Q(is_public=True) | Q(pk__in=self._directed_by(user)))

    def _directed_by(self, user: Any) -> models.QuerySet[Any]:
        # A subquery, not a join: no duplicate rows, no DISTINCT.
        return self.model._default_manager.filter(directors=user.pk).values("pk")


class TournamentQuerySet(DirectedQuerySet["Tournament"]):
    def listed(self) -> Self:
        """What the public lists show: public and not a draft."""
        return self.filter(is_public=True).exclude(status=self.model.Status.DRAFT)

    def visible_to(self, user: Any) -> Self:
        """`access.can_view` as a query: the public tournaments, and for an account the ones
        it directs or referees a table of (every one for a superuser)."""
        if _sees_everything(user) or not user.is_authenticated:
            return self.public_or_directed_by(user)
        refereed = _model("Table").objects.filter(referee_id=user.pk)
        return self.filter(
            Q(is_public=True)
            | Q(pk__in=self._directed_by(user))
            | Q(pk__in=refereed.values("session__tournament_id"))
        )

    def countable_by(self, user: Any) -> Self:
        """`access.can_count_in_season` as a query: the public tournaments (their results are
        public) and the private ones `user` directs."""
        return self.public_or_directed_by(user)


class SeasonQuerySet(DirectedQuerySet["Season"]):
    def listed(self) -> Self:
        return self.filter(is_public=True)

    def visible_to(self, user: Any) -> Self:
        """`access.can_view_season` as a query: the public seasons and the user's own."""
        return self.public_or_directed_by(user)


class PlayerQuerySet(models.QuerySet["Player"]):
    def seen_in(self, tournaments: models.QuerySet[Any]) -> Self:
        """The players registered or seated in one of `tournaments`."""
        return self.filter(
            Exists(
                _model("Registration").objects.filter(
                    player=OuterRef("pk"), tournament__in=tournaments
                )
            )
            | Exists(
                _model("Seat").objects.filter(
                    player=OuterRef("pk"), table__session__tournament__in=tournaments
                )
            )
        )

    def listed(self) -> Self:
        """The players of a listed tournament: who has a public profile."""
        return self.seen_in(_model("Tournament").objects.listed())

    def visible_to(self, user: Any) -> Self:
        """The players of a tournament `user` may see: a player of another director's private
        tournament alone stays unseen (in the known players' search too)."""
        if _sees_everything(user):
            return self
        return self.seen_in(_model("Tournament").objects.visible_to(user))


class ClubQuerySet(models.QuerySet["Club"]):
    def visible_to(self, user: Any) -> Self:
        """The clubs `user` may pick or see named: those of a tournament, player or season
        they may see, and the clubs tied to none (an administrator's, for everyone). A club
        known only from other directors' private tournaments stays unseen, in every select
        and list."""
        if _sees_everything(user):
            return self
        tournament, season, player = (_model(name) for name in ("Tournament", "Season", "Player"))
        registration, seat = _model("Registration"), _model("Seat")
        # No NULLs in the subqueries: an IN list with a NULL cannot be negated.
        tournaments = tournament.objects.visible_to(user).filter(club__isnull=False)
        players = player.objects.visible_to(user).filter(club__isnull=False)
        seasons = season.objects.visible_to(user).filter(club__isnull=False)
        tied = (
            Exists(tournament.objects.filter(club=OuterRef("pk")))
            | Exists(season.objects.filter(club=OuterRef("pk")))
            | Exists(registration.objects.filter(player__club=OuterRef("pk")))
            | Exists(seat.objects.filter(player__club=OuterRef("pk")))
        )
        return self.filter(
            Q(pk__in=tournaments.values("club_id"))
            | Q(pk__in=players.values("club_id"))
            | Q(pk__in=seasons.values("club_id"))
            | ~tied
        )
