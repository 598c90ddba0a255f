"""The director's forms: a tournament's settings, players, check-in, sessions and seating.

Every POST of the director's pages is parsed by one of these; the views act on the cleaned
values through model methods.
"""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.core import signing
from django.template.defaultfilters import filesizeformat
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from scoring.finals import CarryOver
from scoring.rules import BELGIAN
from tournaments import player_import, texts
from tournaments.clock import AtTimeLimit
from tournaments.models import Club, Player, Round, Tournament
from tournaments.models.people import refuse_direction_controls

# Paths under /manage/ that a tournament's address cannot take.
RESERVED_SLUGS = {"new"}


# The house rules on the tournament form: one field per engine option (scoring.rules.OPTIONS),
# in the order the form shows them. `reduce_multiples` takes two fields (every, by); the
# false-Yaniv rule is a field of the tournament itself.
OPTION_FIELDS: dict[str, tuple[str, ...]] = {
    "yaniv_limit": ("yaniv_limit",),
    "yaniv_limit_warns": ("yaniv_limit_warns",),
    "cards_dealt": ("cards_dealt",),
    "face_values": ("face_values",),
    "one_deck_up_to": ("one_deck_up_to",),
    "reductions": ("reductions",),
    "reduce_multiples": ("reduce_every", "reduce_by"),
    "reduction_needs_points": ("reduction_needs_points",),
    "end": ("end",),
    "end_above": ("end_above",),
    "deals_per_player": ("deals_per_player",),
    "assaf": ("assaf",),
    "assaf_penalty": ("assaf_penalty",),
    "assaf_extra": ("assaf_extra",),
    "assaf_zero": ("assaf_zero",),
}
# The fields of the rules, in the form's order (the rest are the tournament's own).
RULE_FIELDS = (
    "preset",
    "false_yaniv",
    *(name for names in OPTION_FIELDS.values() for name in names),
)
# The option an engine error is about, where its code does not say (`params["option"]` does).
OPTION_OF_CODE = {
    "reductions_list": "reductions",
    "reductions_count": "reductions",
    "reductions_total": "reductions",
    "reductions_smaller": "reductions",
    "reductions_once": "reductions",
    "reduce_multiples_every": "reduce_multiples",
    "reduce_multiples_range": "reduce_multiples",
    "yaniv_limit_above_hand": "yaniv_limit",
}
# An engine error as the form says it beside the field it is about (the field's label names the
# option): the field, if not the option's first, and the message, filled with the error's params.
FIELD_MESSAGES: dict[str, tuple[str | None, Any]] = {
    "option_whole_number": (None, gettext_lazy("A whole number from %(low)s to %(high)s.")),
    "reductions_count": (None, gettext_lazy("At most %(most)s reductions.")),
    "reductions_total": (None, gettext_lazy("Each total from %(low)s to %(high)s.")),
    "reductions_smaller": (
        None,
        gettext_lazy("Each total must become a smaller total, 0 or more."),
    ),
    "reductions_once": (None, gettext_lazy("Each total once.")),
    "reduce_multiples_every": (None, gettext_lazy("A whole number from %(low)s to %(high)s.")),
    "reduce_multiples_range": ("reduce_by", gettext_lazy("More than 0, at most the multiple.")),
    "yaniv_limit_above_hand": (
        None,
        gettext_lazy("At most the largest hand, %(max)s (the cards dealt × the highest card)."),
    ),
}
# "100 → 50": a total reached exactly and what it becomes ("->" works too).
REDUCTION = re.compile(r"\s*([0-9]{1,6})\s*(?:→|->)\s*([0-9]{1,6})\s*")
# Between two reductions: a comma, a semicolon or a new line.
REDUCTION_SEPARATOR = re.compile(r"[,;\n]")
# Flags of the engine as the form's choices.
YES, NO = "yes", "no"


def _flag(value: bool) -> str:
    return YES if value else NO


