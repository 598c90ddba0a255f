"""The director's forms of the session clock: its time limit and changes, and the end of every
unfinished game of a session (tournaments.clock, Session's clock methods)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from tournaments.clock import MAX_EXTENSION, MAX_MINUTES
from tournaments.models import Session, Table


class ClockForm(forms.Form):
    """One change of a session's clock: the limit (before the start), start, pause, resume, or
    an extension for every table or one (`table` by number; empty: every table)."""

    LIMIT, START, PAUSE, RESUME, EXTEND = "limit", "start", "pause", "resume", "extend"

    action = forms.ChoiceField(
        choices=[(action, action) for action in (LIMIT, START, PAUSE, RESUME, EXTEND)]
    )
    limit = forms.IntegerField(
        label=gettext_lazy("Time limit (minutes)"),
        required=False,
        min_value=1,
        max_value=MAX_MINUTES,
        help_text=gettext_lazy("Empty: no time limit."),
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"), required=False, min_value=1, max_value=MAX_EXTENSION
    )
    table = forms.IntegerField(label=gettext_lazy("For"), required=False, min_value=1)
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=500)

    def __init__(self, session: Session, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session = session

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("action") == self.EXTEND:
            if cleaned.get("minutes") is None and "minutes" not in self.errors:
                self.add_error("minutes", gettext("How many minutes?"))
            number = cleaned.get("table")
            if number is not None:
                found = self.session.tables.filter(number=number).first()
                if found is None:
                    self.add_error(
                        "table", gettext("There is no table %(number)s.") % {"number": number}
                    )
                cleaned["table"] = found
        return cleaned

    def message(self) -> str:
        """The errors as one sentence for the notice above the controls."""
        return " ".join(str(error) for errors in self.errors.values() for error in errors)

    def apply(self, *, by: Any) -> str:
        """Make the change through the session's methods; what to tell the director."""
        data = self.cleaned_data
        action, session = data["action"], self.session
        if action == self.LIMIT:
            session.set_time_limit(data["limit"], by=by)
            if data["limit"] is None:
                return gettext("The session has no time limit.")
            return gettext("Time limit: %(minutes)s minutes.") % {"minutes": data["limit"]}
        if action == self.START:
            session.start_clock(by=by)
            return gettext("The clock runs: %(minutes)s minutes.") % {
                "minutes": session.time_limit
            }
        if action == self.PAUSE:
            session.pause_clock(by=by)
            return gettext("The clock is paused for every table.")
        if action == self.RESUME:
            session.resume_clock(by=by)
            return gettext("The clock runs again.")
        table: Table | None = data.get("table")
        session.extend_clock(data["minutes"], table, by=by, reason=data.get("reason") or "")
        if table is None:
            return gettext("Every table has %(minutes)s more minutes.") % {
                "minutes": data["minutes"]
            }
        return gettext("Table %(number)s has %(minutes)s more minutes.") % {
            "number": table.number,
            "minutes": data["minutes"],
        }


class EndGamesForm(forms.Form):
    """End the unfinished games of a session at the time limit: which tables (by number;
    the page proposes those whose own time is up), why (the audit log keeps it with each
    game), and the director's second yes (`confirmed`)."""

    tables = forms.TypedMultipleChoiceField(
        label=gettext_lazy("Tables"),
        coerce=int,
        error_messages={
            "required": gettext_lazy("Choose the tables whose games end."),
            "invalid_choice": gettext_lazy("Table %(value)s no longer plays."),
        },
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500)
    confirmed = forms.BooleanField(required=False)

    def __init__(self, playing: list[int], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tables = self.fields["tables"]
        assert isinstance(tables, forms.TypedMultipleChoiceField)
        tables.choices = [(number, str(number)) for number in playing]

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(gettext("Say why the games end."))
        return reason


class StartClockForm(forms.Form):
    """The session's start button's "and start the clock" box (checked by default). The
    clock starts with the session whenever it has a limit, unless the director unchecked
    the box: a page drawn before the limit was set has no box (`clock_box` absent)."""

    start_clock = forms.BooleanField(required=False)
    clock_box = forms.BooleanField(required=False)

    def wanted(self) -> bool:
        self.is_valid()  # check boxes: anything else is "no"
        return bool(self.cleaned_data.get("start_clock")) or not self.cleaned_data.get("clock_box")
