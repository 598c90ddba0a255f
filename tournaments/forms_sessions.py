"""The director's forms for a session: the draw, a hand adjustment, the referees, the rebalance
when players come or go, a change of status."""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.models import Session


class DrawForm(forms.Form):
    """How to seat a session: the method, and a seed to repeat a draw (else a fresh one)."""

    method = forms.ChoiceField(choices=Session.Seating.drawn(), required=False)
    seed = forms.CharField(required=False)

    def clean_method(self) -> str:
        return self.cleaned_data["method"] or Session.Seating.RANDOM

    def clean_seed(self) -> int:
        """The seed typed by the director; anything that does not fit the 64-bit column
        (or is not a number) gets a fresh one."""
        try:
            seed = int(self.cleaned_data["seed"])
        except ValueError:
            seed = -1
        if not 0 < seed < 2**63:
            seed = random.SystemRandom().randrange(1, 10**9)
        return seed


class AdjustForm(forms.Form):
    """A manual swap of two seated players, or a move of one player to another table.

    Whether the players are seated and the table exists is the seating's to say.
    """

    CHOOSE = gettext_lazy("Choose the players (and the table) first.")

    action = forms.ChoiceField(choices=[("swap", "swap"), ("move", "move")], required=False)
    player = forms.IntegerField(error_messages={"required": CHOOSE, "invalid": CHOOSE})
    other = forms.IntegerField(required=False, error_messages={"invalid": CHOOSE})
    table = forms.IntegerField(required=False, error_messages={"invalid": CHOOSE})

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        needed = "other" if cleaned.get("action") == "swap" else "table"
        if cleaned.get(needed) is None:
            raise forms.ValidationError(self.CHOOSE)
        return cleaned

    def message(self) -> str:
        """The form's errors as one sentence for the session page."""
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


class RefereesForm(forms.Form):
    """A referee (or none) for each table of a session, from the accounts that may referee."""

    def __init__(self, session: Session, referees, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tables = list(session.tables.order_by("number"))
        choices = [("", "—"), *((str(user.pk), user.get_username()) for user in referees)]
        for table in self.tables:
            self.fields[f"referee_{table.number}"] = forms.TypedChoiceField(
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
                error_messages={"invalid_choice": gettext_lazy("Choose referees from the list.")},
            )

    def referees(self) -> dict[int, int | None]:
        """Table number → the chosen referee's id (None: no referee)."""
        return {
            table.number: self.cleaned_data[f"referee_{table.number}"] for table in self.tables
        }


class RebalanceForm(forms.Form):
    """Apply the seating's suggestion the page showed (its key, to check it is the same)."""

    key = forms.CharField(max_length=64)


class SessionStatusForm(forms.Form):
    action = forms.ChoiceField(choices=[("start", "start"), ("finish", "finish")], required=False)
