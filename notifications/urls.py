from __future__ import annotations

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("t/<slug:slug>/players/<int:player_id>/", views.subscribe_player, name="subscribe"),
    path(
        "t/<slug:slug>/players/<int:player_id>/stop/",
        views.unsubscribe_player,
        name="unsubscribe",
    ),
    path("c/<str:code>/seats/<int:position>/", views.subscribe_seat, name="subscribe_seat"),
    path(
        "c/<str:code>/seats/<int:position>/stop/",
        views.unsubscribe_seat,
        name="unsubscribe_seat",
    ),
    path("tables/<int:table_id>/", views.subscribe_referee, name="subscribe_referee"),
    path("tables/<int:table_id>/stop/", views.unsubscribe_referee, name="unsubscribe_referee"),
    path("stop/<str:token>/", views.stop, name="stop"),
]
