from __future__ import annotations

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
]
