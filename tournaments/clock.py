"""The session clock: how much time a session's tables have left, computed, never ticking.

A session stores a few moments and numbers (`Session.time_limit`, when the clock started,
when it was paused, the seconds of earlier pauses, the minutes added for every table) and a
table the minutes added for it alone. `clock_state` turns them into what a page shows at a
moment: nothing is written while time passes, so a poll reads the deadline with the rows it
reads anyway and a page's script counts down from it.

What the tables do when the time is up is the tournament's rule (`AtTimeLimit`); the table
page says it in words (`rule_sentence`) and `Game.record_round` ends the game at the time
limit when the rule makes the round just recorded the last one (docs/interpretations.md).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# A time limit, and everything added to it, in minutes: a long day at most.
MAX_MINUTES = 720
# What one extension adds at most, in minutes.
MAX_EXTENSION = 120


class AtTimeLimit(models.TextChoices):
    """What a table does when the session's time is up (a tournament's setting)."""

    FINISH_ROUND = "finish_round", _("Finish the round being played, then the game ends")
    LAST_ROUND = "last_round", _("Play one last round after the round being played")
    DIRECTOR = "director", _("Play on until the director ends the games")


class Phase(enum.StrEnum):
    NONE = "none"  # no time limit
    WAITING = "waiting"  # a limit, the clock not started
    RUNNING = "running"
    PAUSED = "paused"
    OVER = "over"  # the time is up (also while paused after it was up)


@dataclass(frozen=True)
class ClockState:
    """A clock as it reads at `at` for the whole session, or for one table."""

    phase: Phase
    at: datetime
    # Minutes: the limit, added for every table, added for this table alone.
    limit: int | None = None
    extension: int = 0
    table_extension: int = 0
    # Seconds left at `at`: the whole time while waiting, frozen while paused, negative once
    # the time is up (by how much). None without a limit.
    remaining: float | None = None
    # The moment the time runs or ran out: known while running and once over; None while
    # waiting or paused before the end.
    ends_at: datetime | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def started(self) -> bool:
        return self.phase in (Phase.RUNNING, Phase.PAUSED, Phase.OVER)

    @property
    def minutes(self) -> int:
        """The time the table has, in minutes: the limit and what was added."""
        return (self.limit or 0) + self.extension + self.table_extension

    @property
    def shown(self) -> str:
        """The time left as a clock shows it: "89:59", "0:00" once it is up; a started second
        counts as one, so 0:00 shows exactly at the limit."""
        if self.remaining is None:
            return ""
        seconds = max(0, math.ceil(self.remaining))
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def token(self) -> str:
        """Changes when what a page shows of the clock changes, and only then: a paused or
        stopped clock by its time left, a running one by its end, which time passing leaves
        alone until the end is reached (for the pages' polls)."""
        if self.phase is Phase.NONE:
            return ""
        if self.phase is Phase.WAITING:
            return f"w{self.minutes}"
        if self.phase is Phase.PAUSED:
            return f"p{round((self.remaining or 0) * 1000)}"
        assert self.ends_at is not None
        return f"{self.phase.value[0]}{round(self.ends_at.timestamp() * 1000)}"


def clock_state(
    *,
    limit: int | None,
    started_at: datetime | None,
    paused_at: datetime | None,
    paused_seconds: int,
    extension: int,
    table_extension: int = 0,
    at: datetime,
) -> ClockState:
    """The clock at `at`. Time stands still from `paused_at` (the pause going on) and for
    `paused_seconds` (the pauses before); the tables have the limit and the extensions."""
    if limit is None:
        return ClockState(Phase.NONE, at)
    total = (limit + extension + table_extension) * 60
    known = ClockState(
        Phase.WAITING, at, limit=limit, extension=extension, table_extension=table_extension
    )
    if started_at is None:
        return replace(known, remaining=float(total))
    stopped = paused_at or at
    elapsed = (stopped - started_at).total_seconds() - paused_seconds
    remaining = total - elapsed
    ends_at = started_at + timedelta(seconds=paused_seconds + total)
    if remaining <= 0:
        return replace(known, phase=Phase.OVER, remaining=remaining, ends_at=ends_at)
    if paused_at is not None:
        return replace(known, phase=Phase.PAUSED, remaining=remaining)
    return replace(known, phase=Phase.RUNNING, remaining=remaining, ends_at=ends_at)


def rule_sentence(rule: str, *, table: bool, rounds_after: int = 0, others: bool = False) -> str:
    """What the tables do now that the time is up, by the tournament's rule.

    For one table (`table`), with the rounds it recorded after the limit; for the whole
    session (the public pages, the hall) what every table does, or with `others` what the
    tables do whose time is up while tables given more time still play.
    """
    if others and not table:
        if rule == AtTimeLimit.DIRECTOR:
            return gettext(
                "Time is up for the other tables: they play on until the director ends the games."
            )
        if rule == AtTimeLimit.LAST_ROUND:
            return gettext(
                "Time is up for the other tables: each finishes the round being played, then "
                "plays one last round."
            )
        return gettext(
            "Time is up for the other tables: each finishes the round being played; it is "
            "the last."
        )
    if rule == AtTimeLimit.DIRECTOR:
        if table:
            return gettext("Time is up: play on until the director ends the game.")
        return gettext("Time is up: the tables play on until the director ends the games.")
    if rule == AtTimeLimit.LAST_ROUND:
        if not table:
            return gettext(
                "Time is up: every table finishes the round being played, then plays one "
                "last round."
            )
        if rounds_after == 0:
            return gettext(
                "Time is up: finish the round being played, then play one last round. "
                "The game ends when that last round is recorded."
            )
        return gettext("Last round: the game ends at the time limit when it is recorded.")
    if not table:
        return gettext("Time is up: every table finishes the round being played; it is the last.")
    return gettext(
        "Time is up: finish the round being played; it is the last. The game ends at the time "
        "limit when it is recorded."
    )


def rounds_to_end(rule: str) -> int | None:
    """How many rounds recorded after the limit end the game by the rule (None: the
    director ends it)."""
    rounds: dict[str, int] = {AtTimeLimit.FINISH_ROUND: 1, AtTimeLimit.LAST_ROUND: 2}
    return rounds.get(rule)


def end_reason(rule: str) -> str:
    """The audit log's reason when a game ends by itself at the time limit."""
    if rule == AtTimeLimit.LAST_ROUND:
        return gettext("Time limit: the last round after the round being played is recorded.")
    return gettext("Time limit: the round being played at the limit is recorded.")
