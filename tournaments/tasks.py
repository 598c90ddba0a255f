"""The tournaments' background tasks (django-tasks, run by `manage.py tasks_worker`): work a
save or a click asks for and must not wait for.

- `rate_games`: the ratings follow a finished game's change (`seasons.ratings.schedule`
  queues it once the change commits). Idempotent: it rates what is out of date as the games
  stand when it runs, so a second task for the same game (queued twice, or run again after a
  worker died) finds nothing to do.
- `prepare_download`: a heavy PDF (the tournament report) rendered once for a version and
  stored (`PreparedDownload`); the view answers "being prepared" until it is there.
"""

from __future__ import annotations

import logging

from django.utils import translation
from django_tasks import task

from printing import pdfs
from printing.models import PreparedDownload
from seasons import ratings

logger = logging.getLogger(__name__)


@task()
def rate_games(game_ids: list[int]) -> int:
    """Bring the ratings up to date after `game_ids` changed; how many games were rated
    (0: up to date already). A failure fails the task (its traceback is kept in the queue);
    the games stay saved and the next change, or `recompute_ratings`, catches up."""
    try:
        return ratings.rate_changed_games(game_ids)
    except Exception:
        logger.exception("ratings not updated after games %s: run recompute_ratings", game_ids)
        raise


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
