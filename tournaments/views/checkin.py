"""Check-in at the door, on a player's phone: no account, the door's short address alone.

`/in/<door>/` finds a name (registered players, withdrawn ones aside) and checks that player
in with the door's safeguard; the phone that did it may undo it for a while. An open event
takes registrations there too. Every view finds the door through `access.find_door` (a wrong
address is a guess, counted as a table code's are); a wrong member number or desk code is a
guess too, so nobody checks others in by trying. A plain post redirects to the page that
shows what changed; htmx gets that part back.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournaments import access, checkin
from tournaments.errors import Refused, on_form
from tournaments.forms_checkin import EntryForm, ProofForm
from tournaments.models import Door, Registration
from tournaments.models.checkin import UNDO_MINUTES
from tournaments.views.live import HtmxHttpRequest, poll_seconds
from tournaments.views.refusals import answers_refusals

# Names a search shows at most, and the fewest letters it needs (no list of everyone).
SHOWN = 20
LEAST_LETTERS = 2


def _device(request: HtmxHttpRequest) -> str:
    return access.device_of(request)[0]


def _answer(request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
    """The phone keeps its id (a signed cookie): it undoes and follows its registrations."""
    device, new = access.device_of(request)
    if new:
        access.remember_device(response, device, request)
    return response


def _mine(found: Door, device: str) -> dict[str, Any]:
    """What this phone did at the door: the players it checked in (undo still possible) and
    its registrations."""
    if not device:
        return {"mine": [], "my_requests": [], "waiting": False}
    mine = list(
        Registration.objects.filter(
            tournament_id=found.tournament_id, checked_in=True, checked_in_device=device
        ).select_related("player")
    )
    requests = list(found.requests.filter(device=device).order_by("-created_at")[:5])
    return {
        "mine": [registration for registration in mine if found.may_undo(registration, device)],
        "my_requests": requests,
        # A registration of the phone still waits: its part asks again now and then.
        "waiting": any(request.open for request in requests),
    }


@require_safe
def door_page(request: HtmxHttpRequest, door: str) -> HttpResponse:
    """The door's page: find your name (htmx: the results as you type)."""
    found = access.find_door(request, door)
    query = request.GET.get("q", "").strip()[:100]
    results: list[Registration] = []
    if len(query) >= LEAST_LETTERS:
        results = list(
            Registration.objects.filter(
                tournament_id=found.tournament_id, withdrawn_at__isnull=True
            )
            .filter(Q(player__name__icontains=query) | Q(player__member_number__iexact=query))
            .select_related("player__club")
            .order_by("player__name")[:SHOWN]
        )
    context = {
        "door": found,
        "tournament": found.tournament,
        "q": query,
        "results": results,
        "least_letters": LEAST_LETTERS,
        **_mine(found, _device(request)),
    }
    template = "tournaments/checkin/door.html"
    if request.htmx:
        template += "#results"
    return _answer(request, render(request, template, context))


def _registration(found: Door, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player__club"),
        pk=registration_id,
        tournament_id=found.tournament_id,
        withdrawn_at__isnull=True,
    )


def _player_page(
    request: HtmxHttpRequest,
    found: Door,
    registration: Registration,
    form: ProofForm | None = None,
    status: int = 200,
    refused: str = "",
) -> HttpResponse:
    template = "tournaments/checkin/player.html"
    if request.htmx:
        # htmx swaps only a 2xx answer: the card with what was refused, where it was typed.
        template, status = template + "#card", 200
    context = {
        "door": found,
        "tournament": found.tournament,
        "registration": registration,
        "form": form or ProofForm(door=found),
        "may_undo": found.may_undo(registration, _device(request)),
        "undo_minutes": UNDO_MINUTES,
        "refused": refused,
    }
    return _answer(request, render(request, template, context, status=status))


def _refused_at_player(
    request: HtmxHttpRequest, message: str, door: str, registration_id: int
) -> HttpResponse:
    """A check-in or undo refused (the door closed meanwhile, too late to undo): the
    player's card says why."""
    found = access.find_door(request, door)
    registration = _registration(found, registration_id)
    return _player_page(request, found, registration, status=400, refused=message)


def _wrong_proof(request: HtmxHttpRequest, form: Any, refusal: Refused | None) -> bool:
    """A wrong member number or desk code: on the form, and counted as a guess (past the
    limit, 429 for the address: nobody checks others in by trying)."""
    if refusal is None:
        return False
    access.count_wrong_guess(request)
    on_form(form, refusal, "proof")
    return True


@require_http_methods(["GET", "HEAD", "POST"])
@answers_refusals(_refused_at_player)
def door_player(request: HtmxHttpRequest, door: str, registration_id: int) -> HttpResponse:
    """ "Is this you?": the safeguard's field and the button; a post checks the player in."""
    found = access.find_door(request, door)
    registration = _registration(found, registration_id)
    if request.method != "POST":
        return _player_page(request, found, registration)
    form = ProofForm(request.POST, door=found)
    if not form.is_valid():
        return _player_page(request, found, registration, form, 400)
    if _wrong_proof(request, form, found.proof_fails(registration, form.cleaned_data["proof"])):
        return _player_page(request, found, registration, form, 400)
    device, _ = access.device_of(request)
    found.check_in(registration, device=device)
    if request.htmx:
        return _player_page(request, found, registration)
    return _answer(request, redirect("public:door_player", found.code, registration.pk))


@require_POST
@answers_refusals(_refused_at_player)
def door_undo(request: HtmxHttpRequest, door: str, registration_id: int) -> HttpResponse:
    """The phone that checked the player in takes it back (within the window)."""
    found = access.find_door(request, door)
    registration = _registration(found, registration_id)
    found.undo(registration, device=_device(request))
    if request.htmx:
        return _player_page(request, found, registration)
    return redirect("public:door_player", found.code, registration.pk)


def _register_page(
    request: HtmxHttpRequest, found: Door, form: EntryForm | None = None, status: int = 200
) -> HttpResponse:
    template = "tournaments/checkin/register.html"
    if request.htmx:
        template, status = template + "#status", 200
    context = {
        "door": found,
        "tournament": found.tournament,
        "form": form or EntryForm(door=found),
        "poll_seconds": poll_seconds(),
        **_mine(found, _device(request)),
    }
    return _answer(request, render(request, template, context, status=status))


@require_http_methods(["GET", "HEAD", "POST"])
def door_register(request: HtmxHttpRequest, door: str) -> HttpResponse:
    """Not on the list: a registration at the door (where the door takes them), and what
    became of this phone's registrations (htmx: that part alone, polled while one waits)."""
    found = access.find_door(request, door)
    if request.method != "POST":
        return _register_page(request, found)
    form = EntryForm(request.POST, door=found)
    if not form.is_valid():
        return _register_page(request, found, form, 400)
    if found.safeguard == Door.Safeguard.DESK_CODE and _wrong_proof(
        request, form, found.desk_code_fails(form.cleaned_data["proof"])
    ):
        return _register_page(request, found, form, 400)
    device, _ = access.device_of(request)
    try:
        checkin.send(found, form.entry(), device=device)
    except Refused as refusal:
        on_form(form, refusal)
        return _register_page(request, found, form, 400)
    if request.htmx:
        return _register_page(request, found)
    return _answer(request, redirect(reverse("public:door_register", args=[found.code])))
