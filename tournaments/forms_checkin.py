"""The forms of the door: the director's settings, a player's proof, a registration at the
door, a director's answer to one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from tournaments import player_import
from tournaments.models import Door, Player
from tournaments.models.people import refuse_direction_controls

MOST_PLAYERS = 2000


class DoorForm(forms.ModelForm):
    """Open or close the door; how players prove it is them; registrations at the door."""

    class Meta:
        model = Door
        fields = ["is_open", "safeguard", "entries", "capacity"]
        widgets = {
            "safeguard": forms.RadioSelect,
            "entries": forms.RadioSelect,
            "capacity": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1}),
        }

    def clean_capacity(self) -> int | None:
        capacity = self.cleaned_data.get("capacity")
        if capacity is not None and not 1 <= capacity <= MOST_PLAYERS:
            raise forms.ValidationError(
                gettext("From 1 to %(most)s players.") % {"most": MOST_PLAYERS}
            )
        return capacity

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("entries") == Door.Entries.CAPACITY and not data.get("capacity"):
            self.add_error("capacity", gettext("How many players the event takes."))
        return data


class ProofForm(forms.Form):
    """What a player types to show it is them (the door's safeguard): their member number or
    the desk's code; nothing without a safeguard."""

    proof = forms.CharField(max_length=40, required=False, strip=True)

    def __init__(self, *args: Any, door: Door, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["proof"]
        if door.safeguard == Door.Safeguard.MEMBER_NUMBER:
            field.required = True
            field.label = gettext("Your member number")
            field.widget.attrs.update(autocomplete="off")
        elif door.safeguard == Door.Safeguard.DESK_CODE:
            field.required = True
            field.label = gettext("The code shown at the desk")
            field.widget.attrs.update(inputmode="numeric", autocomplete="off")
        else:
            field.widget = forms.HiddenInput()


class EntryForm(forms.Form):
    """A registration at the door: name, club, member number (checked as a row of the
    players' import), and the desk's code where the door asks it."""

    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=player_import.MAX_LENGTHS[player_import.NAME],
        validators=[refuse_direction_controls],
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    club = forms.CharField(
        label=gettext_lazy("Club"),
        required=False,
        max_length=player_import.MAX_LENGTHS[player_import.CLUB],
        validators=[refuse_direction_controls],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    member_number = forms.CharField(
        label=gettext_lazy("Member number"),
        required=False,
        max_length=Player._meta.get_field("member_number").max_length,
        validators=[refuse_direction_controls],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    proof = forms.CharField(
        label=gettext_lazy("The code shown at the desk"),
        required=False,
        max_length=20,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, door: Door, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.door = door
        if door.safeguard == Door.Safeguard.DESK_CODE:
            self.fields["proof"].required = True
        else:
            del self.fields["proof"]
        if door.safeguard == Door.Safeguard.MEMBER_NUMBER:
            self.fields["member_number"].required = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        row = player_import.single_row(data["name"], data["club"], data["member_number"])
        error = row.rows[0].error
        if error:
            raise forms.ValidationError(error[:1].upper() + error[1:] + ".")
        return data

    def entry(self) -> dict[str, str]:
        return {field: self.cleaned_data[field] for field in ("name", "club", "member_number")}


class AnswerForm(forms.Form):
    """A director's answer to a registration at the door."""

    answer = forms.ChoiceField(choices=[("approve", "approve"), ("decline", "decline")])
