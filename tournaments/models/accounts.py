"""The accounts a tournament gives out: who directs and referees it (`Accounts`, a part of
`Tournament`), the accounts it created (`AccountOrigin`) and their one-time passwords."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Refused
from tournaments.models.sessions import Session
from tournaments.models.tables import Table

logger = logging.getLogger(__name__)

PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSWORD_GROUPS = 4


def one_time_password() -> str:
    """A strong password to print on an account's card and type once on a phone."""
    return "-".join(
        "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4))
        for _ in range(PASSWORD_GROUPS)
    )


# How the tournament form names the engine's rule sets (RULESETS).


class AccountOrigin(models.Model):
    """The tournament an account was made for on its people page: the account is that
    tournament's. Only a director of it adds the account to a tournament, reactivates it or
    resets its password; an account made elsewhere (an administrator, `createdirector`) is
    never reset, deactivated or reactivated by a director. Deleting the tournament leaves the
    account to the administrators."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="origin",
        verbose_name=_("account"),
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="made_accounts",
        verbose_name=_("made for"),
    )

    class Meta:
        verbose_name = _("account's tournament")
        verbose_name_plural = _("accounts' tournaments")

    def __str__(self) -> str:
        return f"{self.user} ({self.tournament})"


class Accounts:
    """The tournament's people: the accounts that direct and referee it. A part of
    `Tournament` (tournaments.models.tournaments), kept here with the accounts' origin."""

    # Declared by Tournament.
    if TYPE_CHECKING:
        pk: Any
        created_by_id: int | None
        directors: Any
        referees: Any
        Role: Any
        objects: Any

        def forget_directors(self) -> None: ...

    def people(self) -> list[tuple[Any, list[str]]]:
        """Every account of the tournament with its roles (Role values), by username."""
        roles: dict[int, list[str]] = {}
        for role, users in (
            (self.Role.DIRECTOR, self.directors.all()),
            (self.Role.REFEREE, self.referees.all()),
        ):
            for user_id in users.values_list("pk", flat=True):
                roles.setdefault(user_id, []).append(role)
        accounts = get_user_model().objects.filter(pk__in=roles).order_by("username")
        return [(user, roles[user.pk]) for user in accounts]

    def has_account(self, user: Any) -> bool:
        """The account directs or referees this tournament."""
        return (
            self.directors.filter(pk=user.pk).exists() or self.referees.filter(pk=user.pk).exists()
        )

    def _accounts_of(self, role: str) -> Any:
        return self.directors if role == self.Role.DIRECTOR else self.referees

    def create_account(self, username: str, role: str) -> tuple[Any, str]:
        """A new account that referees (or co-directs) the tournament, with a strong one-time
        password; the password is returned to be shown once and is stored hashed only.

        A co-director is not made staff: they direct the tournaments they are added to.
        """
        password = one_time_password()
        model = get_user_model()
        taken = Refused("username_taken", username=username)
        try:
            with transaction.atomic():
                # Usernames differ by more than their case: "Ref1" and "ref1" would confuse.
                if model.objects.filter(username__iexact=username).exists():
                    raise taken
                user = model.objects.create_user(username, password=password)
                AccountOrigin.objects.create(user=user, tournament_id=self.pk)
                self._accounts_of(role).add(user)
        except IntegrityError:  # the same username created at the same moment
            raise taken from None
        return user, password

    def add_account(self, username: str, role: str, *, by: Any) -> Any:
        """Add an existing account, named by its exact username, as a referee or co-director.

        An account made for a tournament belongs to it: only who directs that tournament adds
        it elsewhere (`by`), and only they make it active again after it was deactivated on
        leaving its last tournament. An account deactivated by an administrator, or made
        by one, stays as it is.
        """
        model = get_user_model()
        with transaction.atomic():
            user = model.objects.select_for_update().filter(username=username).first()
            origin = (
                AccountOrigin.objects.filter(user=user).select_related("tournament").first()
                if user is not None
                else None
            )
            if user is None or not self._may_add(user, origin, by):
                # One answer for an unknown name and an account not theirs to add: the
                # refusal never tells whether a username exists (issue 34).
                raise Refused("no_account_to_add", username=username)
            accounts = self._accounts_of(role)
            if accounts.filter(pk=user.pk).exists():
                already = "directs_already" if role == self.Role.DIRECTOR else "referees_already"
                raise Refused(already, username=username)
            if not user.is_active:
                if origin is None or self._has_rights_of_its_own(user):
                    raise Refused("account_deactivated", username=username)
                user.is_active = True
                user.save(update_fields=["is_active"])
            accounts.add(user)
        self.forget_directors()
        return user

    def _may_add(self, user: Any, origin: Any, by: Any) -> bool:
        """Who `by` may add: an account made for a tournament they direct; an account with
        rights of its own (a director, staff, the superuser) only if it already directs or
        referees one of their tournaments (it consented there), or is theirs; any other
        account (a referee an administrator made) as before."""
        if origin is not None:
            return bool(origin.tournament.is_director(by))
        if not self._has_rights_of_its_own(user) or by.is_superuser or user.pk == by.pk:
            return True
        theirs = type(self).objects.directed_by(by)
        return bool(theirs.filter(Q(directors=user) | Q(referees=user)).exists())

    def own_accounts(self, among: Iterable[int] | None = None) -> set[int]:
        """The ids of the accounts made for this tournament (`AccountOrigin`) that belong to
        it alone and have no rights of their own (staff, superuser, permissions, groups): its
        directors may reset their passwords, and removing one deactivates it. No director
        reaches another tournament's people. Five queries, whatever the number of accounts."""
        model = get_user_model()
        accounts = model.objects.filter(
            Q(directed_tournaments=self.pk) | Q(refereed_tournaments=self.pk),
            origin__tournament=self.pk,
        )
        if among is not None:
            accounts = accounts.filter(pk__in=list(among))
        ids = set(accounts.values_list("pk", flat=True))
        if not ids:
            return ids
        directors: Any = type(self).directors.through
        referees: Any = type(self).referees.through
        taken = set(
            model.objects.filter(pk__in=ids)
            .filter(
                Q(is_staff=True)
                | Q(is_superuser=True)
                | Q(user_permissions__isnull=False)
                | Q(groups__isnull=False)
            )
            .values_list("pk", flat=True)
        )
        # The tournament's creator is nobody's to reset or deactivate.
        if self.created_by_id is not None:
            taken.add(self.created_by_id)
        for through in (directors, referees):
            taken |= set(
                through.objects.filter(user_id__in=ids)
                .exclude(tournament_id=self.pk)
                .values_list("user_id", flat=True)
            )
        # A table of another tournament still to be played.
        taken |= set(
            Table.objects.filter(referee_id__in=ids)
            .exclude(session__tournament=self.pk)
            .exclude(session__status=Session.Status.FINISHED)
            .values_list("referee_id", flat=True)
        )
        return ids - taken

    def owns_account(self, user: Any) -> bool:
        return user.pk in self.own_accounts(among=[user.pk])

    @staticmethod
    def _has_rights_of_its_own(user: Any) -> bool:
        """Staff, superusers and accounts given permissions are the administrators' to manage."""
        return bool(
            user.is_staff
            or user.is_superuser
            or user.user_permissions.exists()
            or user.groups.exists()
        )

    def remove_account(self, user: Any, *, by: Any) -> bool:
        """Take the account off the tournament (both roles, and the tables it referees in
        sessions still to finish), in one transaction; it is deactivated when it belongs to
        no other tournament and has no rights of its own. True when deactivated."""
        with transaction.atomic():
            locked = type(self).objects.select_for_update().get(pk=self.pk)
            if user.pk == by.pk:
                raise Refused("remove_yourself")
            if not locked.has_account(user):
                raise Refused("account_not_here", username=user.get_username())
            if (
                locked.directors.filter(pk=user.pk).exists()
                and not locked.directors.exclude(pk=user.pk).exists()
            ):
                raise Refused("last_director")
            if user.pk == locked.created_by_id and not by.is_superuser:
                raise Refused("creator_stays", username=user.get_username())
            # Checked while it still belongs here: owned by this tournament alone.
            deactivate = locked.owns_account(user)
            locked.directors.remove(user)
            locked.referees.remove(user)
            Table.objects.filter(session__tournament=locked, referee=user).exclude(
                session__status=Session.Status.FINISHED
            ).update(referee=None)
            if deactivate:
                type(user).objects.filter(pk=user.pk).update(is_active=False)
                user.is_active = False
        self.forget_directors()
        return deactivate

    def reset_password(self, user: Any, *, by: Any) -> str:
        """A new one-time password for an account of this tournament alone (returned to be
        shown once); the old password, and every session logged in with it, stop working."""
        with transaction.atomic():
            locked = type(user).objects.select_for_update().get(pk=user.pk)
            if locked.pk == by.pk:
                raise Refused("own_password")
            if not self.has_account(locked):
                raise Refused("account_not_here", username=locked.get_username())
            if not self.owns_account(locked):
                raise Refused("password_of_shared_account", username=locked.get_username())
            password = one_time_password()
            locked.set_password(password)
            locked.save(update_fields=["password"])
        return password
