from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from scoring.models import Sheet
from tournaments import texts

ENDING_MISSING = gettext_lazy("Choose who called Yaniv, or who emptied their hand.")


class RoundForm(forms.Form):
    """The referee's entries for one round: a hand per seat, the ending, along.

    Validation is the engine's (`rules.check_round`), so the site refuses
    exactly what the rules refuse; each error lands on the field it names.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    ending = forms.ChoiceField(
        widget=forms.RadioSelect,
        error_messages={"required": ENDING_MISSING, "invalid_choice": ENDING_MISSING},
    )
    along = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": gettext_lazy("Only players at this table can go along.")
        },
    )

    def __init__(self, sheet: Sheet, ruleset: rules.Ruleset, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.ruleset = ruleset
        self.entries: rules.Round | None = None
        self.out = self._out_before(self._round_number())
        for seat, label in zip(sheet.seats, sheet.players, strict=True):
            if label in self.out:
                # Eliminated: no hand from now on.
                continue
            message = gettext("%(player)s's hand must be a whole number from 0 to %(max)s.") % {
                "player": label,
                "max": ruleset.max_hand,
            }
            self.fields[self.hand_field(seat)] = forms.IntegerField(
                label=label,
                min_value=0,
                max_value=ruleset.max_hand,
                error_messages={
                    "required": gettext("Enter %(player)s's hand total.") % {"player": label},
                    "invalid": message,
                    "min_value": message,
                    "max_value": message,
                },
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "pattern": "[0-9]*",
                        "autocomplete": "off",
                        "enterkeyhint": "next",
                        "class": "hand",
                    }
                ),
            )
        self.fields["ending"].choices = [
            (f"{kind}:{seat.position}", label)
            for kind in ("yaniv", "empty")
            for seat, label in self.playing_seats()
        ]
        # Under automatic Assaf nobody declares going along.
        self.fields["along"].choices = (
            []
            if ruleset.automatic_assaf
            else [(str(seat.position), label) for seat, label in self.playing_seats()]
        )

    def _round_number(self) -> int:
        """The round being entered: the form's number, else the next one."""
        value = self.data.get("number") if self.is_bound else self.initial.get("number")
        try:
            return int(value)
        except (TypeError, ValueError):
            return len(self.sheet.rounds) + 1

    def _out_before(self, number: int) -> frozenset[str]:
        """Under elimination: the players who went out before round `number`."""
        if not self.ruleset.eliminates:
            return frozenset()
        engine_rounds = self.sheet.engine_rounds()[: max(0, number - 1)]
        try:
            result = rules.score_game(
                rules.Game(self.sheet.players, tuple(engine_rounds), self.ruleset)
            )
        except rules.GameError:
            return frozenset()
        return frozenset(result.out_in_round)

    def playing_seats(self) -> list[tuple[object, str]]:
        """(seat, label) of the players who play this round, clockwise."""
        return [
            (seat, label)
            for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True)
            if label not in self.out
        ]

    @property
    def shows_along(self) -> bool:
        return not self.ruleset.automatic_assaf

    @property
    def has_missing(self) -> bool:
        """Still being typed: some field is empty (the preview waits for it)."""
        return any(
            error.code == "required"
            for errors in self.errors.as_data().values()
            for error in errors
        )

    @staticmethod
    def hand_field(seat) -> str:
        return f"hand_{seat.position}"

    @classmethod
    def initial_for(cls, sheet: Sheet, entries: rules.Round, number: int) -> dict:
        """The form's initial data for recorded entries (a correction)."""
        by_label = {label: seat for seat, label in zip(sheet.seats, sheet.players, strict=True)}
        initial: dict[str, object] = {"number": number}
        for label, hand in entries.hands.items():  # the players still in
            initial[cls.hand_field(by_label[label])] = hand
        if entries.yaniv:
            initial["ending"] = f"yaniv:{by_label[entries.yaniv].position}"
        elif entries.empty_hand:
            initial["ending"] = f"empty:{by_label[entries.empty_hand].position}"
        initial["along"] = [str(by_label[label].position) for label in entries.along]
        return initial

    def seat_rows(self):
        """Per seat, in clockwise order: the seat, its label and its fields' state."""
        along = set(self["along"].value() or [])
        ending = self["ending"].value()
        for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True):
            if label in self.out:
                yield {"seat": seat, "label": label, "out": True}
                continue
            yield {
                "seat": seat,
                "label": label,
                "out": False,
                "hand": self[self.hand_field(seat)],
                "yaniv": ending == f"yaniv:{seat.position}",
                "empty": ending == f"empty:{seat.position}",
                "along": str(seat.position) in along,
            }

    def clean_ending(self) -> str:
        # Radio buttons send one value; a second one means two callers were sent.
        if hasattr(self.data, "getlist") and len(self.data.getlist("ending")) > 1:
            raise forms.ValidationError(
                gettext("Only one player calls Yaniv or empties their hand in a round.")
            )
        return self.cleaned_data["ending"]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        by_position = {
            seat.position: label
            for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True)
        }
        kind, position = cleaned["ending"].split(":")
        ender = by_position[int(position)]
        entries = rules.Round(
            hands={label: cleaned[self.hand_field(seat)] for seat, label in self.playing_seats()},
            yaniv=ender if kind == "yaniv" else None,
            empty_hand=ender if kind == "empty" else None,
            along=tuple(by_position[int(position)] for position in cleaned["along"]),
        )
        try:
            playing = [label for _, label in self.playing_seats()]
            rules.check_round(playing, entries, cleaned["number"], self.ruleset)
        except rules.GameError as error:
            self.add_game_error(error)
            return cleaned
        self.entries = entries
        return cleaned

    def add_game_error(self, error: rules.GameError) -> None:
        """Put an engine error on the field the referee typed it in, in their language.

        The engine speaks English (it is pure Python): its known messages are translated
        by their English pattern (`tournaments.texts.GAME_ERRORS`), others stay English.
        """
        if error.field == "hands" and error.player:
            field = self.hand_field(self.sheet.seat_for(error.player))
        elif error.field in {"ending", "yaniv", "empty_hand"}:
            field = "ending"
        elif error.field == "along":
            field = "along"
        else:
            field = None
        self.add_error(field, texts.game_error(error.message))


class ReasonForm(forms.Form):
    """A change to a recorded game needs a reason and the version it saw."""

    reason = forms.CharField(
        max_length=500,
        strip=True,
        widget=forms.TextInput(
            attrs={"placeholder": gettext_lazy("e.g. Bart's hand was 14, not 41")}
        ),
        error_messages={"required": gettext_lazy("Give a reason: it is kept in the history.")},
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class CorrectionForm(RoundForm):
    reason = ReasonForm.base_fields["reason"]
    version = ReasonForm.base_fields["version"]
