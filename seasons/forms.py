"""The forms of seasons, the players' search and the merge of duplicates.

Every POST of these pages is parsed here; the views act on the cleaned values through model
methods (`Season.add_tournament`, `Player.merge_into`, …).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from scoring import seasons
from seasons.models import Season
from seasons.models.seasons import season_error
from tournaments.models import Club, Tournament

# Paths under /seasons/ that a season's address cannot take.
RESERVED_SLUGS = {"new"}


class SeasonForm(forms.ModelForm):
    """A season's name, address, scheme and how many results count."""

    points_table = forms.CharField(
        label=gettext_lazy("Points per place"),
        required=False,
        help_text=gettext_lazy(
            "With a table of points: place 1 first, separated by commas, e.g. "
            "25, 20, 16, 13, 11, 10, 9, 8, 7, 6. A place beyond the table gets 0."
        ),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    class Meta:
        model = Season
        fields = [
            "name",
            "slug",
            "description",
            "club",
            "is_public",
            "scheme",
            "points_table",
            "best_of",
        ]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "scheme": forms.RadioSelect,
        }

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        """`user`: who fills it in; the organising club is one of the clubs they may see."""
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = gettext(
            # Help texts are HTML: no "<address>" in them, which would be an element.
            "The part of the season's web address after /seasons/. Empty: made from the name."
        )
        club: Any = self.fields["club"]
        club.queryset = (
            Club.objects.visible_to(user) if user is not None else Club.objects.none()
        ).order_by("name")
        best_of: Any = self.fields["best_of"]
        best_of.min_value = 1
        best_of.max_value = seasons.MOST_BEST_OF
        if self.instance.pk and isinstance(self.instance.points_table, list):
            self.initial["points_table"] = ", ".join(map(str, self.instance.points_table))

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:80]
        if not slug:
            raise forms.ValidationError(gettext("Give the season an address (letters, digits)."))
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                gettext("The address %(slug)s is reserved: choose another one.") % {"slug": slug}
            )
        taken = Season.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(
                gettext("Another season has the address %(slug)s.") % {"slug": slug}
            )
        return slug

    def clean_points_table(self) -> list[int]:
        text = self.cleaned_data.get("points_table", "").strip()
        if not text:
            return []
        try:
            return list(seasons.read_points_table(text))
        except seasons.SeasonError as error:
            raise forms.ValidationError(season_error(error)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        needs_table = data.get("scheme") == Season.Scheme.TABLE
        if needs_table and not data.get("points_table") and "points_table" not in self.errors:
            self.add_error("points_table", season_error(seasons.SeasonError("points_table_empty")))
        return data


def countable_tournaments(user: Any, season: Season) -> QuerySet[Tournament]:
    """What an organiser may count in the season: public tournaments and the ones they
    direct, not counted yet."""
    countable = Tournament.objects.countable_by(user).exclude(seasons=season)
    return countable.order_by("-starts_on", "name")


class CoefficientField(forms.DecimalField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", gettext_lazy("Coefficient"))
        kwargs.setdefault("initial", Decimal("1"))
        super().__init__(
            min_value=seasons.COEFFICIENT_LOW,
            max_value=seasons.COEFFICIENT_HIGH,
            max_digits=5,
            decimal_places=2,
            localize=True,
            **kwargs,
        )
        self.widget.attrs.update(inputmode="decimal", size="5")


class AddTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(
        label=gettext_lazy("Tournament"), queryset=Tournament.objects.none()
    )
    coefficient = CoefficientField(
        help_text=gettext_lazy("Its season points are multiplied by it: 1, or 1.5 for a final.")
    )

    def __init__(self, user: Any, season: Season, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["tournament"]
        field.queryset = countable_tournaments(user, season)


class CoefficientForm(forms.Form):
    coefficient = CoefficientField()
