"""The director's forms for who keeps the score: the tournament's accounts (referees and
co-directors), how rounds are entered (referee accounts or table codes), the players'
confirmation, the disputes' answers and the questions asked before a risky step.

Every POST of those pages is parsed by one of these; the views act through model methods.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy

from tournaments.models import Player, Tournament

# The fewest letters a players' search looks for, and the most players it lists.
SEARCH_MIN_LENGTH = 2
SEARCH_LIMIT = 20

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


# --- the known players: search, choice, merge of duplicates -----------------------------


class PlayerSearchForm(forms.Form):
    """A name, a club or a member number (at least two characters)."""

    q = forms.CharField(
        label=gettext_lazy("Name, club or member number"),
        max_length=120,
        required=False,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )

    def players(self, user: Any) -> QuerySet[Player] | None:
        """The players `user` may see that match, best first; None before two characters
        are typed."""
        if not self.is_valid():
            return None
        text = " ".join(self.cleaned_data["q"].split())
        if len(text) < SEARCH_MIN_LENGTH:
            return None
        visible = Player.objects.visible_to(user).values("pk")
        return Player.search(text).filter(pk__in=visible)[:SEARCH_LIMIT]


class PlayerChoiceForm(forms.Form):
    """A player picked from the search results (registered in one click)."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), widget=forms.HiddenInput)

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["player"]
        field.queryset = Player.objects.visible_to(user)


class MergeForm(forms.Form):
    """Merge `merge` into `into` (both player ids); `into` is kept."""

    merge = forms.ModelChoiceField(queryset=Player.objects.select_related("club"))
    into = forms.ModelChoiceField(queryset=Player.objects.select_related("club"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("merge") and data.get("into") and data["merge"].pk == data["into"].pk:
            raise forms.ValidationError(gettext("Choose two different players."))
        return data
