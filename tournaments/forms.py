from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any, cast
from uuid import UUID

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from scoring.errors import GameError
from tournaments import texts
from tournaments.models import RoundChange, Seat, TypedOn
from tournaments.models.people import refuse_direction_controls
from tournaments.sheets import EntrySheet, GameSheet


def whole_number_field(
    label: str, high: int, message: str, css_class: str = ""
) -> forms.IntegerField:
    """An optional whole number from 0 to `high`, typed on the phone's number pad, with one
    message for every way it can be wrong."""
    attrs = {"inputmode": "numeric", "autocomplete": "off"}
    if css_class:
        attrs["class"] = css_class
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=high,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), message),
        widget=forms.NumberInput(attrs=attrs),
    )


class RoundForm(forms.Form):
    """The referee's entries for one round: a hand per seat, the ending, along.

    Validation is the engine's (`rules.check_round`), so the site refuses
    exactly what the rules refuse; each error lands on the field it names.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The device's id for this change (its outbox entry): a change is applied once.
    client_id = forms.UUIDField(widget=forms.HiddenInput, required=False)
    ending = forms.ChoiceField(
        widget=forms.RadioSelect,
        error_messages={"required": texts.ENDING_MISSING, "invalid_choice": texts.ENDING_MISSING},
    )
    along = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": gettext_lazy("Only players at this table can go along.")
        },
    )

    def __init__(self, sheet: GameSheet | EntrySheet, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        ruleset = self.ruleset = sheet.ruleset
        self._entries: rules.Round | None = None
        number = self._round_number()
        # Under elimination: who is out before this round has no hand in it.
        self.out = sheet.out_before(number)
        # (seat, label) of the players who play this round, clockwise.
        self.playing = [
            (seat, label)
            for seat, label in zip(sheet.seats, sheet.players, strict=True)
            if label not in self.out
        ]
        for seat, label in self.playing:
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
                        "autocomplete": "off",
                        "enterkeyhint": "next",
                        "class": "hand",
                    }
                ),
            )
        if self.counts_jokers:
            for seat, label in self.playing:
                self.fields[self.jokers_field(seat)] = self._jokers_field(label)
        # The seat a player joining before this round takes (a new round, a free seat).
        self.join_position = self._join_position(number)
        enders = [(seat.position, label) for seat, label in self.playing]
        if self.join_position is not None:
            self._add_join_fields()
            enders.append((self.join_position, gettext("the player joining")))
        self.ending_field.choices = [
            (f"{kind}:{position}", label)
            for kind in ("yaniv", "empty")
            for position, label in enders
        ]
        # Under automatic Assaf nobody declares going along.
        self.along_field.choices = (
            []
            if ruleset.automatic_assaf
            else [(str(position), label) for position, label in enders]
        )

    def _join_position(self, number: int) -> int | None:
        """The next seat, clockwise after the last, where the round is a new one (not a
        correction), the table has room and the game is not played under the championship's
        own rules (house rules, another rule set)."""
        if number <= len(getattr(self.sheet, "rows", ())) or not self.sheet.seats:
            return None
        if len(self.sheet.seats) >= self.ruleset.max_players:
            return None
        if self.ruleset == rules.BELGIAN:
            # The championship's tables are drawn and play as drawn: nobody joins there.
            return None
        return max(seat.position for seat in self.sheet.seats) + 1

    @property
    def join_ending(self) -> dict[str, Any]:
        """The joining seat's toggles: the ending values it would post, whether it goes along."""
        position = self.join_position
        return {
            "yaniv": f"yaniv:{position}",
            "empty": f"empty:{position}",
            "along": str(position) in (self["along"].value() or []),
        }

    def _add_join_fields(self) -> None:
        """A player joining before the round (issue 37's `joins`): their name, the total they
        start on by the rule the referee picks, their hand (and jokers) in the round."""
        ruleset = self.ruleset
        self.fields["join_name"] = forms.CharField(
            label=gettext("Name of the player joining"),
            required=False,
            max_length=120,
            strip=True,
            validators=[refuse_direction_controls],
            widget=forms.TextInput(attrs={"autocomplete": "off"}),
        )
        self.fields["join_start"] = forms.ChoiceField(
            label=gettext("Starts on"),
            required=False,
            initial="highest",
            choices=[
                ("highest", gettext("the highest total")),
                ("average", gettext("the average total")),
                ("zero", "0"),
                ("number", gettext("the total below")),
            ],
        )
        total_message = gettext("A whole number from %(low)s to %(high)s.") % {
            "low": 0,
            "high": ruleset.end_above,
        }
        self.fields["join_total"] = whole_number_field(
            gettext("Total to start on"), ruleset.end_above, total_message
        )
        hand_message = gettext("The hand must be a whole number from 0 to %(max)s.") % {
            "max": ruleset.max_hand
        }
        self.fields["join_hand"] = whole_number_field(
            gettext("Hand"), ruleset.max_hand, hand_message, css_class="hand"
        )
        if self.counts_jokers:
            self.fields["join_jokers"] = self._jokers_field(gettext("the player joining"))

    def _jokers_field(self, label: str) -> forms.IntegerField:
        """The jokers a player still held (blank: none), where an option counts them."""
        most = self.ruleset.max_jokers
        message = gettext("%(player)s's jokers must be a whole number from 0 to %(max)s.") % {
            "player": label,
            "max": most,
        }
        return whole_number_field(
            gettext("Jokers held by %(player)s") % {"player": label}, most, message, "jokers"
        )

    @property
    def counts_jokers(self) -> bool:
        """An option counts the jokers a player still held: the form asks for them."""
        return bool(self.ruleset.joker_held or self.ruleset.joker_value)

    @property
    def ending_field(self) -> forms.ChoiceField:
        return cast(forms.ChoiceField, self.fields["ending"])

    @property
    def along_field(self) -> forms.MultipleChoiceField:
        return cast(forms.MultipleChoiceField, self.fields["along"])

    @property
    def entries(self) -> rules.Round:
        """The round as entered, once the form is valid."""
        if self._entries is None:
            raise ValueError("a round form has entries once it is valid")
        return self._entries

    def _round_number(self) -> int:
        """The round being entered: the form's number, else the next one."""
        value = self.data.get("number") if self.is_bound else self.initial.get("number")
        try:
            return int(value or "")
        except (TypeError, ValueError):
            return self.sheet.round_count + 1

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
    def hand_field(seat: Seat) -> str:
        return f"hand_{seat.position}"

    @staticmethod
    def jokers_field(seat: Seat) -> str:
        return f"jokers_{seat.position}"

    @classmethod
    def initial_for(cls, sheet: GameSheet, number: int) -> dict[str, Any]:
        """The form's initial data for a recorded round (a correction)."""
        entries = sheet.rows[number - 1].entries
        by_label = {label: seat for seat, label in zip(sheet.seats, sheet.players, strict=True)}
        initial: dict[str, object] = {"number": number}
        for label, hand in entries.hands.items():  # the players still in
            initial[cls.hand_field(by_label[label])] = hand
        for label, jokers in entries.jokers.items():
            initial[cls.jokers_field(by_label[label])] = jokers
        if entries.yaniv:
            initial["ending"] = f"yaniv:{by_label[entries.yaniv].position}"
        elif entries.empty_hand:
            initial["ending"] = f"empty:{by_label[entries.empty_hand].position}"
        initial["along"] = [str(by_label[label].position) for label in entries.along]
        return initial

    def seat_rows(self) -> Iterator[dict[str, Any]]:
        """Per seat, in clockwise order: the seat, its label and its fields' state."""
        along = set(self["along"].value() or [])
        ending = self["ending"].value()
        before = self.totals_before()
        number = self._round_number()
        later = {
            label for label, at in getattr(self.sheet, "joined_in", {}).items() if at > number
        }
        for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True):
            if label in later:
                # Joined the game after this round: no seat at it yet.
                continue
            if label in self.out:
                yield {"seat": seat, "label": label, "out": True, "total": before[label]}
                continue
            yield {
                "seat": seat,
                "label": label,
                "out": False,
                "total": before[label],
                "hand": self[self.hand_field(seat)],
                "jokers": self[self.jokers_field(seat)] if self.counts_jokers else None,
                "yaniv": ending == f"yaniv:{seat.position}",
                "empty": ending == f"empty:{seat.position}",
                "along": str(seat.position) in along,
            }

    def totals_before(self) -> dict[str, int]:
        """Each player's total before the round this form enters (a correction's round may be
        an early one: the totals then, not today's)."""
        number = self._round_number()
        rows = getattr(self.sheet, "rows", None)
        if rows is not None and number <= len(rows):
            if number <= 1:
                return dict.fromkeys(self.sheet.players, 0)
            cells = rows[number - 2].cells
            players = self.sheet.players
            return {label: cell.total for label, cell in zip(players, cells, strict=True)}
        return {
            label: seat.total
            for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True)
        }

    def clean_ending(self) -> str:
        # The toggles are checkboxes (one tab stop each, no arrowing across seats): the page's
        # script keeps one checked; without it, two mean two callers were sent.
        if hasattr(self.data, "getlist") and len(self.data.getlist("ending")) > 1:
            raise forms.ValidationError(
                gettext("Only one player calls Yaniv or empties their hand in a round.")
            )
        return self.cleaned_data["ending"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        by_position = {
            seat.position: label
            for seat, label in zip(self.sheet.seats, self.sheet.players, strict=True)
        }
        hands = {label: cleaned[self.hand_field(seat)] for seat, label in self.playing}
        jokers = self._jokers(cleaned)
        join = self._join(cleaned, by_position, hands, jokers)
        if self.errors:
            return cleaned
        kind, position = cleaned["ending"].split(":")
        if int(position) not in by_position:
            self.add_error("join_name", gettext("Enter the name of the player joining."))
            return cleaned
        ender = by_position[int(position)]
        along = [int(position) for position in cleaned["along"]]
        if any(position not in by_position for position in along):
            self.add_error("join_name", gettext("Enter the name of the player joining."))
            return cleaned
        entries = rules.Round(
            hands=hands,
            yaniv=ender if kind == "yaniv" else None,
            empty_hand=ender if kind == "empty" else None,
            along=tuple(by_position[position] for position in along),
            jokers=jokers,
            joins=join,
        )
        try:
            number = cleaned["number"]
            if join is not None and self.join_position is not None:
                before = self.totals_before()
                rules.check_join(self.sheet.players, before, join, number, self.ruleset)
            rules.check_round(list(hands), entries, number, self.ruleset)
        except GameError as error:
            self.add_game_error(error)
            return cleaned
        self._entries = entries
        return cleaned

    def _join(
        self,
        cleaned: dict[str, Any],
        by_position: dict[int, str],
        hands: dict[str, int],
        jokers: dict[str, int],
    ) -> rules.Join | None:
        """The player joining before the round, added to the round's seats, hands and jokers;
        a correction keeps the join the round was recorded with. Errors land on the fields."""
        if self.join_position is None:
            rows = getattr(self.sheet, "rows", ())
            number = cleaned["number"]
            return rows[number - 1].entries.joins if number <= len(rows) else None
        name = cleaned.get("join_name")
        if not name:
            if cleaned.get("join_hand") is not None:
                self.add_error("join_name", gettext("Enter the name of the player joining."))
            return None
        if name in self.sheet.players or name in {seat.player.name for seat in self.sheet.seats}:
            self.add_error(
                "join_name",
                gettext(
                    "%(player)s plays at this table already: the player joining needs "
                    "another name."
                )
                % {"player": name},
            )
            return None
        hand = cleaned.get("join_hand")
        if hand is None:
            self.add_error(
                "join_hand", gettext("Enter %(player)s's hand total.") % {"player": name}
            )
            return None
        start: rules.JoinStart | int = rules.JoinStart.HIGHEST
        if cleaned.get("join_start") == "number":
            if cleaned.get("join_total") is None:
                self.add_error(
                    "join_total",
                    gettext("Enter the total %(player)s starts on.") % {"player": name},
                )
                return None
            start = cleaned["join_total"]
        elif cleaned.get("join_start"):
            start = rules.JoinStart(cleaned["join_start"])
        by_position[self.join_position] = name
        hands[name] = hand
        if cleaned.get("join_jokers"):
            jokers[name] = cleaned["join_jokers"]
        return rules.Join(name, start)

    def _jokers(self, cleaned: dict[str, Any]) -> dict[str, int]:
        """The jokers held, by player (none where no option counts them)."""
        if not self.counts_jokers:
            return {}
        rows = getattr(self.sheet, "rows", ())
        number = cleaned["number"]
        # A correction sent by a page that did not ask for the jokers (no field at all, not a
        # blank one) keeps the jokers the round was recorded with.
        stored = rows[number - 1].entries.jokers if number <= len(rows) else {}
        held = {
            label: cleaned.get(self.jokers_field(seat))
            if self.jokers_field(seat) in self.data
            else stored.get(label)
            for seat, label in self.playing
        }
        return {label: jokers for label, jokers in held.items() if jokers}

    def add_game_error(self, error: GameError) -> None:
        """Put an engine error on the field the referee typed it in, in their language."""
        if error.field == "hands" and error.player and error.player not in self.sheet.players:
            # The player joining.
            field = "join_hand"
        elif error.field == "hands" and error.player:
            field = self.hand_field(self.sheet.seat_for(error.player))
        elif error.field in {"ending", "yaniv", "empty_hand"}:
            field = "ending"
        elif error.field == "along":
            field = "along"
        elif error.field == "jokers" and error.player:
            field = self.jokers_field(self.sheet.seat_for(error.player))
        elif error.field == "joins" and "join_name" in self.fields:
            field = "join_name"
        else:
            field = None
        self.add_error(field, texts.game_error(error))


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
    client_id = forms.UUIDField(widget=forms.HiddenInput, required=False)


class CorrectionForm(RoundForm):
    reason = ReasonForm.base_fields["reason"]
    version = ReasonForm.base_fields["version"]


class SyncForm(forms.Form):
    """One change of a device's outbox: what it is, and the device's id for it."""

    action = forms.ChoiceField(
        choices=[("record", "record"), ("correct", "correct"), ("undo", "undo")]
    )
    client_id = forms.UUIDField()
    # How long ago the device recorded the change (ms, measured on the device): a round typed
    # offline before the time limit counts as played before it.
    typed_ago_ms = forms.IntegerField(min_value=0, required=False)
    # The version of the sheet the change was made on (a round's too: see views.tables.sync).
    version = forms.IntegerField(min_value=0, required=False)


class VersionForm(forms.Form):
    """A change that needs no reason still carries the version of the sheet it was made on."""

    version = ReasonForm.base_fields["version"]


class ConfirmForm(forms.Form):
    """A player agrees to the finished sheet (table codes), on the sheet's version."""

    seat = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class DisputeForm(forms.Form):
    """ "Something's wrong": which round (or the whole sheet), and one line about it."""

    round = forms.TypedChoiceField(
        label=gettext_lazy("Round"), coerce=int, required=False, empty_value=None
    )
    text = forms.CharField(
        label=gettext_lazy("What is wrong?"),
        max_length=500,
        strip=True,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. my hand was 7, not 17")}),
        error_messages={"required": gettext_lazy("Say in a few words what is wrong.")},
    )

    def __init__(self, sheet: GameSheet, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        round_field = cast(forms.TypedChoiceField, self.fields["round"])
        round_field.choices = [("", gettext_lazy("the whole sheet"))] + [
            (str(row.number), str(row.number)) for row in sheet.rows
        ]


def round_change(
    form: RoundForm,
    *,
    base: int | None = None,
    typed_ago: timedelta | None = None,
    late_reason: str = "",
    since: TypedOn | None = None,
) -> RoundChange:
    """A valid entry form's round as the game records it (`Game.record`), with what the
    page or phone knew of the sheet when it was typed (`since`, else read off the form's
    post: `typed_on`)."""
    return RoundChange(
        form.entries,
        form.cleaned_data["number"],
        form.cleaned_data["client_id"],
        base=base,
        typed_on=typed_on(form.data, base) if since is None else since,
        typed_ago=typed_ago,
        late_reason=late_reason,
    )


def typed_on(posted: Any, base: int | None = None) -> TypedOn:
    """What a change's post says the page or phone knew (posted by the page, the outbox and
    the entry form alike): the version of the stored sheet it was typed on (else `base`, the
    outbox's version), the phone's own changes stored since, and the referee's word that
    equal entries are another round. Anything else posted there is ignored."""
    mine = posted.getlist("mine") if hasattr(posted, "getlist") else []
    return TypedOn(
        _version_of(posted.get("known"), base),
        tuple(_ids_of(mine)),
        posted.get("another") == "1",
    )


def _version_of(text: Any, default: int | None) -> int | None:
    """A posted version (a number from 0), else `default`."""
    text = str(text or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else default


def _ids_of(texts: list[str]) -> list[UUID]:
    """A device's own change ids, as posted (at most 50: an outbox holds a few)."""
    ids = []
    for text in texts[:50]:
        try:
            ids.append(UUID(str(text)))
        except ValueError:
            continue
    return ids
