"""A phone's push subscription as its browser gives it (PushSubscription.toJSON())."""

from __future__ import annotations

import base64
import binascii

from django import forms
from django.utils.translation import gettext, gettext_lazy

from notifications import endpoints


def _b64url(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise forms.ValidationError(gettext("This is not base64url.")) from error


class SubscriptionForm(forms.Form):
    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=40)
    announcements = forms.BooleanField(
        required=False, label=gettext_lazy("Also the director's announcements")
    )

    def clean_endpoint(self) -> str:
        """A push service's address on the internet (`notifications.endpoints`): checked
        again at each message, where it resolves then."""
        endpoint = self.cleaned_data["endpoint"]
        try:
            endpoints.check(endpoint)
        except endpoints.Refused as refused:
            raise forms.ValidationError(str(refused)) from refused
        return endpoint

    def clean_p256dh(self) -> str:
        key = self.cleaned_data["p256dh"]
        raw = _b64url(key)
        if len(raw) != 65 or raw[0] != 4:
            raise forms.ValidationError(gettext("This is not a phone's P-256 public key."))
        return key

    def clean_auth(self) -> str:
        secret = self.cleaned_data["auth"]
        if len(_b64url(secret)) != 16:
            raise forms.ValidationError(gettext("This is not a phone's 16-byte auth secret."))
        return secret


class EndpointForm(forms.Form):
    """A phone stopping its subscriptions from the page: its endpoint is its proof."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
