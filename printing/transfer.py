"""A tournament pushed from a venue box to the federation's site in one step.

At the end of the day the venue's laptop sends the tournament's archive (printing/archive.py,
the same JSON as "Export") to the federation's site, which imports it (`import_tournament`:
all or nothing, the same players matched, every round replayed through the engine). The
request carries a director's **import token** from the federation's site: `manage.py
import_token USERNAME` there prints one. It is signed with the site's SECRET_KEY, names the
account, lasts `TOKEN_DAYS` days and stops working as soon as the account's password changes
or it may no longer create tournaments; nothing of it is stored. The venue runs
`manage.py push_tournament SLUG --to https://federation.example --token …`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "yaniv-club.import-token"
TOKEN_DAYS = 30


def _password_key(user: Any) -> str:
    # Changes with the password: changing it withdraws every token given before.
    return salted_hmac(SALT, f"{user.pk}:{user.password}").hexdigest()[:24]


def import_token(user: Any) -> str:
    return signing.dumps({"user": user.pk, "key": _password_key(user)}, salt=SALT)


def user_of_token(token: str) -> Any | None:
    """The active account a token was given to, or None (forged, expired or withdrawn)."""
    try:
        claims = signing.loads(token, salt=SALT, max_age=timedelta(days=TOKEN_DAYS))
    except signing.BadSignature:
        return None
    if not isinstance(claims, dict) or type(claims.get("user")) is not int:
        return None
    user = get_user_model()._default_manager.filter(pk=claims["user"], is_active=True).first()
    if user is None or not constant_time_compare(str(claims.get("key")), _password_key(user)):
        return None
    return user
