"""The director's forms for the hall's screens."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from hall.models import MESSAGE_LENGTH, SECONDS_PER_VIEW, HallScreen


class HallScreenForm(forms.ModelForm):
    """What one screen shows: cycle or one view, paused, how long each view, a message."""

    seconds = forms.IntegerField(
        label=gettext_lazy("Seconds per view"),
        min_value=SECONDS_PER_VIEW[0],
        max_value=SECONDS_PER_VIEW[1],
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    message = forms.CharField(
        label=gettext_lazy("Message"),
        required=False,
        max_length=MESSAGE_LENGTH,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": MESSAGE_LENGTH}),
        help_text=gettext_lazy("Shown on this screen in big letters until you clear it."),
    )

    class Meta:
        model = HallScreen
        fields = ["name", "pinned", "paused", "seconds", "message"]
        labels = {
            "name": gettext_lazy("Name"),
            "pinned": gettext_lazy("Shows"),
            "paused": gettext_lazy("Pause the cycle"),
        }
        help_texts = {
            "name": gettext_lazy("Where it stands, e.g. “Bar” or “Main hall”."),
            "paused": gettext_lazy("The screen stays on the view it shows now."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        pinned = self.fields["pinned"]
        assert isinstance(pinned, forms.ChoiceField)
        pinned.choices = [("", gettext_lazy("Every view in turn")), *HallScreen.View.choices]


class HallScreenAddForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False, strip=True)
