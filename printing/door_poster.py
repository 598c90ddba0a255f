"""The door's poster (A4, portrait, to print and pin at the entrance): the QR code of the
door's short address, the address in large type for who types it, and what to do, in the
site's three languages (a hall's players speak any of them)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer

from printing.document import build, e, p, styles, title
from printing.score_sheets import _qr
from tournaments.models import Door

LANGUAGES = ("en", "nl", "fr")


def _centred(size: float, bold: bool = False) -> ParagraphStyle:
    base = styles()["title" if bold else "body"]
    return ParagraphStyle(
        f"poster-{size}-{bold}", base, fontSize=size, leading=size * 1.25, alignment=TA_CENTER
    )


def _steps(door: Door) -> str:
    """What to do, in the active language."""
    steps = [gettext("Scan the code with your phone's camera, or type the address.")]
    steps.append(gettext("Find your name and tap it."))
    if door.safeguard == Door.Safeguard.MEMBER_NUMBER:
        steps.append(gettext("Type your member number to check in."))
    elif door.safeguard == Door.Safeguard.DESK_CODE:
        steps.append(gettext("Type the code shown at the desk to check in."))
    else:
        steps.append(gettext("Tap “Check in”."))
    if door.entries != Door.Entries.CLOSED:
        steps.append(gettext("Not on the list? Register on the same page."))
    return " ".join(steps)


def door_poster(door: Door, address: str) -> bytes:
    """The poster of `door`, its QR code leading to `address` (the short address, whole)."""
    tournament = door.tournament
    story: list = [title(e(tournament.name)), Spacer(1, 6 * mm)]
    for language in LANGUAGES:
        with translation.override(language):
            story.append(Paragraph(e(gettext("Check in here")), _centred(22, bold=True)))
    story += [Spacer(1, 6 * mm), _qr(address, 120 * mm), Spacer(1, 4 * mm)]
    shown = address.split("://", 1)[-1].rstrip("/")
    story.append(Paragraph(f"<b>{e(shown)}</b>", _centred(20)))
    story.append(Spacer(1, 8 * mm))
    for language in LANGUAGES:
        with translation.override(language):
            story.append(p(e(_steps(door)), "wall"))
            story.append(Spacer(1, 3 * mm))
    return build(
        story,
        title=gettext("Check-in: %(name)s") % {"name": tournament.name},
        footer=tournament.name,
    )
