"""The director's forms for who keeps the score: the tournament's accounts (referees and
co-directors), how rounds are entered (referee accounts or table codes), the players'
confirmation, the disputes' answers and the questions asked before a risky step.

Every POST of those pages is parsed by one of these; the views act through model methods.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy

from tournaments.models import Tournament

USERNAME_HELP = gettext_lazy("Letters, digits and @ . + - _ only, e.g. referee-table-3.")


class AccountForm(forms.Form):
    """An account and its role in the tournament: a new one, or an existing one by its exact
    username (no list or search of other accounts)."""

    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
        error_messages={"required": gettext_lazy("Give the account's username.")},
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=Tournament.Role.choices,
        initial=Tournament.Role.REFEREE,
        widget=forms.RadioSelect,
    )


class NewAccountForm(AccountForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_HELP


class ScorekeepingForm(forms.Form):
    """Who enters the tournament's rounds, and who must agree to a sheet entered by code."""

    entry = forms.ChoiceField(
        label=gettext_lazy("Who enters the rounds"),
        choices=Tournament.Entry.choices,
        widget=forms.RadioSelect,
    )
    confirmation = forms.ChoiceField(
        label=gettext_lazy("Who agrees to a finished sheet entered by table code"),
        choices=Tournament.Confirmation.choices,
        widget=forms.RadioSelect,
    )


class SessionEntryForm(forms.Form):
    """A session's own way of entering rounds; empty: as the tournament says."""

    entry = forms.ChoiceField(
        label=gettext_lazy("Who enters this session's rounds"),
        choices=[("", gettext_lazy("As the tournament says")), *Tournament.Entry.choices],
        required=False,
    )


class GoAheadForm(forms.Form):
    """The director's answer to a question asked before a risky step (`confirmed`), and
    whether the post carries the referee choices of the session page (`with_referees`)."""

    confirmed = forms.BooleanField(required=False)
    with_referees = forms.BooleanField(required=False)


class DismissForm(forms.Form):
    """A dispute dismissed with a word to the table (it shows on the table page)."""

    answer = forms.CharField(
        label=gettext_lazy("Answer to the table"),
        max_length=500,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "placeholder": gettext_lazy("e.g. checked with the players: the sheet is right")
            }
        ),
        error_messages={"required": gettext_lazy("Give the table a word of answer.")},
    )
