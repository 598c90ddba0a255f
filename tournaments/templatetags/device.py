"""The words the table page's script says (static/js/table.js), in the page's language:
`{% device_texts ruleset_name as texts %}{{ texts|json_script:"device-texts" }}`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language, gettext, ngettext

from scoring.errors import WARNING_MESSAGES
from scoring.sheet import Mark
from tournaments import texts
from tournaments.forms import ENDING_MISSING

register = template.Library()


@register.simple_tag
def device_texts(ruleset: str) -> dict[str, Any]:
    """What the table page's script says, in the page's language (placeholders %(name)s)."""

    def forms_of(singular: str, plural: str) -> list[str]:
        return [ngettext(singular, plural, 1), ngettext(singular, plural, 2)]

    return {
        "language": get_language(),
        "round": gettext("Round %(number)s"),
        "record": gettext("Record round %(number)s"),
        "preview": gettext("Preview of round %(number)s"),
        # A player's line of the preview: a sentence with the name in it (French puts a
        # narrow space before the colon); the script fills it with the escaped name.
        "preview_line": gettext("<bdi>%(player)s</bdi>: +%(points)s → <strong>%(total)s</strong>"),
        "preview_line_reduced": gettext(
            "<bdi>%(player)s</bdi>: +%(points)s → %(arrived)s → <strong>%(total)s</strong> "
            "(−%(reduction)s)"
        ),
        "emptied_hand": gettext("emptied hand"),
        "false_yaniv_word": gettext("false Yaniv"),
        "assaf": gettext("Assaf"),
        "false_yaniv": gettext(
            "False Yaniv: %(caller)s gets %(penalty)s + %(neighbour)s's %(hand)s = %(points)s"
        ),
        "eliminated": gettext("Out of the game after this round: %(players)s."),
        "ends_game": gettext("This round ends the game."),
        "over_150": forms_of(
            "This round ends the game: %(over)s is over 150.",
            "This round ends the game: %(over)s are over 150.",
        ),
        "over_limit": forms_of(
            "This round ends the game: %(over)s is above %(limit)s.",
            "This round ends the game: %(over)s are above %(limit)s.",
        ),
        "dealt_out": forms_of(
            "This round ends the game: every player has dealt once.",
            "This round ends the game: every player has dealt %(deals)s times.",
        ),
        "winners": forms_of("Winner: %(winners)s.", "Winners: %(winners)s."),
        "preview_waits": gettext(
            "The preview appears once every hand and the ending are entered."
        ),
        "out_of_game": gettext("Out of the game"),
        "pending": gettext("not sent yet"),
        "saved_here": gettext("Round %(number)s is kept on this phone."),
        "saved": gettext("Round %(number)s saved."),
        "corrected": gettext("Round %(number)s corrected."),
        "undone": gettext("Last round undone."),
        "all_saved": gettext("Saved."),
        "waiting": forms_of("%(count)s change waiting.", "%(count)s changes waiting."),
        "offline": gettext("No connection: kept on this phone, sent when the Wi-Fi is back."),
        "syncing": gettext("Sending…"),
        "conflict": gettext("Two versions of a round: choose below."),
        "stale": gettext(
            "The sheet changed on another device before your change to round %(number)s."
        ),
        "apply_anyway": gettext("Apply mine anyway"),
        "discard_mine": gettext("Discard mine"),
        # Counted without plurals: the same sentence whatever the number.
        "closed": gettext("Not sent, kept on this phone (see above): %(count)s."),
        "closed_title": gettext("This phone can no longer record at this table"),
        "closed_why": gettext("Why: %(reason)s."),
        "closed_kept": gettext(
            "Typed here and not stored: %(count)s. It all stays on this phone until it is "
            "stored or you delete it: read it out or copy it for the director."
        ),
        "closed_nothing": gettext("Nothing typed on this phone waits to be stored."),
        "pending_text": gettext("Not stored yet, as text"),
        "copy": gettext("Copy the text"),
        "copied": gettext("Copied"),
        "delete_kept": gettext("Delete them from this phone"),
        "delete_confirm": gettext(
            "Delete what this phone keeps of this table (%(count)s)? It is stored nowhere else."
        ),
        "line_record": gettext("Round %(number)s: %(entries)s"),
        "line_correct": gettext("Correction of round %(number)s: %(entries)s"),
        "line_undo": gettext("Undo of the last round: %(entries)s"),
        "yaniv_note": gettext("(Yaniv)"),
        "emptied_note": gettext("(emptied)"),
        "along_note": gettext("(along)"),
        "discarded": gettext("Your round %(number)s (%(entries)s) was not stored."),
        "moved": gettext("Your round %(from)s is now round %(to)s."),
        "undo_round": gettext("Undo round %(number)s"),
        "waiting_behind": gettext(
            "Waiting behind it, sent after your choice (%(count)s): %(changes)s."
        ),
        "undo_why": gettext("why round %(number)s goes"),
        "refused": gettext("Not stored: %(reason)s"),
        "correct_round": gettext("Correct round %(number)s"),
        "reason": gettext("Reason"),
        "save_correction": gettext("Save the correction"),
        "cancel": gettext("Cancel"),
        "enter_hand": gettext("Enter %(player)s's hand total."),
        "hand_range": gettext("%(player)s's hand must be a whole number from 0 to %(max)s."),
        "ending_missing": str(ENDING_MISSING),
        "errors": texts.error_templates(ruleset),
        "warnings": {code: gettext(message) for code, message in WARNING_MESSAGES.items()},
        "marks": {mark.value: texts.mark_letter(mark) for mark in Mark},
    }
