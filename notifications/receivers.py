"""The tournaments app's signals, turned into tasks once the change commits: a save never
waits for a push service, and a change rolled back tells nobody."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from notifications import push
from notifications.tasks import plan_last_minutes, tell
from tournaments import signals


def _tell_on_commit(kind: str, *args: object) -> None:
    if push.enabled():
        transaction.on_commit(lambda: tell.enqueue(kind, *args))


@receiver(signals.seating_changed)
def seating_changed(sender: Any, session: Any, **kwargs: Any) -> None:
    _tell_on_commit("draw", session.pk)


@receiver(signals.game_finished)
def game_finished(sender: Any, game: Any, **kwargs: Any) -> None:
    _tell_on_commit("game_over", game.pk)


@receiver(signals.sheet_signed_off)
def sheet_signed_off(sender: Any, game: Any, **kwargs: Any) -> None:
    _tell_on_commit("signed_off", game.pk)


@receiver(signals.round_corrected)
def round_corrected(
    sender: Any, game: Any, number: int, before: Any, after: Any, **kwargs: Any
) -> None:
    changes = [
        [name, before.hands[name], after.hands[name]]
        for name in after.hands
        if name in before.hands and before.hands[name] != after.hands[name]
    ]
    _tell_on_commit("corrected", game.pk, number, game.version, changes)


@receiver(signals.dispute_raised)
def dispute_raised(sender: Any, dispute: Any, **kwargs: Any) -> None:
    _tell_on_commit("dispute_raised", dispute.pk)


@receiver(signals.dispute_answered)
def dispute_answered(sender: Any, dispute: Any, **kwargs: Any) -> None:
    _tell_on_commit("dispute_answered", dispute.pk)


@receiver(signals.clock_changed)
def clock_changed(sender: Any, session: Any, **kwargs: Any) -> None:
    # The moments of "5 minutes left" moved: the task computes them anew.
    if push.enabled():
        transaction.on_commit(lambda: plan_last_minutes.enqueue(session.pk))


@receiver(signals.hall_message_changed)
def hall_message_changed(sender: Any, screen: Any, **kwargs: Any) -> None:
    _tell_on_commit("hall_message", screen.pk, screen.message)
