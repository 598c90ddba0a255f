"""The site's login backend: Django's `ModelBackend`, but a wrong password ends the login.

The password check, the session's user, its hash and who may log in are Django's own. Django's
`ModelBackend` stays listed after this one for the sessions it signed in before this backend
came (a session names its backend; CHANGELOG), so a wrong password refused here is not checked
a second time there.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


class Accounts(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        user = super().authenticate(request, username, password, **kwargs)
        if user is None and password is not None:
            # Wrong credentials end the login here: Django's ModelBackend, listed after this
            # one for the sessions it signed in, would check the password a second time.
            raise PermissionDenied
        return user
