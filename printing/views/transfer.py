"""The federation's end of a venue's push (printing/transfer.py): an archive imported with
a director's import token."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from printing import archive_import, transfer
from tournaments.access import can_create_tournament

# An archive larger than this is refused before it is read (a championship's is megabytes).
MAX_BYTES = 100 * 1024 * 1024


# No cookie authenticates this request, only the token in its Authorization header: there
# is no session for a forged cross-site request to ride on.
@csrf_exempt
@require_POST
def import_archive(request: HttpRequest) -> JsonResponse:
    """POST the archive's JSON with `Authorization: Bearer <import token>`: 201 with the
    imported tournament's address and the import's report; 400 naming what is wrong
    (nothing imported); 409 when another push of it was saved at the same moment; 401
    without a valid token; 403 for an account that may not create tournaments. The import
    has the director's rights only (`archive_import.import_tournament`'s `pushed`)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    user = transfer.user_of_token(token.strip()) if scheme.lower() == "bearer" else None
    if user is None:
        response = JsonResponse(
            {"error": "a director's import token is needed (manage.py import_token)"}, status=401
        )
        response["WWW-Authenticate"] = 'Bearer realm="tournament import"'
        return response
    if not can_create_tournament(user):
        return JsonResponse({"error": "this account may not create tournaments"}, status=403)
    body = request.read(MAX_BYTES + 1)
    if len(body) > MAX_BYTES:
        return JsonResponse({"error": "the archive is too large"}, status=413)
    try:
        report = archive_import.import_tournament(
            archive_import.loads(body), director=user, pushed=True
        )
    except archive_import.ImportConflict as error:
        # Two pushes of one archive at once: one wins, this one is told so (never a 500).
        return JsonResponse({"error": f"{error}. Nothing was imported."}, status=409)
    except archive_import.ImportRefused as error:
        return JsonResponse({"error": f"{error}. Nothing was imported."}, status=400)
    slug = report.tournament.slug
    return JsonResponse(
        {
            "slug": slug,
            "url": request.build_absolute_uri(reverse("manage:tournament", args=[slug])),
            "report": report.lines(),
        },
        status=201,
    )
