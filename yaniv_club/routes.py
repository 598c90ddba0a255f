"""The site's addresses, by audience: `public` (anyone following), `tables` (the table
pages: followers and referees), `codes` (a table's page through its code, no account),
`manage` (directors). URLs carry no language, so the QR
codes on the printed table lists stay valid."""

from __future__ import annotations

from django.urls import path

from hall import views as hall
from printing.views import downloads, printing, transfer
from seasons.views import profiles, seasons
from tournaments.views import (
    adjustments,
    checkin,
    director,
    disputes,
    door,
    people,
    players,
    public,
    seats,
    sessions,
    tables,
    webapp,
)

public_patterns = (
    [
        path("", public.home, name="home"),
        # The installable web app.
        path("sw.js", webapp.service_worker, name="service_worker"),
        path("offline/", webapp.offline, name="offline"),
        path("favicon.ico", webapp.favicon, name="favicon"),
        path("rules/", public.rules_page, name="rules"),
        path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
        # The hall's screens: screen 1 at the short address, the others by number, and any
        # by its secret link (private tournaments).
        path("t/<slug:slug>/hall/", hall.screen, name="hall"),
        path("t/<slug:slug>/hall/<int:number>/", hall.screen, name="hall_screen"),
        path("hall/<str:key>/", hall.screen_by_key, name="hall_key"),
        # Check-in at the door, on a player's phone: the door's short address alone.
        path("in/<str:door>/", checkin.door_page, name="door"),
        path("in/<str:door>/register/", checkin.door_register, name="door_register"),
        path(
            "in/<str:door>/players/<int:registration_id>/",
            checkin.door_player,
            name="door_player",
        ),
        path(
            "in/<str:door>/players/<int:registration_id>/undo/",
            checkin.door_undo,
            name="door_undo",
        ),
        path("t/<slug:slug>/rules/", public.tournament_rules, name="tournament_rules"),
        path("t/<slug:slug>/standings/", public.standings_page, name="standings"),
        path(
            "t/<slug:slug>/standings/session-<int:number>/",
            public.standings_page,
            name="session_standings",
        ),
        path("t/<slug:slug>/players/", public.player_search, name="players"),
        path("t/<slug:slug>/players/<int:player_id>/", public.player_detail, name="player"),
        # Printing and downloads.
        path("t/<slug:slug>/standings.pdf", printing.standings, name="standings_pdf"),
        path(
            "t/<slug:slug>/standings/session-<int:number>.pdf",
            printing.standings,
            name="session_standings_pdf",
        ),
        path("t/<slug:slug>/report.pdf", printing.report, name="report_pdf"),
        path("t/<slug:slug>/standings.csv", downloads.standings_csv, name="standings_csv"),
        path(
            "t/<slug:slug>/standings/session-<int:number>.csv",
            downloads.standings_csv,
            name="session_standings_csv",
        ),
        path("t/<slug:slug>/rounds.csv", downloads.rounds_csv, name="rounds_csv"),
        # One player across tournaments, clubs, seasons (issue 16).
        path("players/<int:player_id>/", profiles.player_profile, name="profile"),
        path(
            "players/<int:player_id>/statistics/",
            profiles.player_statistics,
            name="profile_statistics",
        ),
        path("clubs/<int:club_id>/", profiles.club_detail, name="club"),
        path("seasons/", seasons.season_list, name="seasons"),
        path("seasons/new/", seasons.season_create, name="season_new"),
        path("seasons/<slug:slug>/", seasons.season_detail, name="season"),
        path("seasons/<slug:slug>/standings.csv", downloads.season_csv, name="season_csv"),
        path("seasons/<slug:slug>/standings.pdf", printing.season_pdf, name="season_pdf"),
        path("seasons/<slug:slug>/manage/", seasons.season_manage, name="season_manage"),
        path(
            "seasons/<slug:slug>/manage/tournaments/",
            seasons.season_add_tournament,
            name="season_add_tournament",
        ),
        path(
            "seasons/<slug:slug>/manage/tournaments/<int:entry_id>/",
            seasons.season_entry,
            name="season_entry",
        ),
    ],
    "public",
)

