"""The printing's background task (django-tasks, run by `manage.py tasks_worker`):
`prepare_download` renders a heavy PDF (the tournament report) once for a version and stores
it (`PreparedDownload`); the view answers "being prepared" until it is there."""

from __future__ import annotations

from django.utils import translation
from django_tasks import task

from printing import pdfs
from printing.models import PreparedDownload

# What each kind of prepared download renders: (tournament, show_names) → PDF bytes.
RENDERERS = {
    PreparedDownload.Kind.REPORT: lambda tournament, show_names: pdfs.tournament_report(
        tournament, show_names=show_names
    ),
}


@task()
def prepare_download(prepared_id: int, language: str) -> int:
    """Render the download `prepared_id` asks for, in `language`, and store it; its size in
    bytes (0: nothing to do, it is there already or no longer wanted)."""
    prepared = (
        PreparedDownload.objects.defer("content")
        .select_related("tournament")
        .filter(pk=prepared_id, ready_at__isnull=True)
        .first()
    )
    if prepared is None:
        return 0
    render = RENDERERS[PreparedDownload.Kind(prepared.kind)]
    try:
        with translation.override(language):
            content = render(prepared.tournament, prepared.show_names)
    except Exception:
        # The next click asks again (a failed render is forgotten, never served).
        prepared.delete()
        raise
    return prepared.store(content)
