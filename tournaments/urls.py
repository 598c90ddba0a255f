from __future__ import annotations

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("tables/", views.my_tables, name="my_tables"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/preview/", views.round_preview, name="round_preview"),
    path("tables/<int:table_id>/rounds/", views.record_round, name="record_round"),
    path(
        "tables/<int:table_id>/rounds/<int:number>/correct/",
        views.correct_round,
        name="correct_round",
    ),
    path("tables/<int:table_id>/rounds/undo/", views.undo_round, name="undo_round"),
    path("tables/<int:table_id>/end/", views.end_game, name="end_game"),
]