table_patterns = (
    [
        path("", tables.my_tables, name="mine"),
        path("<int:table_id>/", tables.table_detail, name="detail"),
        path("<int:table_id>/sheet.pdf", printing.table_sheet, name="sheet_pdf"),
        path("<int:table_id>/preview/", tables.round_preview, name="preview"),
        path("<int:table_id>/rounds/", tables.record_round, name="record"),
        path("<int:table_id>/rounds/<int:number>/correct/", tables.correct_round, name="correct"),
        path("<int:table_id>/rounds/undo/", tables.undo_round, name="undo"),
        path("<int:table_id>/end/", tables.end_game, name="end"),
        path("<int:table_id>/rounds/late/", tables.add_late_round, name="add_late"),
        path("<int:table_id>/sign-off/", tables.sign_off, name="sign_off"),
        path("<int:table_id>/sync/", tables.sync, name="sync"),
        path("<int:table_id>/confirm/", tables.confirm, name="confirm"),
        path("<int:table_id>/dispute/", tables.dispute, name="dispute"),
    ],
    "tables",
)

# A table's page through its code (club nights): the same views, no account.
code_patterns = (
    [
        path("<str:code>/", tables.table_detail, name="detail"),
        path("<str:code>/sheet.pdf", printing.table_sheet, name="sheet_pdf"),
        path("<str:code>/preview/", tables.round_preview, name="preview"),
        path("<str:code>/rounds/", tables.record_round, name="record"),
        path("<str:code>/rounds/<int:number>/correct/", tables.correct_round, name="correct"),
        path("<str:code>/rounds/undo/", tables.undo_round, name="undo"),
        path("<str:code>/sync/", tables.sync, name="sync"),
        path("<str:code>/confirm/", tables.confirm, name="confirm"),
        path("<str:code>/dispute/", tables.dispute, name="dispute"),
    ],
    "codes",
)