def _shown_value(ruleset: rules.Ruleset, option: str) -> object:
    """An option's value in `ruleset`, as JSON holds it."""
    attribute, _, dump = rules.OPTIONS[option]
    return dump(getattr(ruleset, attribute))


def reductions_text(table: tuple[tuple[int, int], ...]) -> str:
    """A reduction table as the form shows it: "50 → 0, 100 → 50, 150 → 100"."""
    return ", ".join(f"{total} → {becomes}" for total, becomes in table)


def parse_reductions(text: str) -> list[list[int]]:
    """ "100 → 50, 200 → 100" as the `reductions` option; empty: no reductions.

    Strict: every item is two whole numbers with an arrow; anything else is an error naming the
    item. The engine checks the numbers (at most 20 pairs, totals up to 10,000, each once).
    """
    pairs = []
    for item in REDUCTION_SEPARATOR.split(text):
        if not item.strip():
            continue
        match = REDUCTION.fullmatch(item)
        if not match:
            raise forms.ValidationError(
                gettext(
                    "Write each reduction as a total, an arrow and what it becomes, "
                    "e.g. “100 → 50” or “100 -> 50”, separated by commas: “%(item)s” is not."
                )
                % {"item": item.strip()[:40]},
                code="reduction",
            )
        pairs.append([int(match[1]), int(match[2])])
    return pairs


def _valid_hand_size(preset: rules.Ruleset, options: dict[str, object]) -> dict[str, object]:
    """The options that size a hand (cards dealt, face values) among `options`, if valid."""
    size = {name: options[name] for name in ("cards_dealt", "face_values") if name in options}
    try:
        preset.with_options(size)
    except rules.GameError:
        return {}
    return size


