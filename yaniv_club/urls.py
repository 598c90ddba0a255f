from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from yaniv_club.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # Django's set_language: the header's language switcher posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.urls")),
]
