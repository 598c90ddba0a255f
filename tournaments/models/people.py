"""The people of the game: clubs and players, shared by every tournament they play in."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import and_
from typing import Any, Self

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import names
from tournaments.errors import Refused
from tournaments.models.visibility import model_named, sees_everything
from tournaments.signals import player_merged

# Unicode's explicit direction marks and controls (LRM, RLM, ALM, LRE…RLO, LRI…PDI): a name may
# hold right-to-left letters, never a control that turns the text after it around (a right-to-
# left override made a score of 12 read "21" on the tournament page).
DIRECTION_CONTROLS = "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def clean_name(text: str) -> str:
    """A name as it is stored: no direction controls, no outer spaces, single inner spaces."""
    return " ".join(text.translate(dict.fromkeys(map(ord, DIRECTION_CONTROLS))).split())


def has_direction_controls(text: str) -> bool:
    return any(mark in text for mark in DIRECTION_CONTROLS)


def refuse_direction_controls(text: str) -> None:
    """A form's check: a direction control is refused where it was typed (the database
    refuses it too, with no word the user would understand)."""
    if has_direction_controls(text):
        raise ValidationError(
            gettext(
                "Remove the text-direction control character (such as U+202E, right-to-left "
                "override): it turns the text after it around."
            ),
            code="direction_control",
        )


def direction_control_error(column: str) -> str:
    """A CSV row's error (lower case, as the preview's other reasons)."""
    return gettext(
        "the %(column)s holds a text-direction control character (such as U+202E): "
        "type it again without it"
    ) % {"column": column}


def _no_direction_controls(field: str) -> Q:
    return reduce(and_, (~Q(**{f"{field}__contains": mark}) for mark in DIRECTION_CONTROLS))


class PlayerQuerySet(models.QuerySet["Player"]):
    def seen_in(self, tournaments: models.QuerySet[Any]) -> Self:
        """The players registered or seated in one of `tournaments`."""
        return self.filter(
            Exists(
                model_named("Registration").objects.filter(
                    player=OuterRef("pk"), tournament__in=tournaments
                )
            )
            | Exists(
                model_named("Seat").objects.filter(
                    player=OuterRef("pk"), table__session__tournament__in=tournaments
                )
            )
        )

    def listed(self) -> Self:
        """The players of a listed tournament: who has a public profile."""
        return self.seen_in(model_named("Tournament").objects.listed())

    def visible_to(self, user: Any) -> Self:
        """The players of a tournament `user` may see: a player of another director's private
        tournament alone stays unseen (in the known players' search too)."""
        if sees_everything(user):
            return self
        return self.seen_in(model_named("Tournament").objects.visible_to(user))


class ClubQuerySet(models.QuerySet["Club"]):
    def visible_to(self, user: Any) -> Self:
        """The clubs `user` may pick or see named: those of a tournament, player or season
        they may see, and the clubs tied to none (an administrator's, for everyone). A club
        known only from other directors' private tournaments stays unseen, in every select
        and list."""
        if sees_everything(user):
            return self
        tournament, player = model_named("Tournament"), model_named("Player")
        # The seasons (an app above this one) through the clubs' reverse relation.
        season: Any = self.model._meta.get_field("seasons").related_model
        registration, seat = model_named("Registration"), model_named("Seat")
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


class Club(models.Model):
    name = models.CharField(
        _("name"), max_length=120, unique=True, validators=[refuse_direction_controls]
    )
    city = models.CharField(_("city"), max_length=120, blank=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(
                condition=_no_direction_controls("name"),
                name="club_name_has_no_direction_controls",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = clean_name(self.name)
        super().save(*args, **kwargs)


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[refuse_direction_controls])
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        verbose_name=_("club"),
    )
    member_number = models.CharField(
        _("member number"), max_length=40, blank=True, validators=[refuse_direction_controls]
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # The federation's member number is the person, whatever their club (a player
            # changes club and keeps it); players without one are told apart by name and club.
            models.UniqueConstraint(
                fields=["member_number"],
                condition=~Q(member_number=""),
                name="unique_member_number",
                violation_error_message=_("This member number is already another player's."),
            ),
            models.CheckConstraint(
                condition=_no_direction_controls("name"),
                name="player_name_has_no_direction_controls",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = clean_name(self.name)
        if self._state.adding:
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            super().save(*args, **kwargs)
            self._shown_anew()

    def _shown_anew(self) -> None:
        """A name or club corrected shows at once: the sessions this player sits in and the
        sessions of the tournaments they are registered in change, and with them the
        versions the pages, their polls and their kept parts go by (no game counts a name)."""
        session_model = apps.get_model("tournaments", "Session")
        session_model.objects.filter(
            Q(tables__seats__player=self) | Q(tournament__registrations__player=self)
        ).touch()

    @classmethod
    def search(cls, text: str) -> models.QuerySet[Player]:
        """Players by name, club or member number: every word of `text` in one of them
        ("ann gent" finds Ann Peeters of YC Gent). The member number typed whole first, then
        names starting with the text, then by name."""
        found = cls.objects.select_related("club")
        for word in text.split():
            found = found.filter(
                Q(name__icontains=word)
                | Q(club__name__icontains=word)
                | Q(member_number__istartswith=word)
            )
        return found.annotate(
            match=models.Case(
                models.When(member_number__iexact=text, then=0),
                models.When(name__istartswith=text, then=1),
                default=2,
                output_field=models.IntegerField(),
            )
        ).order_by("match", "name", "pk")

    @classmethod
    def suspected_duplicates(cls, limit: int = 20) -> list[Suspects]:
        """Groups of players a merge may be due for (two queries): names alike (the same but
        for accents and case, first and last name swapped, one letter apart: `names`), and
        the holders of a member number the 0012 migration told apart ("1024 (#57)" beside
        "1024"). Each group's first player is the one to keep: a member number's holder,
        else the oldest record."""
        rows = list(cls.objects.values_list("pk", "name", "member_number"))
        index = names.NameIndex()
        groups: dict[int, set[int]] = {}  # pk → the group it is in (shared by its players)
        # Why a group's players are suspects: how alike their names are, None for a number.
        reasons: dict[int, set[names.Likeness | None]] = {}  # id of a group → its reasons

        def join(first: int, second: int, reason: names.Likeness | None) -> None:
            one, other = groups.get(first, {first}), groups.get(second, {second})
            why = reasons.pop(id(one), set()) | reasons.pop(id(other), set()) | {reason}
            group = one | other
            for pk in group:
                groups[pk] = group
            reasons[id(group)] = why

        numbers: dict[str, int] = {}
        for pk, name, number in sorted(rows):
            for other, likeness in index.alike(name):
                join(int(other), pk, likeness)  # type: ignore[call-overload]
            index.add(pk, name)
            if number:
                base = number.split(" (#")[0]
                if base in numbers:
                    join(numbers[base], pk, None)
                numbers.setdefault(base, pk)
        unique = {id(group): group for group in groups.values()}
        how = {
            frozenset(group): (
                # A group is as alike as its least alike names; a shared number is a number's.
                max(known) if (known := [r for r in reasons[key] if r is not None]) else None
            )
            for key, group in unique.items()
        }
        chosen = sorted(how, key=lambda group: min(group))[:limit]
        players = cls.objects.select_related("club").in_bulk([pk for g in chosen for pk in g])
        return [
            Suspects(
                sorted(
                    (players[pk] for pk in group),
                    key=lambda player: (not player.member_number, player.pk),
                ),
                how[group],
            )
            for group in chosen
        ]

    def merge_into(self, other: Player, *, by: Any) -> PlayerMerge:
        """Make this player `other`, in one transaction: every seat, registration and any
        other row of the site that names this player (ratings, earlier merges…) follows, the
        merge is logged (`PlayerMerge`: who merged what, when) and this player is deleted.

        Refused (`MergeRefused`, nothing changed) when the two sat at one table or are both
        registered in one tournament: one person cannot play twice at a table, and which of two
        registrations to keep is the tournament director's choice. `other` keeps their name;
        they take this player's club and member number when they have none. Games are seats
        changing hands: every total, rank and standing stays as it was.
        """
        if other.pk == self.pk:
            raise MergeRefused("merge_into_self")
        with transaction.atomic():
            # Both rows locked, in a fixed order (two merges at once cannot deadlock).
            locked = {
                player.pk: player
                for player in Player.objects.select_for_update()
                .filter(pk__in=[self.pk, other.pk])
                .order_by("pk")
            }
            if len(locked) != 2:
                raise MergeRefused("merge_player_gone")
            merged, into = locked[self.pk], locked[other.pk]
            merged._refuse_double_places(into)
            entry = PlayerMerge(
                into_name=into.name,
                merged_id=merged.pk,
                merged_name=merged.name,
                merged_club=merged.club.name if merged.club_id else "",  # type: ignore[union-attr]
                merged_member_number=merged.member_number,
                by=by if getattr(by, "is_authenticated", False) else None,
            )
            entry.moved = merged._move_rows_to(into)
            if merged.member_number and not into.member_number:
                # Off the merged player first: a member number is one player's.
                Player.objects.filter(pk=merged.pk).update(member_number="")
                into.member_number = merged.member_number
            if into.club_id is None:
                into.club_id = merged.club_id
            into.save(update_fields=["member_number", "club"])
            entry.into = into
            entry.save()
            merged.delete()
            player_merged.send(sender=Player, merged_id=entry.merged_id, into=into, by=by)
        other.refresh_from_db()
        return entry

    def _refuse_double_places(self, into: Player) -> None:
        seat_model = apps.get_model("tournaments", "Seat")
        shared_table = (
            seat_model.objects.filter(
                player=self, table__in=seat_model.objects.filter(player=into).values("table")
            )
            .select_related("table__session__tournament")
            .first()
        )
        if shared_table is not None:
            table = shared_table.table
            raise MergeRefused(
                "merge_same_table",
                merged=self.name,
                into=into.name,
                tournament=table.session.tournament.name,
                session=table.session.number,
                table=table.number,
            )
        registration_model = apps.get_model("tournaments", "Registration")
        both = (
            registration_model.objects.filter(
                player=self,
                tournament__in=registration_model.objects.filter(player=into).values("tournament"),
            )
            .select_related("tournament")
            .first()
        )
        if both is not None:
            raise MergeRefused(
                "merge_both_registered",
                merged=self.name,
                into=into.name,
                tournament=both.tournament.name,
            )

    def _move_rows_to(self, into: Player) -> dict[str, int]:
        """Point every row that names this player at `into`; how many rows of each kind.

        Every relation to Player is followed, whichever module declares it (the ratings'
        rows too), so that deleting this player afterwards takes nothing with it.
        """
        session_model = apps.get_model("tournaments", "Session")
        # The sessions this player sat in: their pages (and the caches keyed by their
        # version) are told that a name changed, and their lists of moved players follow.
        sessions = list(
            session_model.objects.select_for_update()
            .filter(
                pk__in=apps.get_model("tournaments", "Seat")
                .objects.filter(player=self)
                .values("table__session")
            )
            .order_by("pk")
        )
        moved: dict[str, int] = {}
        for relation in Player._meta.related_objects:
            if relation.many_to_many:
                continue
            model: Any = relation.related_model
            field = relation.field.name
            try:
                with transaction.atomic():
                    count = model._base_manager.filter(**{field: self}).update(**{field: into})
            except IntegrityError:
                raise MergeRefused(
                    "merge_unique_row",
                    merged=self.name,
                    into=into.name,
                    kind=model._meta.verbose_name,
                ) from None
            if count:
                moved[relation.get_accessor_name() or model._meta.model_name] = count
        for session in sessions:
            session.moved_players = sorted(
                {into.pk if pk == self.pk else pk for pk in session.moved_players}
            )
            session.save(update_fields=["moved_players", "changed_at"])
        return moved


@dataclass(frozen=True)
class Suspects:
    """Players that may be one person: the first is the one to keep."""

    players: list[Player]
    # How alike their names are (the least alike pair); None: they share a member number.
    likeness: names.Likeness | None

    @property
    def why(self) -> str:
        if self.likeness is None:
            return gettext("a member number held by two players")
        return {
            names.Likeness.SAME: gettext("the same name but for accents and case"),
            names.Likeness.SWAPPED: gettext("first and last name swapped"),
            names.Likeness.NEAR: gettext("names one letter apart"),
        }[self.likeness]


class MergeRefused(Refused):
    """Two players that cannot be one (they sat at one table, or both are registered in one
    tournament); the message says why and what to do."""


class PlayerMerge(models.Model):
    """The log of merged duplicates: who was merged into whom, by whom, when, and what followed.

    The merged player is gone: their name, club and member number are kept here as text.
    """

    into = models.ForeignKey(
        Player,
        null=True,
        on_delete=models.SET_NULL,
        related_name="merges",
        verbose_name=_("merged into"),
    )
    into_name = models.CharField(_("merged into (name)"), max_length=120)
    merged_id = models.PositiveIntegerField(_("merged player's id"), db_index=True)
    merged_name = models.CharField(_("merged player"), max_length=120)
    merged_club = models.CharField(_("their club"), max_length=120, blank=True)
    merged_member_number = models.CharField(_("their member number"), max_length=40, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("merged by"),
    )
    at = models.DateTimeField(_("merged at"), default=timezone.now)
    # What followed, by kind: {"seats": 12, "registrations": 3}.
    moved = models.JSONField(_("rows moved"), default=dict, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")

    def __str__(self) -> str:
        return f"{self.merged_name} (#{self.merged_id}) → {self.into_name}"
