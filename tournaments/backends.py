"""The site's login backend: Django's `ModelBackend`, reading a session's user in one
parameterised statement.

Every request of a logged-in referee loads their user, a round's submission among them:
through the ORM's `get()` the read cost a twentieth of the submission, three times running
it (`bench hotpath`). The password check, the session's hash and who may log in stay
Django's own; only the read of the user by its id is `tournaments.models.rows`'.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from tournaments.models import rows

USER_READ = rows.Join((get_user_model(), "u"), sql="FROM {u} WHERE u.id = %s")


class Accounts(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        found = USER_READ.read([user_id])
        user: Any = found[0][0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None

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
