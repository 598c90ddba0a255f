"""The hall's screens: the projector page anyone may open, and the director's controls."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from hall.access import find_screen
from hall.board import board
from hall.forms import HallScreenAddForm, HallScreenForm
from hall.models import HallScreen
from tournaments import access
from tournaments.models import Tournament
from tournaments.views.live import HtmxHttpRequest, page_version, poll_seconds, unchanged

# --- the screen ---------------------------------------------------------------------------


@require_safe
def screen(request: HtmxHttpRequest, slug: str, number: int = 1) -> HttpResponse:
    """A screen of a tournament anyone may follow (screen 1 exists before it is set up)."""
    tournament = access.get_tournament_for_viewer(request, slug)
    found = tournament.screens.filter(number=number).first()
    if found is None:
        if number != 1:
            raise Http404("No such screen.")
        found = HallScreen.default(tournament)
    return _render_screen(request, tournament, found)


@require_safe
def screen_by_key(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A screen by its secret link: how a private tournament's hall sees it."""
    found = find_screen(request, key)
    return _render_screen(request, found.tournament, found)


def _render_screen(
    request: HtmxHttpRequest, tournament: Tournament, found: HallScreen
) -> HttpResponse:
    # The public pages' version, and the director's last change of this screen.
    version = f"{page_version(tournament)}-{found.stamp}"
    if unchanged(request, version):
        return HttpResponse(status=204)
    template = "hall/screen.html"
    if request.htmx:
        template += "#screen"
    return render(
        request,
        template,
        {
            "board": board(tournament, found),
            "version": version,
            "poll_seconds": poll_seconds(),
        },
    )


# --- the director's controls ----------------------------------------------------------------


def _screens(tournament: Tournament) -> list[HallScreen]:
    return list(tournament.screens.all()) or [HallScreen.default(tournament)]


def _links(request: HtmxHttpRequest, tournament: Tournament, found: HallScreen) -> dict[str, str]:
    """The addresses a screen answers at: the public one (public tournaments), the secret one."""
    public = ""
    if tournament.is_public:
        args: list[object] = [tournament.slug]
        if found.number != 1:
            args.append(found.number)
        name = "public:hall" if found.number == 1 else "public:hall_screen"
        public = request.build_absolute_uri(reverse(name, args=args))
    secret = ""
    if found.key:
        secret = request.build_absolute_uri(reverse("public:hall_key", args=[found.key]))
    return {"public": public, "secret": secret}


def _card(request: HtmxHttpRequest, tournament: Tournament, found: HallScreen, form=None):
    return {
        "screen": found,
        "form": form or HallScreenForm(instance=found, prefix=f"screen-{found.number}"),
        "links": _links(request, tournament, found),
        "views": board(tournament, found).views if found.pk else (),
    }


@access.login_to_read
@require_safe
def screens(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    if not tournament.is_public:
        # No public address: the screen's secret link is the only way in, shown at once.
        HallScreen.saved_first(tournament)
    return _render_screens(request, tournament)


def _render_screens(
    request: HtmxHttpRequest,
    tournament: Tournament,
    add_form: HallScreenAddForm | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "hall/manage.html",
        {
            "tournament": tournament,
            "cards": [_card(request, tournament, found) for found in _screens(tournament)],
            "add_form": add_form or HallScreenAddForm(),
        },
        status=status,
    )


def _screen_for_change(tournament: Tournament, number: int) -> HallScreen:
    if number == 1:
        # Screen 1 answers before it is set up: the first change saves it.
        found, _ = HallScreen.objects.get_or_create(tournament=tournament, number=1)
        return found
    return get_object_or_404(tournament.screens.all(), number=number)


@require_POST
def screen_update(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    found = _screen_for_change(tournament, number)
    form: HallScreenForm | None = HallScreenForm(
        request.POST, instance=found, prefix=f"screen-{number}"
    )
    if form is not None and form.is_valid():
        found.set_up(**{field: form.cleaned_data[field] for field in form.Meta.fields})
        if not request.htmx:
            messages.success(request, gettext("%(screen)s changed.") % {"screen": found.label})
            return redirect("manage:screens", tournament.slug)
        form = None
    status = 200 if form is None else 400
    if not request.htmx:
        return render(
            request,
            "hall/manage.html",
            {
                "tournament": tournament,
                "cards": [_card(request, tournament, found, form)],
                "add_form": HallScreenAddForm(),
            },
            status=status,
        )
    context = {"tournament": tournament, "card": _card(request, tournament, found, form)}
    if form is None:
        context["saved"] = True
    return render(request, "hall/manage.html#card", context, status=status)


@require_POST
def screen_add(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    form = HallScreenAddForm(request.POST)
    if not form.is_valid():
        return _render_screens(request, tournament, form, status=400)
    added = HallScreen.add(tournament, form.cleaned_data["name"])
    messages.success(request, gettext("%(screen)s added.") % {"screen": added.label})
    return redirect(reverse("manage:screens", args=[tournament.slug]) + f"#screen-{added.number}")


@require_POST
def screen_new_link(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    found = _screen_for_change(tournament, number)
    found.new_key()
    messages.success(
        request,
        gettext("%(screen)s has a new link: the old one no longer works.")
        % {"screen": found.label},
    )
    return redirect(reverse("manage:screens", args=[tournament.slug]) + f"#screen-{number}")


@require_POST
def screen_remove(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = access.get_tournament_for_director(request, slug)
    if number == 1:
        # The public address always has a screen 1.
        raise Http404("Screen 1 stays.")
    found = get_object_or_404(tournament.screens.all(), number=number)
    found.delete()
    messages.success(request, gettext("%(screen)s removed.") % {"screen": found.label})
    return redirect("manage:screens", tournament.slug)
