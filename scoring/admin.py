"""The admin of games, rounds, hands and the audit log: for reading only.

The referee's raw entries are changed only through the site (record, correct,
undo, end at the time limit), which rescores the game and logs the change; the
points, reductions, totals and the game's version and end are derived from them.
So nothing here can be added, changed or deleted: a game comes with its table
and goes with it.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from scoring.models import Game, GameChange, Hand, Round
from tournaments.admin import DirectedAdmin


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
    fields = ["number", "kind", "caller", "empty_hand", "entered_by", "entered_at"]
    readonly_fields = fields
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
    fields = ["seat", "hand_total", "along", "points", "reduction", "total"]
    readonly_fields = fields
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
    fields = ["table", "finished", "ended_at_time_limit", "finished_at", "version"]
    readonly_fields = fields
    inlines = [RoundInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(rounds_played=Count("rounds"))

    @admin.display(description="rounds", ordering="rounds_played")
    def round_count(self, game: Game) -> int:
        return game.rounds_played


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
    fields = [
        "game",
        "number",
        "kind",
        "caller",
        "empty_hand",
        "entered_by",
        "entered_at",
    ]
    readonly_fields = fields
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
    fields = ["round", "seat", "hand_total", "along", "points", "reduction", "total"]
    readonly_fields = fields


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
    readonly_fields = fields