class TournamentForm(forms.ModelForm):
    """Create or change a tournament; its address is made from the name when left empty.

    The house rules are one field per option of the engine, filled in with the tournament's
    rule set (its preset and options). The form keeps as options only what differs from the
    chosen preset, and the engine checks them (errors at the field). A field left as it was
    shown keeps the tournament's house rule, or follows the preset: changing the preset does
    not turn the old preset's numbers into house rules. A number or choice left empty follows
    the preset; an empty reduction table means no reductions. Locked once rounds exist.
    """

    yaniv_limit = forms.IntegerField(
        label=gettext_lazy("Yaniv limit"),
        required=False,
        help_text=gettext_lazy("The highest hand that may call Yaniv (0–91)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    yaniv_limit_warns = forms.ChoiceField(
        label=gettext_lazy("A call above the limit"),
        required=False,
        choices=[
            (NO, gettext_lazy("as the rule set says: a false Yaniv (Belgian) or refused")),
            (YES, gettext_lazy("only a warning: scored as any other call")),
        ],
        help_text=gettext_lazy(
            "With only a warning there is no false Yaniv: the call is compared with the other "
            "hands as usual and the referee's preview warns."
        ),
    )
    cards_dealt = forms.IntegerField(
        label=gettext_lazy("Cards dealt"),
        required=False,
        help_text=gettext_lazy("1–7; the largest hand is 10 × this (13 × with 11, 12, 13)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    face_values = forms.ChoiceField(
        label=gettext_lazy("Jack, queen, king"),
        required=False,
        choices=[
            (rules.FaceValues.TEN.value, gettext_lazy("10 each")),
            (rules.FaceValues.ELEVEN_TWELVE_THIRTEEN.value, gettext_lazy("11, 12 and 13")),
        ],
    )
    one_deck_up_to = forms.IntegerField(
        label=gettext_lazy("One deck up to"),
        required=False,
        help_text=gettext_lazy("Players who play with one deck (1–8); more play with two."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    reductions = forms.CharField(
        label=gettext_lazy("Reductions"),
        required=False,
        max_length=500,
        help_text=gettext_lazy(
            "Totals reached exactly and what they become, e.g. “100 → 50, 200 → 100” "
            "(“->” works too); at most 20, totals up to 10,000. Empty: no total is reduced."
        ),
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )
    reduce_every = forms.IntegerField(
        label=gettext_lazy("Also reduce every multiple of"),
        required=False,
        help_text=gettext_lazy(
            "Any other total reached exactly that is a multiple of this (10–10,000) loses the "
            "amount below, e.g. 50 and 50. Both empty: no multiple is reduced."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    reduce_by = forms.IntegerField(
        label=gettext_lazy("Reduced by"),
        required=False,
        help_text=gettext_lazy("More than 0, at most the multiple."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    reduction_needs_points = forms.ChoiceField(
        label=gettext_lazy("A reduction"),
        required=False,
        choices=[
            (YES, gettext_lazy("only after a round with points (a total reached)")),
            (NO, gettext_lazy("also after a 0-point round (a player stays on the total)")),
        ],
    )
    end = forms.ChoiceField(
        label=gettext_lazy("Above the limit"),
        required=False,
        choices=[
            (rules.End.GAME_OVER.value, gettext_lazy("the game is over")),
            (rules.End.ELIMINATION.value, gettext_lazy("that player is out")),
        ],
    )
    end_above = forms.IntegerField(
        label=gettext_lazy("Limit"),
        required=False,
        help_text=gettext_lazy("The total a player must go above (1–10,000)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    deals_per_player = forms.IntegerField(
        label=gettext_lazy("Deals per player"),
        required=False,
        help_text=gettext_lazy(
            "The game is also over once every player has dealt this many times (1–50), "
            "whichever comes first; ranked by totals. 0: no such end."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    assaf = forms.ChoiceField(
        label=gettext_lazy("Caller caught by an Assaf scores"),
        required=False,
        choices=[
            (rules.Assaf.HAND_PLUS.value, gettext_lazy("their hand + the Assaf penalty")),
            (rules.Assaf.FLAT.value, gettext_lazy("the Assaf penalty alone")),
            (
                rules.Assaf.PER_CHALLENGER.value,
                gettext_lazy("their hand + the Assaf penalty for each hand as low or lower"),
            ),
            (rules.Assaf.OTHERS_CARDS.value, gettext_lazy("all the other hands added up")),
        ],
        help_text=gettext_lazy(
            "The Assaf rules only (Israeli, English and French Wikipedia): another hand as "
            "low as the caller's or lower."
        ),
    )
    assaf_penalty = forms.IntegerField(
        label=gettext_lazy("Assaf penalty"),
        required=False,
        help_text=gettext_lazy("0–100; usually 30, or a flat 25 or 30."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    assaf_extra = forms.IntegerField(
        label=gettext_lazy("Assaf penalty for each further hand"),
        required=False,
        help_text=gettext_lazy(
            "With a penalty for each hand: 0–100 for the second and later hands, e.g. 20. "
            "Empty: the Assaf penalty again."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    assaf_zero = forms.ChoiceField(
        label=gettext_lazy("In an Assaf, 0 for"),
        required=False,
        choices=[
            (
                rules.AssafZero.NOBODY.value,
                gettext_lazy("nobody: everyone else scores their hand"),
            ),
            (rules.AssafZero.LOWEST.value, gettext_lazy("the lowest hand")),
            (
                rules.AssafZero.AT_OR_BELOW_CALLER.value,
                gettext_lazy("every hand at or below the caller's"),
            ),
        ],
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "starts_on",
            "ends_on",
            "venue",
            "club",
            "is_public",
            "table_size",
            "small_tables",
            "session_count",
            "ranking",
            "substitute_credit",
            "final_players",
            "final_tables",
            "final_carry_over",
            "at_time_limit",
            "preset",
            "false_yaniv",
            "status",
        ]
        labels = {
            "name": gettext_lazy("Name"),
            "slug": gettext_lazy("Address"),
            "starts_on": gettext_lazy("First day"),
            "ends_on": gettext_lazy("Last day"),
            "venue": gettext_lazy("Venue"),
            "club": gettext_lazy("Organising club"),
            "is_public": gettext_lazy("Public"),
            "table_size": gettext_lazy("Players per table"),
            "small_tables": gettext_lazy("Tables of 2 when needed"),
            "session_count": gettext_lazy("Sessions"),
            "ranking": gettext_lazy("Standings"),
            "substitute_credit": gettext_lazy("A substitute's game counts for"),
            "final_players": gettext_lazy("Players in the final"),
            "final_tables": gettext_lazy("Final tables"),
            "final_carry_over": gettext_lazy("Carried into the final"),
            "at_time_limit": gettext_lazy("At the time limit"),
            "preset": gettext_lazy("Rule set"),
            "false_yaniv": gettext_lazy("False Yaniv"),
            "status": gettext_lazy("Status"),
        }
        help_texts = {
            "slug": gettext_lazy(
                "Letters, digits and hyphens, used in the pages' addresses. "
                "Left empty, it is made from the name."
            ),
            "ends_on": gettext_lazy("Leave empty for a one-day tournament."),
            "final_players": gettext_lazy(
                "0: no final. Else the best of the standings after the planned sessions play "
                "a final: 2–8 players at one table, 4–16 at two."
            ),
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, user: Any = None, **kwargs) -> None:
        """`user`: who fills it in; the organising club is one of the clubs they may see."""
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["table_size"] = forms.IntegerField(
            label=gettext_lazy("Players per table"),
            min_value=2,
            max_value=BELGIAN.max_players,
            help_text=gettext(
                "The table size the seating draw aims at (2–%(most)s): it seats 3 to this + 1 "
                "players a table, at least 5 (3 to 5 around 4)."
            )
            % {"most": BELGIAN.max_players},
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        # The final is optional: left out, there is none.
        for name in ("final_players", "final_tables", "final_carry_over"):
            self.fields[name].required = False
        # Left out, the standings add up every game (the rules' way), and a seat that
        # changed hands counts for the player who began the game.
        self.fields["ranking"].required = False
        self.fields["substitute_credit"].required = False
        # Left out, the round being played is the last (the clock's default rule).
        self.fields["at_time_limit"].required = False
        self.fields["final_players"].widget.attrs["inputmode"] = "numeric"
        self.fields["session_count"] = forms.IntegerField(
            label=gettext_lazy("Sessions"),
            min_value=1,
            max_value=30,
            help_text=gettext("How many sessions (seatings) the tournament plans (1–30)."),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        if self.instance.pk is None:
            # A new tournament's form starts from the model's defaults (tables of 4, four
            # sessions): a ModelForm leaves a new instance's fields empty.
            fresh = Tournament()
            for name in ("table_size", "session_count"):
                self.fields[name].initial = getattr(fresh, name)
        club = cast(forms.ModelChoiceField, self.fields["club"])
        club.queryset = (
            Club.objects.visible_to(user) if user is not None else Club.objects.none()
        ).order_by("name")
        club.empty_label = gettext("(none)")
        if not self.instance.pk:
            # A new tournament starts as a draft; its first session makes it run.
            del self.fields["status"]
        self._stored_options, self._shown = self._stored_rules()
        self.initial.update(self._option_initial(self._shown))
        self._has_rounds: bool | None = None

    def clean_ranking(self) -> str:
        return self.cleaned_data.get("ranking") or Tournament.Ranking.TOTAL

    def clean_substitute_credit(self) -> str:
        return self.cleaned_data.get("substitute_credit") or Tournament.SubstituteCredit.ORIGINAL

    def clean_at_time_limit(self) -> str:
        return self.cleaned_data.get("at_time_limit") or AtTimeLimit.FINISH_ROUND

    def clean_final_players(self) -> int:
        return self.cleaned_data.get("final_players") or 0

    def clean_final_tables(self) -> int:
        return int(self.cleaned_data.get("final_tables") or 1)

    def clean_final_carry_over(self) -> str:
        return self.cleaned_data.get("final_carry_over") or CarryOver.NONE.value

    # --- the house rules --------------------------------------------------------------------

    def _stored_rules(self) -> tuple[dict[str, Any], rules.Ruleset]:
        """The tournament's options and the rule set the fields are filled from.

        Options that no longer make a rule set (stored before a bound existed) are dropped:
        the fields show the preset, and saving keeps only what the fields say.
        """
        preset = rules.RULESETS.get(self.instance.preset, BELGIAN)
        stored = self.instance.rule_options if isinstance(self.instance.rule_options, dict) else {}
        try:
            return dict(stored), preset.with_options(stored)
        except rules.GameError:
            return {}, preset

    @staticmethod
    def _option_initial(ruleset: rules.Ruleset) -> dict[str, object]:
        multiples = ruleset.reduce_multiples
        return {
            "yaniv_limit": ruleset.yaniv_limit,
            "yaniv_limit_warns": _flag(ruleset.yaniv_limit_warns),
            "cards_dealt": ruleset.cards_dealt,
            "face_values": ruleset.face_values.value,
            "one_deck_up_to": ruleset.one_deck_up_to,
            "reductions": reductions_text(ruleset.reduction_table),
            "reduce_every": multiples[0] if multiples else None,
            "reduce_by": multiples[1] if multiples else None,
            "reduction_needs_points": _flag(ruleset.reduction_needs_points),
            "end": ruleset.end.value,
            "end_above": ruleset.end_above,
            "deals_per_player": ruleset.deals_per_player,
            "assaf": ruleset.assaf.value,
            "assaf_penalty": ruleset.assaf_penalty,
            "assaf_extra": ruleset.assaf_extra,
            "assaf_zero": ruleset.assaf_zero.value,
        }

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in RULE_FIELDS]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in RULE_FIELDS if name in self.fields]

    @property
    def rules_locked(self) -> bool:
        """Rounds are recorded: the cached scores were computed under these rules."""
        if self._has_rounds is None:
            self._has_rounds = bool(
                self.instance.pk
                and Round.objects.filter(game__table__session__tournament=self.instance).exists()
            )
        return self._has_rounds

    def clean_reductions(self) -> list[list[int]]:
        return parse_reductions(self.cleaned_data.get("reductions") or "")

    def _omitted(self, option: str) -> bool:
        """None of the option's fields was sent (not a browser's post): as shown."""
        return all(
            self.fields[name].widget.value_omitted_from_data(
                self.data, self.files, self.add_prefix(name)
            )
            for name in OPTION_FIELDS[option]
        )

    def _posted_options(self) -> dict[str, object]:
        """Each option as its fields give it, as JSON; left out: the preset decides.

        A number or a choice left empty follows the preset; an empty reduction table or an
        empty multiple is none. Fields that failed their own cleaning are left out (their error
        is shown), and an option none of whose fields was sent counts as shown.
        """
        data = self.cleaned_data
        posted: dict[str, object] = {}
        for option, names in OPTION_FIELDS.items():
            if self._omitted(option):
                posted[option] = _shown_value(self._shown, option)
                continue
            if any(name in self.errors for name in names):
                continue
            value = data.get(names[0])
            if option == "reduce_multiples":
                every, by = data.get("reduce_every"), data.get("reduce_by")
                if (every is None) != (by is None):
                    empty = "reduce_every" if every is None else "reduce_by"
                    self.add_error(empty, gettext("Give both numbers, or neither."))
                    continue
                posted[option] = None if every is None else [every, by]
            elif option == "reductions":
                posted[option] = value
            elif option in ("yaniv_limit_warns", "reduction_needs_points"):
                if value:
                    posted[option] = value == YES
            elif value is not None and value != "":
                posted[option] = value
        return posted

    def _clean_rule_options(self, cleaned: dict[str, Any]) -> None:
        """Build the tournament's options from the fields; the engine checks them."""
        # The model checks the options against the preset: until they are known good, it sees
        # the stored ones (which make a rule set under any preset).
        self.instance.rule_options = self._stored_options
        preset = rules.RULESETS.get(cleaned.get("preset") or "")
        if preset is None:
            return
        shown = self._shown
        options: dict[str, object] = {}
        for option, value in self._posted_options().items():
            if value == _shown_value(shown, option):
                # As shown: the tournament's house rule stays, else the preset decides.
                if option in self._stored_options:
                    options[option] = self._stored_options[option]
            else:
                options[option] = value
        # Options without a field of their own (the false-Yaniv rule) are kept as stored.
        for option, value in self._stored_options.items():
            if option not in OPTION_FIELDS:
                options[option] = value
        failed = False
        hand_size = _valid_hand_size(preset, options)
        for option, value in options.items():
            try:
                # The Yaniv limit is checked against the largest hand of the cards asked for.
                preset.with_options({**hand_size, option: value})
            except rules.GameError as error:
                self._add_option_error(option, error)
                failed = True
        if failed or any(name in self.errors for name in RULE_FIELDS):
            return
        try:
            ruleset = preset.with_options(options)
        except rules.GameError as error:
            self._add_option_error(OPTION_OF_CODE.get(error.code, ""), error)
            return
        if self.rules_locked and self.instance.preset == preset.name:
            before = self._shown
            for option, names in OPTION_FIELDS.items():
                attribute = rules.OPTIONS[option][0]
                if getattr(ruleset, attribute) != getattr(before, attribute):
                    self.add_error(
                        names[0],
                        gettext("The table options cannot change once rounds are recorded."),
                    )
            if any(name in self.errors for name in RULE_FIELDS):
                return
        kept = {name: value for name, value in options.items() if name not in OPTION_FIELDS}
        self.instance.rule_options = {**ruleset.options_from(preset), **kept}

    def _add_option_error(self, option: str, error: rules.GameError) -> None:
        option = OPTION_OF_CODE.get(error.code, str(error.params.get("option", option)))
        names = OPTION_FIELDS.get(option)
        if names is None:
            # An option without a field (kept as stored): the engine's own words.
            self.add_error(None, texts.game_error(error))
            return
        field, message = FIELD_MESSAGES.get(error.code, (None, None))
        text = str(message) % error.params if message else texts.game_error(error)
        self.add_error(field or names[0], text)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        starts_on, ends_on = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", gettext("The last day cannot be before the first day."))
        if "slug" in cleaned:
            self._clean_slug_or_make_one(cleaned)
        locked = {
            "false_yaniv": gettext("The false-Yaniv rule cannot change once rounds are recorded."),
            "preset": gettext("The rule set cannot change once rounds are recorded."),
        }
        changed = [field for field in locked if field in self.changed_data]
        if changed and self.rules_locked:
            # The cached scores were computed under the old rules.
            for field in changed:
                self.add_error(field, locked[field])
        self._clean_rule_options(cleaned)
        return cleaned

    def _clean_slug_or_make_one(self, cleaned: dict) -> None:
        slug = cleaned.get("slug") or ""
        if not slug:
            max_length = Tournament._meta.get_field("slug").max_length
            slug = slugify(cleaned.get("name") or "")[:max_length].strip("-")
            if not slug:
                if cleaned.get("name"):
                    self.add_error("slug", gettext("Choose an address: the name gives none."))
                return
        if slug in RESERVED_SLUGS:
            self.add_error(
                "slug",
                gettext("The address “%(slug)s” is reserved: choose another.") % {"slug": slug},
            )
            return
        taken = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            self.add_error(
                "slug",
                gettext("The address “%(slug)s” is already used by another tournament.")
                % {"slug": slug},
            )
            return
        cleaned["slug"] = slug


class AddPlayerForm(forms.Form):
    """Register one player, found by club and member number (or name), else created."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=player_import.MAX_LENGTHS[player_import.NAME],
        validators=[refuse_direction_controls],
    )
    club = forms.CharField(
        label=gettext_lazy("Club"),
        required=False,
        validators=[refuse_direction_controls],
        max_length=player_import.MAX_LENGTHS[player_import.CLUB],
        help_text=gettext_lazy("A club not known yet is created."),
        widget=forms.TextInput(attrs={"list": "clubs", "autocomplete": "off"}),
    )
    member_number = forms.CharField(
        label=gettext_lazy("Member number"),
        required=False,
        validators=[refuse_direction_controls],
        max_length=Player._meta.get_field("member_number").max_length,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    # Asked when a known player's name is alike (player_import's look-alikes): register
    # that player instead (`known`, their id), or a new player all the same (`new_player`).
    # Sent by the warning's buttons only.
    known = forms.ModelChoiceField(
        queryset=Player.objects.all(), required=False, widget=forms.HiddenInput
    )
    new_player = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, director: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if director is not None:
            # Only a player the director may see can be chosen (issue 22, finding 4).
            self.fields["known"].queryset = Player.objects.visible_to(director)  # type: ignore[attr-defined]

    def parsed(self) -> player_import.ParsedImport:
        data = self.cleaned_data
        return player_import.single_row(data["name"], data["club"], data["member_number"])


class ImportUploadForm(forms.Form):
    """A players' CSV file: at most 1 MB (and `player_import.MAX_ROWS` players); a larger
    one is refused without being read."""

    MAX_BYTES = 1_000_000

    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = gettext(
            "Columns name (or first and last name), club and member number, in English, "
            "Dutch or French (naam or voornaam and familienaam, club, lidnummer; nom or "
            "prénom and nom, club, numéro de membre); other columns are ignored. Separated "
            "by commas or semicolons, saved as “CSV UTF-8” or Excel's “CSV”. At most "
            "%(rows)s players and 1 MB."
        ) % {"rows": number_format(player_import.MAX_ROWS, force_grouping=True)}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                gettext(
                    "The file is %(size)s: a players file of at most 1 MB and %(rows)s "
                    "players is imported at once. Is it the right file?"
                )
                % {
                    "size": filesizeformat(upload.size),
                    "rows": number_format(player_import.MAX_ROWS, force_grouping=True),
                }
            )
        return upload


class ImportConfirmForm(forms.Form):
    """The previewed file, signed, so that the confirmed import is exactly what was shown."""

    SALT = "tournaments.player_import"
    MAX_AGE = 6 * 60 * 60  # seconds between the preview and the confirmation

    payload = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, tournament: Tournament, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    @classmethod
    def sign(cls, tournament: Tournament, data: bytes) -> str:
        # The text as the preview read it (UTF-8 or Windows-1252); signed as UTF-8.
        text = (player_import.decode_csv(data) or ("", ""))[0]
        return signing.dumps(
            {"tournament": tournament.pk, "csv": text}, salt=cls.SALT, compress=True
        )

    @classmethod
    def for_file(cls, tournament: Tournament, data: bytes) -> ImportConfirmForm:
        return cls(tournament, initial={"payload": cls.sign(tournament, data)})

    def clean_payload(self) -> bytes:
        try:
            value = signing.loads(
                self.cleaned_data["payload"], salt=self.SALT, max_age=self.MAX_AGE
            )
        except signing.SignatureExpired as error:
            raise forms.ValidationError(
                gettext("This preview is too old: upload the file again.")
            ) from error
        except signing.BadSignature as error:
            raise forms.ValidationError(
                gettext("The previewed file could not be verified: upload it again.")
            ) from error
        if value.get("tournament") != self.tournament.pk:
            raise forms.ValidationError(gettext("This preview is for another tournament."))
        return value["csv"].encode("utf-8")


class CheckInForm(forms.Form):
    """Check a player (or everyone) in (1) or out (0)."""

    checked_in = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")], coerce=lambda value: value == "1"
    )


class WithdrawForm(forms.Form):
    """A player withdraws mid-tournament, with the reason the log keeps."""

    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        strip=True,
        widget=forms.TextInput(
            attrs={"placeholder": gettext_lazy("e.g. unwell, had to leave"), "maxlength": 200}
        ),
        error_messages={
            "required": gettext_lazy("Say why the player withdraws."),
            "max_length": gettext_lazy("At most %(limit_value)d characters."),
        },
    )
