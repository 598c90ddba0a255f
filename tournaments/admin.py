"""The admin: clubs, players, tournaments, sessions, tables and seats; games for reading.

A tournament director who is staff sees and edits only what belongs to the tournaments they
direct (a superuser sees everything): those tournaments and their sessions, tables, seats and
games; the players registered or seated in them and the clubs of those players and
tournaments. A player or club that another tournament uses too is shared: the director may
read it, and only a superuser changes or deletes it. Every choice of a related row (a seat's
player, a tournament's club, a table's referee) and every list filter offers the director's
own rows only, and so does the players' autocomplete. Once a game has rounds its seating is
fixed here: the scores are derived from who sat where, and the rounds are
changed only through the site's correction flow, which rescores the game.

Games, rounds, hands and the audit log can only be read here: the referee's raw entries
change only through the site (record, correct, undo, end at the time limit), which
rescores the game and logs the change. A game comes with its table and goes with it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.contenttypes import views as contenttype_views
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, Q, QuerySet
from django.forms.fields import InvalidJSONInput, JSONString
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy, ngettext

from scoring.errors import GameError
from scoring.records import OPTIONS_MAX_CHARS, read_json
from tournaments import texts
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Hand,
    Player,
    Round,
    Seat,
    Session,
    Table,
    Tournament,
)


def _has_rounds(table: Table | None) -> bool:
    return table is not None and Round.objects.filter(game__table=table).exists()


# --- what belongs to whom ---------------------------------------------------------


def not_directed_by(user) -> QuerySet[Tournament]:
    """The tournaments of the other directors."""
    return Tournament.objects.exclude(directors=user)


def clubs_of(tournaments: QuerySet[Tournament]) -> QuerySet[Club]:
    """The clubs that organise `tournaments` or that their players play for."""
    # No NULLs in the subqueries: an IN list with a NULL cannot be negated.
    return Club.objects.filter(
        Q(pk__in=tournaments.filter(club__isnull=False).values("club_id"))
        | Q(
            pk__in=Player.objects.seen_in(tournaments).filter(club__isnull=False).values("club_id")
        )
    )


def accounts_of(tournaments: QuerySet[Tournament]) -> QuerySet:
    """The accounts that direct or referee `tournaments` or one of their tables."""
    tables = Table.objects.filter(session__tournament__in=tournaments, referee__isnull=False)
    return (
        get_user_model()
        .objects.filter(
            Q(directed_tournaments__in=tournaments)
            | Q(refereed_tournaments__in=tournaments)
            | Q(pk__in=tables.values("referee_id"))
        )
        .distinct()
    )


class ScopedChoices:
    """The related rows a form offers a director: their own tournaments, sessions, tables,
    players, clubs and accounts (a superuser is offered every row)."""

    def scoped_choices(self, request, model) -> QuerySet | None:
        user = request.user
        if user.is_superuser:
            return None
        mine = Tournament.objects.directed_by(user)
        if model is Tournament:
            return mine
        if model is Session:
            return Session.objects.filter(tournament__in=mine)
        if model is Table:
            return Table.objects.filter(session__tournament__in=mine)
        if model is Player:
            return Player.objects.seen_in(mine)
        if model is Club:
            return clubs_of(mine)
        if model is get_user_model():
            return accounts_of(mine)
        return None

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        queryset = self.scoped_choices(request, db_field.related_model)
        if queryset is not None:
            kwargs["queryset"] = queryset
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        queryset = self.scoped_choices(request, db_field.related_model)
        if queryset is not None:
            kwargs["queryset"] = queryset
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


class DirectedAdmin(ScopedChoices, admin.ModelAdmin):
    """Rows of the tournaments the user directs; every row for a superuser."""

    # The lookup from this admin's model to its Tournament.
    tournament_path = ""

    def directed(self, request, queryset, path: str):
        if request.user.is_superuser:
            return queryset
        lookup = f"{path}__directors" if path else "directors"
        return queryset.filter(**{lookup: request.user})

    def get_queryset(self, request):
        return self.directed(request, super().get_queryset(request), self.tournament_path)


class SharedAdmin(ScopedChoices, admin.ModelAdmin):
    """Players and clubs: shared by every tournament they play in.

    A director sees those of the tournaments they direct, and changes or deletes only those
    no other director's tournament uses; the rest (and new rows, which belong to no
    tournament yet: the director's pages register players) are a superuser's.
    """

    def mine(self, request) -> QuerySet:
        raise NotImplementedError

    def shared(self, request) -> QuerySet:
        """The rows the director sees that another director's tournament uses too."""
        raise NotImplementedError

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=self.mine(request).values("pk"))

    def _owns(self, request, obj) -> bool:
        if request.user.is_superuser or obj is None:
            return True
        return (
            self.mine(request).filter(pk=obj.pk).exists()
            and not self.shared(request).filter(pk=obj.pk).exists()
        )

    def has_add_permission(self, request):
        return request.user.is_superuser and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return self._owns(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._owns(request, obj) and super().has_delete_permission(request, obj)


@admin.register(Club)
class ClubAdmin(SharedAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]

    def mine(self, request):
        return clubs_of(Tournament.objects.directed_by(request.user))

    def shared(self, request):
        return clubs_of(not_directed_by(request.user))


@admin.register(Player)
class PlayerAdmin(SharedAdmin):
    list_display = ["name", "club", "member_number"]
    # Only the clubs of the listed players: the filter names no one else's club.
    list_filter = [("club", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["club"]
    # The seats' autocomplete searches here, within the director's players.
    search_fields = ["name", "member_number"]

    def mine(self, request):
        return Player.objects.seen_in(Tournament.objects.directed_by(request.user))

    def shared(self, request):
        return Player.objects.seen_in(not_directed_by(request.user))


class SessionInline(admin.TabularInline):
    model = Session
    fields = readonly_fields = (
        "number",
        "status",
    )
    extra = 0
    show_change_link = True


class RuleOptionsField(forms.JSONField):
    """A tournament's house rules as JSON, read within the limits of `read_json`.

    Django's JSONField reads with json.loads: JSON nested 2,000 deep or a number of 5,000
    digits raised there (a 500) when the form was cleaned or shown again. Here it is an
    error at the field. An empty box is the rule set as it is.
    """

    def to_python(self, value: Any) -> Any:
        if self.disabled:
            return value
        if value in self.empty_values:
            return {}
        if isinstance(value, list | dict | int | float | JSONString):
            return value
        try:
            converted = read_json(value, max_chars=OPTIONS_MAX_CHARS)
        except GameError as error:
            raise ValidationError(texts.game_error(error), code="invalid") from None
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        if self.disabled:
            return initial
        if data is None:
            return None
        try:
            return read_json(data, max_chars=OPTIONS_MAX_CHARS)
        except GameError:
            # Shown again as typed, with the error beside it.
            return InvalidJSONInput(data)


@admin.register(Tournament)
class TournamentAdmin(DirectedAdmin):
    # The house rules stay JSON here (the director's form has a field per option).
    formfield_overrides = {models.JSONField: {"form_class": RuleOptionsField}}
    list_display = ["name", "starts_on", "venue", "club", "status", "is_public"]
    list_filter = ["status", "is_public", ("club", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["club"]
    search_fields = ["name", "venue"]
    date_hierarchy = "starts_on"
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    inlines = [SessionInline]

    def get_readonly_fields(self, request, obj=None):
        # Who created it is the site's to say (only an administrator changes it).
        fixed = [] if request.user.is_superuser else ["created_by"]
        # The rule options score the recorded rounds: changing them would
        # leave every cached total stale.
        if obj is not None and Round.objects.filter(game__table__session__tournament=obj).exists():
            return [*fixed, "preset", "rule_options", "false_yaniv"]
        return fixed

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        tournament = form.instance
        # A director who creates a tournament directs it (and so still sees it).
        if not change and not request.user.is_superuser:
            tournament.directors.add(request.user)
        # A co-director cannot take the tournament from the director who created it (issue
        # 22): here as on the people page, only an administrator removes them.
        creator = tournament.created_by
        if (
            not request.user.is_superuser
            and creator is not None
            and not tournament.directors.filter(pk=creator.pk).exists()
        ):
            tournament.directors.add(creator)
            self.message_user(
                request,
                gettext("Only an administrator can remove %(username)s: they created it.")
                % {"username": creator.get_username()},
                level=messages.WARNING,
            )


class TableInline(ScopedChoices, admin.TabularInline):
    model = Table
    fields = ["number", "referee"]
    extra = 0
    show_change_link = True


@admin.register(Session)
class SessionAdmin(DirectedAdmin):
    tournament_path = "tournament"
    list_display = ["tournament", "number", "status"]
    list_filter = ["status", ("tournament", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline]

    def save_formset(self, request, form, formset, change):
        if formset.model is not Table:
            return super().save_formset(request, form, formset, change)
        tables = formset.save(commit=False)
        for table in formset.deleted_objects:
            table.delete()
        for table in tables:
            if table.pk is None:
                # A new table comes with its game.
                Table.objects.create_with_games([table])
            else:
                table.save()
        formset.save_m2m()


class SeatInline(ScopedChoices, admin.TabularInline):
    model = Seat
    fields = ["position", "player", "total", "rank"]
    readonly_fields = ["total", "rank"]
    autocomplete_fields = ["player"]
    extra = 0

    # `obj` is the table: once its game has rounds, the seating is fixed.
    def get_readonly_fields(self, request, obj=None):
        if _has_rounds(obj):
            return ["position", "player", "total", "rank"]
        return super().get_readonly_fields(request, obj)

    def has_add_permission(self, request, obj=None):
        return not _has_rounds(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _has_rounds(obj) and super().has_delete_permission(request, obj)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


@admin.register(Table)
class TableAdmin(DirectedAdmin):
    tournament_path = "session__tournament"
    list_display = ["session", "number", "referee", "game_status"]
    list_filter = [
        "session__status",
        ("session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["session__tournament", "referee", "game"]
    search_fields = ["session__tournament__name", "referee__username"]
    inlines = [SeatInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(round_count=Count("game__rounds"))

    def save_model(self, request, obj, form, change):
        if change:
            obj.save()
        else:
            # A new table comes with its game.
            Table.objects.create_with_games([obj])

    @admin.display(description=gettext_lazy("game"))
    def game_status(self, table: Table) -> str:
        game = getattr(table, "game", None)
        rounds = getattr(table, "round_count", None)
        played = (
            ""
            if rounds is None
            else ", " + ngettext("%(count)s round", "%(count)s rounds", rounds) % {"count": rounds}
        )
        if game is None:
            return gettext("no game")
        if game.ended_at_time_limit:
            return gettext("ended at the time limit") + played
        if game.finished:
            return gettext("finished") + played
        return gettext("playing") + played


@admin.register(Seat)
class SeatAdmin(DirectedAdmin):
    tournament_path = "table__session__tournament"
    list_display = ["table", "position", "player", "total", "rank"]
    list_filter = [
        "table__session__status",
        ("table__session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["table__session__tournament", "player"]
    search_fields = ["player__name", "player__member_number"]
    autocomplete_fields = ["player"]
    readonly_fields = ["total", "rank"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and _has_rounds(obj.table):
            return ["table", "position", "player", "total", "rank"]
        return super().get_readonly_fields(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and _has_rounds(obj.table):
            return False
        return super().has_delete_permission(request, obj)


# --- games: for reading only -------------------------------------------------


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnlyMixin, DirectedAdmin):
    pass


class RoundInline(ReadOnlyMixin, admin.TabularInline):
    model = Round
    fields = readonly_fields = (
        "number",
        "kind",
        "caller",
        "empty_hand",
        "entered_by",
        "entered_at",
    )
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        # Each row is titled with str(round), which names the tournament.
        return (
            super()
            .get_queryset(request)
            .select_related(
                "game__table__session__tournament",
                "caller__player",
                "empty_hand__player",
                "entered_by",
            )
        )


class HandInline(ReadOnlyMixin, admin.TabularInline):
    model = Hand
    fields = readonly_fields = (
        "seat",
        "hand_total",
        "along",
        "points",
        "reduction",
        "total",
    )
    extra = 0

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("round__game__table__session__tournament", "seat__player")
        )


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    tournament_path = "table__session__tournament"
    list_display = [
        "__str__",
        "round_count",
        "finished",
        "ended_at_time_limit",
        "finished_at",
        "version",
    ]
    list_filter = [
        "finished",
        "ended_at_time_limit",
        ("table__session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["table__session__tournament"]
    search_fields = ["table__session__tournament__name", "table__seats__player__name"]
    fields = readonly_fields = (
        "table",
        "finished",
        "ended_at_time_limit",
        "finished_at",
        "version",
    )
    inlines = [RoundInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(rounds_played=Count("rounds"))

    @admin.display(description="rounds", ordering="rounds_played")
    def round_count(self, game: Game) -> int:
        return game.rounds_played  # type: ignore[attr-defined]  # annotated by get_queryset


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    tournament_path = "game__table__session__tournament"
    list_display = [
        "__str__",
        "kind",
        "caller",
        "empty_hand",
        "entered_by",
        "entered_at",
    ]
    list_filter = [
        "kind",
        ("game__table__session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = [
        "game__table__session__tournament",
        "caller__player",
        "empty_hand__player",
        "entered_by",
    ]
    search_fields = ["game__table__session__tournament__name"]
    date_hierarchy = "entered_at"
    fields = readonly_fields = (
        "game",
        "number",
        "kind",
        "caller",
        "empty_hand",
        "entered_by",
        "entered_at",
    )
    inlines = [HandInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    tournament_path = "round__game__table__session__tournament"
    list_display = [
        "__str__",
        "hand_total",
        "along",
        "points",
        "reduction",
        "total",
    ]
    list_filter = [
        "round__kind",
        "along",
        ("round__game__table__session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["round__game__table__session__tournament", "seat__player"]
    search_fields = ["seat__player__name"]
    fields = readonly_fields = (
        "round",
        "seat",
        "hand_total",
        "along",
        "points",
        "reduction",
        "total",
    )


@admin.register(GameChange)
class GameChangeAdmin(ReadOnlyAdmin):
    tournament_path = "game__table__session__tournament"
    list_display = ["at", "game", "action", "round_number", "user", "version"]
    list_filter = [
        "action",
        ("game__table__session__tournament", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["game__table__session__tournament", "user"]
    search_fields = ["reason", "user__username"]
    date_hierarchy = "at"
    fields = [
        "game",
        "action",
        "round_number",
        "user",
        "at",
        "version",
        "reason",
        "before_text",
        "after_text",
        "before",
        "after",
    ]


# --- "view on site" ---------------------------------------------------------------------


def view_on_site(request, content_type_id: int, object_id: str):
    """Django's "view on site" redirect for the rows this user's admin lists only: it
    redirected a staff director to any object of the site, another director's private table
    or tournament included (issue 22). 404 for a row the admin does not show them."""
    content_type = ContentType.objects.filter(pk=content_type_id).first()
    model = content_type.model_class() if content_type is not None else None
    if model is None or not admin.site.is_registered(model):
        raise Http404("No such object.")
    model_admin = admin.site.get_model_admin(model)
    if not model_admin.has_view_permission(request):
        raise Http404("No such object.")
    try:
        listed = model_admin.get_queryset(request).filter(pk=object_id).exists()
    except (ValueError, TypeError, OverflowError, ValidationError):
        listed = False
    if not listed:
        raise Http404("No such object.")
    return contenttype_views.shortcut(request, content_type_id, object_id)
