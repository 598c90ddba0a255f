"""The people of a tournament (/manage/<slug>/people/): the accounts that direct and referee
it, and who keeps the score.

A director creates an account (a strong one-time password, shown once on a printable card),
adds an existing one by its exact username, removes one (deactivated when it belongs to no
other tournament), resets its password or unlocks it after too many wrong passwords. No page
lists or searches the accounts of other tournaments. Access goes through
`access.get_tournament_for_director` as everywhere in /manage/: 404 for who may not see the
tournament, 403 for who may only follow it.
"""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from tournaments.access import get_tournament_for_director, login_to_read
from tournaments.errors import Refused, on_form
from tournaments.forms_people import AccountForm, NewAccountForm, ScorekeepingForm
from tournaments.models import Tournament
from tournaments.qr import qr_svg
from tournaments.views.live import HtmxHttpRequest
from tournaments.views.refusals import answers_refusals


def _role_label(tournament: Tournament, user: Any, role: str) -> str:
    """The role as the list says it: the director who created the tournament is its
    director, not a co-director (issue 33.8)."""
    if role == Tournament.Role.DIRECTOR and user.pk == tournament.created_by_id:
        return gettext("director")
    return str(Tournament.Role(role).label)


def _render_people(
    request: HtmxHttpRequest,
    tournament: Tournament,
    new_form: NewAccountForm | None = None,
    add_form: AccountForm | None = None,
    scorekeeping_form: ScorekeepingForm | None = None,
    status: int = 200,
) -> HttpResponse:
    own = tournament.own_accounts()
    people = [
        (user, [_role_label(tournament, user, role) for role in roles], user.pk in own)
        for user, roles in tournament.people()
    ]
    locked = _locked_out([user for user, _, _ in people])
    return render(
        request,
        "tournaments/director/people.html",
        {
            "tournament": tournament,
            "people": people,
            "new_form": new_form or NewAccountForm(prefix="new"),
            "add_form": add_form or AccountForm(prefix="add"),
            "scorekeeping_form": scorekeeping_form
            or ScorekeepingForm(
                initial={"entry": tournament.entry, "confirmation": tournament.confirmation}
            ),
            "roles": Tournament.Role,
            "locked": {user.pk for user in locked if _may_unlock(user)},
        },
        status=status,
    )


def _person(tournament: Tournament, user_id: int):
    """An account of this tournament, or 404 (another tournament's people stay unseen)."""
    return get_object_or_404(
        get_user_model()
        .objects.filter(Q(directed_tournaments=tournament) | Q(refereed_tournaments=tournament))
        .distinct(),
        pk=user_id,
    )


def _locked_out(accounts: list) -> list:
    """The accounts django-axes locks out now, from at least one address: the failure limit
    reached within the cool-off time (the lockout is by username and address)."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    locked = set(
        AccessAttempt.objects.filter(
            username__in=[user.get_username() for user in accounts],
            failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
            attempt_time__gte=since,
        ).values_list("username", flat=True)
    )
    return [user for user in accounts if user.get_username() in locked]


def _may_unlock(user) -> bool:
    """A director unlocks the tournament's referees and co-directors; a staff or superuser
    account is the administrators' (unlocking it would let a director go on guessing)."""
    return not (user.is_staff or user.is_superuser)


def _card(
    request: HtmxHttpRequest, tournament: Tournament, user, password: str, new: bool
) -> HttpResponse:
    """The account's printable card with its one-time password: shown this once, never kept
    by the browser, the service worker or a proxy."""
    login = request.build_absolute_uri(reverse("login"))
    roles = [Tournament.Role(role).label for role in dict(tournament.people()).get(user, [])]
    response = render(
        request,
        "tournaments/director/account_card.html",
        {
            "tournament": tournament,
            "account": user,
            "roles": roles,
            "password": password,
            "new": new,
            "login_url": login,
            "qr": mark_safe(qr_svg(login)),  # noqa: S308 - reportlab's own SVG
        },
    )
    patch_cache_control(response, no_store=True, no_cache=True, private=True)
    return response


@login_to_read
@require_safe
def people(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The tournament's directors and referees, and who keeps the score."""
    return _render_people(request, get_tournament_for_director(request, slug))


@require_POST
def create_account(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A new referee or co-director account, with its one-time password on a card."""
    tournament = get_tournament_for_director(request, slug)
    form = NewAccountForm(request.POST, prefix="new")
    if form.is_valid():
        try:
            user, password = tournament.create_account(
                form.cleaned_data["username"], form.cleaned_data["role"]
            )
        except Refused as refusal:
            on_form(form, refusal, "username")
        else:
            return _card(request, tournament, user, password, new=True)
    return _render_people(request, tournament, new_form=form, status=400)


@require_POST
def add_account(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """An existing account, named by its exact username, as a referee or co-director."""
    tournament = get_tournament_for_director(request, slug)
    form = AccountForm(request.POST, prefix="add")
    if form.is_valid():
        role = form.cleaned_data["role"]
        try:
            user = tournament.add_account(form.cleaned_data["username"], role, by=request.user)
        except Refused as refusal:
            on_form(form, refusal, "username")
        else:
            if role == Tournament.Role.DIRECTOR:
                text = gettext("%(username)s now directs this tournament too.")
            else:
                text = gettext("%(username)s now referees this tournament.")
            messages.success(request, text % {"username": user.get_username()})
            return redirect("manage:people", slug)
    return _render_people(request, tournament, add_form=form, status=400)


@require_POST
@answers_refusals(back="manage:people")
def remove_account(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Take an account off the tournament (deactivated when it belongs to no other)."""
    tournament = get_tournament_for_director(request, slug)
    user = _person(tournament, user_id)
    deactivated = tournament.remove_account(user, by=request.user)
    text = gettext("%(username)s no longer belongs to this tournament.")
    if deactivated:
        text += " " + gettext("The account belongs to no other tournament: it is deactivated.")
    messages.success(request, text % {"username": user.get_username()})
    return redirect("manage:people", slug)


@require_POST
@answers_refusals(back="manage:people")
def reset_password(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    """A new one-time password for an account of this tournament alone, on a new card."""
    tournament = get_tournament_for_director(request, slug)
    user = _person(tournament, user_id)
    password = tournament.reset_password(user, by=request.user)
    return _card(request, tournament, user, password, new=False)


@require_POST
def unlock_account(request: HtmxHttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Let an account of this tournament log in again at once after too many wrong passwords,
    from every address (django-axes' own reset of the username's failed attempts)."""
    tournament = get_tournament_for_director(request, slug)
    user = _person(tournament, user_id)
    username = user.get_username()
    if not _may_unlock(user):
        messages.error(
            request,
            gettext("%(username)s is an administrator's account: an administrator unlocks it.")
            % {"username": username},
        )
        return redirect("manage:people", slug)
    axes_reset(username=username)
    messages.success(
        request,
        gettext("%(username)s is unlocked and can log in again.") % {"username": username},
    )
    return redirect("manage:people", slug)


@require_POST
def scorekeeping(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Who enters the rounds (referee accounts or table codes) and the players' confirmation."""
    tournament = get_tournament_for_director(request, slug)
    form = ScorekeepingForm(request.POST)
    if not form.is_valid():
        return _render_people(request, tournament, scorekeeping_form=form, status=400)
    tournament.set_scorekeeping(form.cleaned_data["entry"], form.cleaned_data["confirmation"])
    messages.success(request, gettext("Saved: who keeps the score."))
    return redirect("manage:people", slug)
