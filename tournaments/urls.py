from __future__ import annotations

from django.urls import path

from tournaments.views import director, printing, public, sessions, tables
from tournaments.views import exports as export_views

urlpatterns = [
    path("", public.home, name="home"),
    path("rules/", public.rules_page, name="rules"),
    # What anyone can follow.
    path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
    path("t/<slug:slug>/standings/", public.standings_page, name="standings"),
    path(
        "t/<slug:slug>/standings/session-<int:number>/",
        public.standings_page,
        name="session_standings",
    ),
    path("t/<slug:slug>/players/", public.player_search, name="players"),
    path("t/<slug:slug>/rules/", public.tournament_rules, name="tournament_rules"),
    path("t/<slug:slug>/players/<int:player_id>/", public.player_detail, name="player"),
    # The referee's table pages.
    path("tables/", tables.my_tables, name="my_tables"),
    path("tables/<int:table_id>/", tables.table_detail, name="table"),
    path("tables/<int:table_id>/preview/", tables.round_preview, name="round_preview"),
    path("tables/<int:table_id>/rounds/", tables.record_round, name="record_round"),
    path(
        "tables/<int:table_id>/rounds/<int:number>/correct/",
        tables.correct_round,
        name="correct_round",
    ),
    path("tables/<int:table_id>/rounds/undo/", tables.undo_round, name="undo_round"),
    path("tables/<int:table_id>/end/", tables.end_game, name="end_game"),
    path("tables/<int:table_id>/sign-off/", tables.sign_off, name="sign_off"),
    # The director's pages.
    path("manage/", director.director_home, name="manage"),
    path("manage/new/", director.tournament_create, name="manage_new"),
    path("manage/<slug:slug>/", director.dashboard, name="manage_tournament"),
    path("manage/<slug:slug>/edit/", director.tournament_edit, name="manage_edit"),
    path("manage/<slug:slug>/players/", director.add_player, name="manage_add_player"),
    path("manage/<slug:slug>/check-in/", director.check_in_all, name="manage_check_in_all"),
    path(
        "manage/<slug:slug>/registrations/<int:registration_id>/check-in/",
        director.check_in,
        name="manage_check_in",
    ),
    path(
        "manage/<slug:slug>/registrations/<int:registration_id>/remove/",
        director.remove_registration,
        name="manage_remove_registration",
    ),
    path("manage/<slug:slug>/import/", director.import_upload, name="manage_import"),
    path(
        "manage/<slug:slug>/import/confirm/", director.import_confirm, name="manage_import_confirm"
    ),
    # The director's sessions: draw, adjust, referees, start, print.
    path("manage/<slug:slug>/sessions/", sessions.session_create, name="session_create"),
    path(
        "manage/<slug:slug>/sessions/<int:number>/",
        sessions.session_detail,
        name="session_manage",
    ),
    path(
        "manage/<slug:slug>/sessions/<int:number>/draw/",
        sessions.session_redraw,
        name="session_redraw",
    ),
    path(
        "manage/<slug:slug>/sessions/<int:number>/adjust/",
        sessions.session_adjust,
        name="session_adjust",
    ),
    path(
        "manage/<slug:slug>/sessions/<int:number>/referees/",
        sessions.session_referees,
        name="session_referees",
    ),
    path(
        "manage/<slug:slug>/sessions/<int:number>/status/",
        sessions.session_status,
        name="session_status",
    ),
    path(
        "manage/<slug:slug>/sessions/<int:number>/table-list/",
        sessions.table_list,
        name="session_table_list",
    ),
    # PDFs.
    path(
        "manage/<slug:slug>/sessions/<int:number>/score-sheets.pdf",
        printing.score_sheets,
        name="session_score_sheets_pdf",
    ),
    path("tables/<int:table_id>/sheet.pdf", printing.table_sheet, name="table_sheet_pdf"),
    path("t/<slug:slug>/standings.pdf", printing.standings, name="standings_pdf"),
    path(
        "t/<slug:slug>/standings/session-<int:number>.pdf",
        printing.standings,
        name="session_standings_pdf",
    ),
    path("t/<slug:slug>/report.pdf", printing.report, name="report_pdf"),
    # Exports.
    path("t/<slug:slug>/standings.csv", export_views.standings_csv, name="standings_csv"),
    path(
        "t/<slug:slug>/standings/session-<int:number>.csv",
        export_views.standings_csv,
        name="session_standings_csv",
    ),
    path("t/<slug:slug>/rounds.csv", export_views.rounds_csv, name="rounds_csv"),
    path(
        "manage/<slug:slug>/export.json", export_views.tournament_json, name="manage_export_json"
    ),
]
