"""The director's forms beside the rounds: penalty and bonus points (given, corrected,
removed), a substitute at a seat, two seats swapped."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.utils.translation import gettext, gettext_lazy

from tournaments import player_import
from tournaments.models import Adjustment, Player, Seat
from tournaments.models.adjustments import MOST_GAME_POINTS, MOST_PLACEMENT_POINTS
from tournaments.models.people import refuse_direction_controls


def _seat_label(seat: Seat) -> str:
    return gettext("Seat %(position)s: %(name)s") % {
        "position": seat.position,
        "name": seat.player.name,
    }


class SeatChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return _seat_label(obj)


class PointsFields(forms.Form):
    """What a penalty or bonus is: kind, points, reason (and its details)."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Penalty or bonus"),
        choices=Adjustment.Kind.choices,
        widget=forms.RadioSelect,
        initial=Adjustment.Kind.PENALTY,
    )
    points = forms.DecimalField(
        label=gettext_lazy("Points"),
        min_value=Decimal("0.5"),
        max_value=MOST_GAME_POINTS,
        decimal_places=1,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.5"}),
    )
    reason = forms.ChoiceField(label=gettext_lazy("Reason"), choices=Adjustment.Reason.choices)
    text = forms.CharField(
        label=gettext_lazy("Details"),
        required=False,
        max_length=200,
        validators=[refuse_direction_controls],
        help_text=gettext_lazy("Required for “other”: what happened."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("reason") == Adjustment.Reason.OTHER and not data.get("text", "").strip():
            self.add_error("text", gettext("Say what the reason is."))
        points, unit = data.get("points"), data.get("unit", getattr(self, "unit", None))
        if points is not None and unit == Adjustment.Unit.GAME and points != int(points):
            self.add_error("points", gettext("Game points are whole numbers."))
        if (
            points is not None
            and unit == Adjustment.Unit.PLACEMENT
            and (points * 2 != int(points * 2) or points > MOST_PLACEMENT_POINTS)
        ):
            self.add_error(
                "points",
                gettext("Placement points come in halves, 0.5 to %(most)s.")
                % {"most": MOST_PLACEMENT_POINTS},
            )
        return data

    def what(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {field: data[field] for field in ("kind", "points", "reason")} | {
            "text": data["text"].strip()
        }


class SeatPointsForm(PointsFields):
    """Points given at a seat of one game: game points (its result) or placement points."""

    seat = SeatChoice(label=gettext_lazy("Seat"), queryset=Seat.objects.none())
    unit = forms.ChoiceField(
        label=gettext_lazy("In"),
        choices=Adjustment.Unit.choices,
        widget=forms.RadioSelect,
        initial=Adjustment.Unit.GAME,
    )
    field_order = ["seat", "kind", "unit", "points", "reason", "text"]

    def __init__(self, *args: Any, seats: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = seats  # type: ignore[attr-defined]

    def what(self) -> dict[str, Any]:
        return super().what() | {"unit": self.cleaned_data["unit"]}


class PlayerPointsForm(PointsFields):
    """Placement points given to a player in the standings."""

    unit = Adjustment.Unit.PLACEMENT
    player = forms.ModelChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.none())
    field_order = ["player", "kind", "points", "reason", "text"]

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players  # type: ignore[attr-defined]
        cast(forms.DecimalField, self.fields["points"]).max_value = MOST_PLACEMENT_POINTS

    def what(self) -> dict[str, Any]:
        return super().what() | {"unit": Adjustment.Unit.PLACEMENT}


class CorrectionForm(PointsFields):
    """A penalty or bonus changed, saying why."""

    why = forms.CharField(label=gettext_lazy("Why"), max_length=200)

    def __init__(self, *args: Any, adjustment: Adjustment, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "kind": adjustment.kind,
                "points": adjustment.points,
                "reason": adjustment.reason,
                "text": adjustment.text,
            },
        )
        super().__init__(*args, **kwargs)
        self.unit = adjustment.unit


class WhyForm(forms.Form):
    why = forms.CharField(label=gettext_lazy("Why"), max_length=200)


class SubstituteForm(forms.Form):
    """A substitute at a seat: a registered player, or a new one (name, club, number)."""

    seat = SeatChoice(
        label=gettext_lazy("Seat of the player who leaves"), queryset=Seat.objects.none()
    )
    player = forms.ModelChoiceField(
        label=gettext_lazy("Substitute"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=gettext_lazy("— a new player (below) —"),
    )
    name = forms.CharField(
        label=gettext_lazy("New player's name"),
        required=False,
        max_length=player_import.MAX_LENGTHS[player_import.NAME],
        validators=[refuse_direction_controls],
    )
    club = forms.CharField(
        label=gettext_lazy("Club"),
        required=False,
        max_length=player_import.MAX_LENGTHS[player_import.CLUB],
        validators=[refuse_direction_controls],
    )
    member_number = forms.CharField(
        label=gettext_lazy("Member number"),
        required=False,
        max_length=Player._meta.get_field("member_number").max_length,
        validators=[refuse_direction_controls],
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=200)

    def __init__(self, *args: Any, seats: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = seats  # type: ignore[attr-defined]
        self.fields["player"].queryset = players  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        if data["player"] is None and not data["name"].strip():
            self.add_error(
                "player", gettext("Choose the substitute, or give a new player's name.")
            )
        elif data["player"] is not None and data["name"].strip():
            self.add_error("name", gettext("Either a registered player or a new one, not both."))
        return data

    def parsed(self) -> player_import.ParsedImport:
        data = self.cleaned_data
        return player_import.single_row(data["name"], data["club"], data["member_number"])


class SwapForm(forms.Form):
    """Two players whose seats were typed the wrong way round."""

    first = SeatChoice(label=gettext_lazy("One seat"), queryset=Seat.objects.none())
    second = SeatChoice(label=gettext_lazy("The other seat"), queryset=Seat.objects.none())
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)

    def __init__(self, *args: Any, seats: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = seats  # type: ignore[attr-defined]
        self.fields["second"].queryset = seats  # type: ignore[attr-defined]
