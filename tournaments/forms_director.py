"""The director's forms: a tournament's settings, one player, a players file."""

from __future__ import annotations

from django import forms
from django.core import signing
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from scoring.models import Round
from scoring.rules import BELGIAN
from tournaments import player_import
from tournaments.models import Club, Player, Tournament

# Paths under /manage/ that a tournament's address cannot take.
RESERVED_SLUGS = {"new"}


class TournamentForm(forms.ModelForm):
    """Create or change a tournament; its address is made from the name when left empty."""

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
            "session_count",
            "preset",
            "false_yaniv",
            "rule_options",
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
            "session_count": gettext_lazy("Sessions"),
            "preset": gettext_lazy("Rule set"),
            "rule_options": gettext_lazy("Table options"),
            "false_yaniv": gettext_lazy("False Yaniv"),
            "status": gettext_lazy("Status"),
        }
        help_texts = {
            "slug": gettext_lazy(
                "Letters, digits and hyphens, used in the pages' addresses. "
                "Left empty, it is made from the name."
            ),
            "ends_on": gettext_lazy("Leave empty for a one-day tournament."),
            "rule_options": gettext_lazy(
                "House rules on top of the rule set, as JSON; empty for the rule set as it is. "
                'E.g. {"yaniv_limit": 7, "reductions": [[100, 50], [200, 100]], '
                '"end": "elimination", "end_above": 200, "cards_dealt": 5}.'
            ),
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "rule_options": forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["table_size"] = forms.IntegerField(
            label=gettext_lazy("Players per table"),
            min_value=2,
            max_value=BELGIAN.max_players,
            help_text=gettext("The table size the seating draw aims at (2–%(most)s).")
            % {"most": BELGIAN.max_players},
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.fields["session_count"] = forms.IntegerField(
            label=gettext_lazy("Sessions"),
            min_value=1,
            max_value=30,
            help_text=gettext("How many sessions (seatings) the tournament plans (1–30)."),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.fields["club"].queryset = Club.objects.order_by("name")
        self.fields["club"].empty_label = gettext("(none)")
        if not self.instance.pk:
            # A new tournament starts as a draft; its first session makes it run.
            del self.fields["status"]

    def clean_rule_options(self) -> dict:
        # An empty box means the preset as it is.
        return self.cleaned_data.get("rule_options") or {}

    def clean(self) -> dict:
        cleaned = super().clean()
        starts_on, ends_on = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", gettext("The last day cannot be before the first day."))
        if "slug" in cleaned:
            self._clean_slug_or_make_one(cleaned)
        locked = {
            "false_yaniv": gettext("The false-Yaniv rule cannot change once rounds are recorded."),
            "preset": gettext("The rule set cannot change once rounds are recorded."),
            "rule_options": gettext("The table options cannot change once rounds are recorded."),
        }
        changed = [field for field in locked if field in self.changed_data]
        if (
            self.instance.pk
            and changed
            and Round.objects.filter(game__table__session__tournament=self.instance).exists()
        ):
            # The cached scores were computed under the old rules.
            for field in changed:
                self.add_error(field, locked[field])
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
                gettext("The address '%(slug)s' is reserved: choose another.") % {"slug": slug},
            )
            return
        taken = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            self.add_error(
                "slug",
                gettext("The address '%(slug)s' is already used by another tournament.")
                % {"slug": slug},
            )
            return
        cleaned["slug"] = slug


class AddPlayerForm(forms.Form):
    """Register one player, found by club and member number (or name), else created."""

    name = forms.CharField(
        label=gettext_lazy("Name"), max_length=player_import.MAX_LENGTHS[player_import.NAME]
    )
    club = forms.CharField(
        label=gettext_lazy("Club"),
        required=False,
        max_length=player_import.MAX_LENGTHS[player_import.CLUB],
        help_text=gettext_lazy("A club not known yet is created."),
        widget=forms.TextInput(attrs={"list": "clubs", "autocomplete": "off"}),
    )
    member_number = forms.CharField(
        label=gettext_lazy("Member number"),
        required=False,
        max_length=Player._meta.get_field("member_number").max_length,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def parsed(self) -> player_import.ParsedImport:
        data = self.cleaned_data
        return player_import.single_row(data["name"], data["club"], data["member_number"])


class ImportUploadForm(forms.Form):
    MAX_BYTES = 1_000_000

    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "Columns name, club and member number (naam, club, lidnummer or nom, club, "
            "numéro de membre), separated by commas or semicolons, saved as 'CSV UTF-8'."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                gettext("The file is larger than 1 MB: is it the right file?")
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
        text = data.decode("utf-8-sig")
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
