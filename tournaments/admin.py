"""The admin of clubs, players, tournaments, sessions, tables and seats.

A tournament director who is staff sees and edits only the tournaments they
direct (a superuser sees everything). Once a game has rounds its seating is
fixed here: the scores are derived from who sat where, and the rounds are
changed only through the site's correction flow, which rescores the game.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext, gettext_lazy, ngettext

from scoring.models import Round
from tournaments.models import Club, Player, Seat, Session, Table, Tournament


def _has_rounds(table: Table | None) -> bool:
    return table is not None and Round.objects.filter(game__table=table).exists()


class DirectedAdmin(admin.ModelAdmin):
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

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # Only the user's own tournaments, sessions and tables can be chosen.
        paths = {Tournament: "", Session: "tournament", Table: "session__tournament"}
        if db_field.related_model in paths:
            kwargs["queryset"] = self.directed(
                request,
                db_field.related_model.objects.all(),
                paths[db_field.related_model],
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "member_number"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name", "member_number"]


class SessionInline(admin.TabularInline):
    model = Session
    fields = ["number", "status"]
    extra = 0
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(DirectedAdmin):
    list_display = ["name", "starts_on", "venue", "club", "status", "is_public"]
    list_filter = ["status", "is_public", "club"]
    list_select_related = ["club"]
    search_fields = ["name", "venue"]
    date_hierarchy = "starts_on"
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    inlines = [SessionInline]

    def get_readonly_fields(self, request, obj=None):
        # The rule options score the recorded rounds: changing them would
        # leave every cached total stale.
        if obj is not None and Round.objects.filter(game__table__session__tournament=obj).exists():
            return ["preset", "rule_options", "false_yaniv"]
        return []

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A director who creates a tournament directs it (and so still sees it).
        if not change and not request.user.is_superuser:
            form.instance.directors.add(request.user)


class TableInline(admin.TabularInline):
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


class SeatInline(admin.TabularInline):
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
