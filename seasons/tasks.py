"""The seasons' background task (django-tasks, run by `manage.py tasks_worker`): the ratings
follow a finished game's change. Once the change commits, `rate_games` is queued (a game's
save adds one row to the task queue and never waits for its ratings, nor fails by them; a
change rolled back queues nothing). Idempotent: it rates what is out of date as the games
stand when it runs, so a second task for the same game (queued twice, or run again after a
worker died) finds nothing to do."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django_tasks import task

from seasons import ratings
from tournaments.signals import finished_game_changed

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


@receiver(finished_game_changed, dispatch_uid="ratings_follow_a_finished_game")
def _finished_game_changed(sender: Any, game_id: int, **kwargs: Any) -> None:
    transaction.on_commit(functools.partial(rate_games.enqueue, [game_id]), robust=True)
