"""The session clock as the partial `tournaments/_clock.html` shows it (tournaments.clock)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone

from tournaments.clock import ClockState, Phase, rule_sentence
from tournaments.models import Round, Session, Table

register = template.Library()


def _ms(moment: datetime | None) -> str:
    return "" if moment is None else str(round(moment.timestamp() * 1000))


@dataclass(frozen=True)
class TableClock:
    """A table's own clock on the session's: its number, its minutes and its time left."""

    number: int
    minutes: int
    state: ClockState

    @property
    def ends_at_ms(self) -> str:
        return _ms(self.state.ends_at) if self.state.phase is Phase.RUNNING else ""

    @property
    def remaining_ms(self) -> str:
        remaining = self.state.remaining
        return "" if remaining is None else str(round(remaining * 1000))


@dataclass(frozen=True)
class ClockView:
    session: Session
    table: Table | None
    state: ClockState
    # What the table (or every table) does now that the time is up: shown once it is up.
    sentence: str
    # The same sentence for the moment the time runs out, which the page's script shows
    # when its countdown reaches 0:00 without waiting for a poll.
    over_text: str
    # (table number, minutes) of the tables given more time than the others.
    extended: tuple[tuple[int, int], ...]
    # The tables given more time whose game goes on, each with its own clock: once the
    # session's time is up they still play, and the clock says for how long.
    playing_on: tuple[TableClock, ...] = ()

    @property
    def dom_id(self) -> str:
        """One clock element per session (or table) on a page: polls swap it by this id."""
        if self.table is not None:
            return f"clock-{self.session.pk}-{self.table.pk}"
        return f"clock-{self.session.pk}"

    @property
    def shown(self) -> bool:
        return self.state.phase is not Phase.NONE

    @property
    def now_ms(self) -> str:
        return _ms(self.state.at)

    @property
    def ends_at_ms(self) -> str:
        return _ms(self.state.ends_at) if self.state.phase is Phase.RUNNING else ""

    @property
    def remaining_ms(self) -> str:
        remaining = self.state.remaining
        return "" if remaining is None else str(round(remaining * 1000))


def _rounds_after(sheet: Any, table: Table | None, state: ClockState) -> int:
    """The rounds of the table's game recorded after the time ran out: read from the sheet
    when the page has it (no query), else counted (a page whose sheet was kept)."""
    if state.ends_at is None:
        return 0
    stored = getattr(sheet, "stored_rounds", None)
    if stored is None:
        if table is None:
            return 0
        return Round.objects.filter(game__table=table, entered_at__gt=state.ends_at).count()
    return sum(1 for played in stored if played.entered_at > state.ends_at)


@register.simple_tag
def session_clock(
    session: Session,
    table: Table | None = None,
    now: datetime | None = None,
    sheet: Any = None,
    tables: Iterable[Table] | None = None,
) -> ClockView:
    """The clock of `session` (for `table` when given) at `now`; `sheet`, the table's sheet
    when the page has it; `tables`, the session's tables when the page lists them (their
    extensions are named)."""
    # A variable the including page does not have arrives as "".
    table = table or None
    state = session.clock(table, now or timezone.now())
    rule = session.tournament.at_time_limit
    finished = table is not None and table.game.finished
    over_text = "" if finished else rule_sentence(rule, table=table is not None)
    sentence = ""
    if state.over and not finished:
        sentence = rule_sentence(
            rule, table=table is not None, rounds_after=_rounds_after(sheet, table, state)
        )
    listed = [
        each for each in (tables or ()) if each.clock_extension and each.session_id == session.pk
    ]
    extended = tuple((each.number, each.clock_extension) for each in listed)
    playing_on: tuple[TableClock, ...] = ()
    if table is None:
        playing_on = tuple(
            TableClock(each.number, each.clock_extension, session.clock(each, state.at))
            for each in listed
            if not each.game.finished
        )
        # Still playing on their own time once the session's is up: the rule's sentence is
        # for the other tables.
        others = [line for line in playing_on if not line.state.over]
        over_text = rule_sentence(rule, table=False, others=bool(playing_on))
        if sentence:
            sentence = rule_sentence(rule, table=False, others=bool(others))
    return ClockView(session, table, state, sentence, over_text, extended, playing_on)