manage_patterns = (
    [
        path("", director.director_home, name="home"),
        path("new/", director.tournament_create, name="new"),
        path("players/merge/", players.merge_players, name="merge_players"),
        # A venue's push (printing/transfer.py); ".json" keeps it apart from any slug.
        path("import.json", transfer.import_archive, name="import_archive"),
        path("<slug:slug>/", director.dashboard, name="tournament"),
        path("<slug:slug>/edit/", director.tournament_edit, name="edit"),
        path("<slug:slug>/export.json", downloads.tournament_json, name="export_json"),
        # Players and check-in.
        path("<slug:slug>/players/", director.add_player, name="add_player"),
        path("<slug:slug>/players/search/", players.player_search, name="player_search"),
        path("<slug:slug>/players/register/", players.register_player, name="register_player"),
        path("<slug:slug>/check-in/", director.check_in_all, name="check_in_all"),
        path(
            "<slug:slug>/registrations/<int:registration_id>/check-in/",
            director.check_in,
            name="check_in",
        ),
        path(
            "<slug:slug>/registrations/<int:registration_id>/remove/",
            director.remove_registration,
            name="remove_registration",
        ),
        # Players who come and go: a withdrawal with its reason, and a return.
        path(
            "<slug:slug>/registrations/<int:registration_id>/withdraw/",
            director.withdraw,
            name="withdraw",
        ),
        path(
            "<slug:slug>/registrations/<int:registration_id>/return/",
            director.come_back,
            name="come_back",
        ),
        # Check-in at the door: its settings, the desk's code, the registrations sent there.
        path("<slug:slug>/door/", door.door_manage, name="door"),
        path("<slug:slug>/door/settings/", door.door_settings, name="door_settings"),
        path("<slug:slug>/door/desk/", door.door_desk_code, name="door_desk_code"),
        path(
            "<slug:slug>/door/registrations/<int:request_id>/",
            door.door_answer,
            name="door_answer",
        ),
        path("<slug:slug>/door/poster.pdf", printing.door_poster, name="door_poster"),
        # Penalty and bonus points; a table's seats (points there, a substitute, a swap).
        path("<slug:slug>/adjustments/", adjustments.adjustments, name="adjustments"),
        path("<slug:slug>/adjustments/give/", adjustments.adjustment_give, name="adjustment_give"),
        path(
            "<slug:slug>/adjustments/<int:adjustment_id>/correct/",
            adjustments.adjustment_correct,
            name="adjustment_correct",
        ),
        path(
            "<slug:slug>/adjustments/<int:adjustment_id>/remove/",
            adjustments.adjustment_remove,
            name="adjustment_remove",
        ),
        path("<slug:slug>/tables/<int:table_id>/seats/", seats.table_seats, name="table_seats"),
        path(
            "<slug:slug>/tables/<int:table_id>/seats/points/",
            seats.seat_points,
            name="seat_points",
        ),
        path(
            "<slug:slug>/tables/<int:table_id>/seats/substitute/",
            seats.seat_substitute,
            name="seat_substitute",
        ),
        path("<slug:slug>/tables/<int:table_id>/seats/swap/", seats.seat_swap, name="seat_swap"),
        path("<slug:slug>/import/", director.import_upload, name="import"),
        path("<slug:slug>/import/confirm/", director.import_confirm, name="import_confirm"),
        # The hall's screens.
        path("<slug:slug>/screens/", hall.screens, name="screens"),
        path("<slug:slug>/screens/add/", hall.screen_add, name="screen_add"),
        path("<slug:slug>/screens/<int:number>/", hall.screen_update, name="screen"),
        path(
            "<slug:slug>/screens/<int:number>/new-link/",
            hall.screen_new_link,
            name="screen_new_link",
        ),
        path("<slug:slug>/screens/<int:number>/remove/", hall.screen_remove, name="screen_remove"),
        # Who keeps the score: the tournament's accounts, its way of entering rounds.
        path("<slug:slug>/people/", people.people, name="people"),
        path("<slug:slug>/people/new/", people.create_account, name="create_account"),
        path("<slug:slug>/people/add/", people.add_account, name="add_account"),
        path(
            "<slug:slug>/people/<int:user_id>/remove/",
            people.remove_account,
            name="remove_account",
        ),
        path(
            "<slug:slug>/people/<int:user_id>/reset-password/",
            people.reset_password,
            name="reset_password",
        ),
        path(
            "<slug:slug>/people/<int:user_id>/unlock/",
            people.unlock_account,
            name="unlock_account",
        ),
        path("<slug:slug>/scorekeeping/", people.scorekeeping, name="scorekeeping"),
        # Disputes from the tables.
        path("<slug:slug>/disputes/", disputes.queue, name="disputes"),
        path("<slug:slug>/disputes/open/", disputes.open_disputes, name="open_disputes"),
        path(
            "<slug:slug>/disputes/<int:dispute_id>/dismiss/",
            disputes.dismiss,
            name="dismiss_dispute",
        ),
        # Sessions: draw, adjust, referees, start, print.
        path("<slug:slug>/sessions/", sessions.session_create, name="session_create"),
        path("<slug:slug>/final/", sessions.final_create, name="final_create"),
        path("<slug:slug>/sessions/<int:number>/", sessions.session_detail, name="session"),
        path(
            "<slug:slug>/sessions/<int:number>/draw/", sessions.session_redraw, name="session_draw"
        ),
        path(
            "<slug:slug>/sessions/<int:number>/adjust/",
            sessions.session_adjust,
            name="session_adjust",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/rebalance/",
            sessions.session_rebalance,
            name="session_rebalance",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/referees/",
            sessions.session_referees,
            name="session_referees",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/status/",
            sessions.session_status,
            name="session_status",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/entry/",
            sessions.session_entry,
            name="session_entry",
        ),
        # The session clock: its limit and changes, and the end of every unfinished game.
        path(
            "<slug:slug>/sessions/<int:number>/clock/",
            sessions.session_clock,
            name="session_clock",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/end-games/",
            sessions.session_end_games,
            name="session_end_games",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/tables/<int:table_number>/code/",
            sessions.reissue_code,
            name="reissue_code",
        ),
        path(
            "<slug:slug>/sessions/<int:number>/table-list/",
            sessions.table_list,
            name="table_list",
        ),
        # The blank sheets carry the tables' code links: the view knows the site's address.
        path(
            "<slug:slug>/sessions/<int:number>/score-sheets.pdf",
            printing.score_sheets,
            name="score_sheets_pdf",
        ),
    ],
    "manage",
)
