"""What the hall's screens follow beside the tournament's live version: check-in at the door
(its QR code shows while it is open). A screen's page is kept by the tournament's version and
the screen's last change; a door changed moves every screen's, screen 1 saved for it."""

from __future__ import annotations

import secrets
from typing import Any

from django.dispatch import receiver
from django.utils import timezone

from hall.models import HallScreen
from tournaments.signals import door_changed


@receiver(door_changed)
def screens_follow_the_door(sender: Any, door: Any, **kwargs: Any) -> None:
    HallScreen.objects.get_or_create(
        tournament_id=door.tournament_id, number=1, defaults={"salt": secrets.token_hex(16)}
    )
    HallScreen.objects.filter(tournament_id=door.tournament_id).update(changed_at=timezone.now())
