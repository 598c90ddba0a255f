"""Who may see what, as queries, and who directs: the rules' shared parts. Each model's own
queryset (`TournamentQuerySet`, `PlayerQuerySet`, `ClubQuerySet`, the seasons' `SeasonQuerySet`)
stands beside its model and builds on these.

`Model.objects.visible_to(user)` is what `user` may open (a private tournament's name stays
hidden from everyone else); `Model.objects.listed()` is what the public lists show — the home
page, a player's and a club's page, the API: public tournaments that are not drafts, the
players seen in them, the public seasons. A draft opens by its address for whoever knows it
(`tournaments.access.can_view`, the per-object form of `visible_to`) but is listed nowhere.

This module comes before every other model module: the models a rule names beside its own are
looked up by name when a query is built, so no import runs in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, TypeVar

from django.apps import apps
from django.db import models, transaction
from django.db.models import Q

_Directed = TypeVar("_Directed", bound="Directed")


def model_named(name: str) -> Any:
    return apps.get_model("tournaments", name)


def sees_everything(user: Any) -> bool:
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
        if sees_everything(user):
            return self
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=self._directed_by(user))

    def public_or_directed_by(self, user: Any) -> Self:
        """The public ones and those `user` directs (every one for a superuser)."""
        if sees_everything(user):
            return self
        if not user.is_authenticated:
            return self.filter(is_public=True)
        return self.filter(Q(is_public=True) | Q(pk__in=self._directed_by(user)))

    def _directed_by(self, user: Any) -> models.QuerySet[Any]:
        # A subquery, not a join: no duplicate rows, no DISTINCT.
        return self.model._default_manager.filter(directors=user.pk).values("pk")
