from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import include, path

from api.v1 import api
from tournaments import admin as tournament_admin
from yaniv_club.health import health
from yaniv_club.metrics import metrics
from yaniv_club.routes import code_patterns, manage_patterns, public_patterns, table_patterns


def _by_email(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A password-reset page: 404 unless the site can send email (EMAIL_URL)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_BY_EMAIL:
            raise Http404("Passwords are not reset by email on this site.")
        return view(request, *args, **kwargs)

    return wrapper


class LoginView(auth_views.LoginView):
    """Django's login page; it offers "Forgot your password?" only when email works."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["password_reset"] = settings.PASSWORD_RESET_BY_EMAIL
        return context


# django.contrib.auth.urls, with the password reset by email only where email is configured.
account_patterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        _by_email(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        _by_email(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        _by_email(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        _by_email(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("health/", health, name="health"),
    # Before the admin's own: "view on site" for the rows the admin lists to this user only.
    path(
        "admin/r/<int:content_type_id>/<path:object_id>/",
        admin.site.admin_view(tournament_admin.view_on_site),
    ),
    # For the operator on the server only (yaniv_club/metrics.py); 404 to anyone else.
    path("metrics/", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/", include(account_patterns)),
    # Django's set_language: the header's language switcher posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("tables/", include(table_patterns)),
    path("c/", include(code_patterns)),
    # Web push: opting in and out (the notifications app).
    path("notifications/", include("notifications.urls")),
    path("manage/", include(manage_patterns)),
    # The public read API (api/), its OpenAPI description and docs page.
    path("api/v1/", api.urls),
    path("", include(public_patterns)),
]
