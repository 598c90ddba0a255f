from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from yaniv_club.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
]
