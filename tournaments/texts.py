"""Texts of the pure modules, translated where the site shows them.

The rules engine, the game records, the seating draw and the standings (`scoring`) are pure
Python without Django and speak English. Their errors carry a code and parameters; the site
looks the code's message up (`scoring.errors`, marked for the catalogues) and shows its
translation filled with the parameters. No English sentence is matched. The site's own
refusals (`tournaments.errors.Refused`) are looked up the same way (`translated`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext, pgettext_lazy

from scoring import standings
from scoring.errors import (
    GAME_MESSAGES,
    WARNING_MESSAGES,
    Coded,
    FinalError,
    GameError,
    SeatingError,
)
from scoring.sheet import CELL_NOTE_MESSAGES, Mark

# The engine's rule sets by name, as a page title and a message name them ("Scoring rules
# (Belgian)", "nobody goes along under the Israeli rules"): never the code's id.
RULESET_NAMES = {
    "belgian": pgettext_lazy("rule set, as in: the Belgian rules", "Belgian"),
    "israeli": pgettext_lazy("rule set, as in: the Israeli rules", "Israeli"),
    "wikipedia_en": pgettext_lazy(
        "rule set, as in: the English Wikipedia rules", "English Wikipedia"
    ),
    "wikipedia_fr": pgettext_lazy(
        "rule set, as in: the French Wikipedia rules", "French Wikipedia"
    ),
}

# How a score sheet marks a hand, on the pages and in the PDFs (a letter of the language).
MARK_LETTERS = {
    Mark.CALLER: pgettext_lazy("sheet mark: Yaniv caller", "Y"),
    Mark.ASSAF: pgettext_lazy("sheet mark: Assaf", "S"),
    Mark.LOWEST: pgettext_lazy("sheet mark: lowest hand in an Assaf", "L"),
    Mark.FALSE: pgettext_lazy("sheet mark: false Yaniv", "F"),
    Mark.ALONG: pgettext_lazy("sheet mark: went along", "A"),
    Mark.EMPTY: pgettext_lazy("sheet mark: emptied hand", "E"),
    Mark.OUT: pgettext_lazy("sheet mark: out of the game", "out"),
}
# What each mark means, for the legend under every sheet.
MARK_MEANINGS = {
    Mark.CALLER: gettext_lazy("caller"),
    Mark.ASSAF: gettext_lazy("Assaf (another hand was as low or lower)"),
    Mark.LOWEST: gettext_lazy("lowest hand (the Assaf)"),
    Mark.FALSE: gettext_lazy("false Yaniv"),
    Mark.ALONG: gettext_lazy("along"),
    Mark.EMPTY: gettext_lazy("emptied hand"),
    Mark.OUT: gettext_lazy("went out of the game"),
}


def sentence(text: str) -> str:
    """A message as a sentence: "the game is already over" → "The game is already over."."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class Worded(Protocol):
    """What a coded error carries (the engine's errors and warnings, a season's, the site's
    refusals): the message's template and its parameters."""

    @property
    def template(self) -> str | Promise: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def translated(error: Worded) -> str:
    """An engine, game-record, seating or season error (or a warning), or a refusal of the
    site, in the active language, by its code; a rule set it names by its name in that
    language. The one place a coded error becomes words."""
    template = error.template
    # The site's refusals are marked lazily (translated when read), the engine's by name.
    text = str(template) if isinstance(template, Promise) else gettext(template)
    return text % _named(error.params)


def _named(params: Mapping[str, object]) -> Mapping[str, object]:
    """A message's parameters with the rule set's id ("israeli") as its name."""
    if "ruleset" not in params:
        return params
    return {**params, "ruleset": ruleset_name(str(params["ruleset"]))}


def error_templates(ruleset: str) -> dict[str, str]:
    """Every game error's message in the active language, for the table page's script, with
    this table's rule set already named (the device's engine gives its id)."""
    name = ruleset_name(ruleset)
    return {
        code: gettext(message).replace("%(ruleset)s", name)
        for code, message in GAME_MESSAGES.items()
    }


def game_error(error: GameError) -> str:
    """An engine or game-record error in the active language, as a sentence."""
    return sentence(translated(error))


def seating_error(error: SeatingError) -> str:
    return sentence(translated(error))


def final_error(error: FinalError) -> str:
    return sentence(translated(error))


def warning(warning: Coded) -> str:
    """An engine's warning about a round, as a sentence in the active language."""
    return sentence(translated(warning))


def mark_letter(mark: Mark | str | None) -> str:
    """A sheet mark as its letter in the active language; "" for none."""
    if not mark:
        return ""
    return str(MARK_LETTERS[Mark(mark)])


def mark_meaning(mark: Mark | str) -> str:
    return str(MARK_MEANINGS[Mark(mark)])


def final_heading(rows: Any) -> str:
    """The final standings' heading (`Tournament.final_standings` rows): final once the
    final is played (its rows rank the finalists), before that the standings so far, as the
    hall says them."""
    if any(row.stage == "final" for row, _ in rows):
        return gettext("Final standings")
    return gettext("Standings so far · the final is being played")


def ruleset_name(name: str) -> str:
    """A rule set's name in the active language ("Belgian", "règles belges")."""
    return str(RULESET_NAMES.get(name, name))


def scheme(by: str = standings.BY_TOTAL) -> str:
    """How the standings are made (standings.SCHEME), in the active language; ranked by the
    average per game, that too."""
    if by == standings.BY_AVERAGE:
        return f"{gettext(standings.SCHEME)} {gettext(standings.AVERAGE_SCHEME)}"
    return gettext(standings.SCHEME)


def tie_breaks(by: str = standings.BY_TOTAL) -> list[str]:
    rules = standings.AVERAGE_TIE_BREAKS if by == standings.BY_AVERAGE else standings.TIE_BREAKS
    return [gettext(rule) for rule in rules]


def tie_break_order(by: str = standings.BY_TOTAL) -> str:
    """The tie-breaks as one list: "placement points, high first; then games won, …"."""
    return gettext("; then ").join(tie_breaks(by))


# --- the table page's script ----------------------------------------------------------------

# The entry form's error when neither a Yaniv caller nor an emptied hand is chosen (the script
# says the same before sending).
ENDING_MISSING = gettext_lazy("Choose who called Yaniv, or who emptied their hand.")


def script_texts(ruleset: str) -> dict[str, Any]:
    """What the table page's script says, in the page's language (placeholders %(name)s).

    The one catalogue of the script's words. It travels inside the page (`json_script`,
    #device-texts), not through Django's `JavaScriptCatalog`: the page a phone keeps for the
    table works offline with its words in its own language and no second request for the
    service worker to keep per language; the engine's error and warning messages come by
    their code (`scoring.errors`), in the same catalogue the server's messages use."""

    # Each plural as its one and its many form, written out in full for makemessages.
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
        # What a house rule did to a player in the round ("+25 streak bonus", "joined at 30"),
        # as the sheet's cells say it.
        "notes": {code: gettext(message) for code, message in CELL_NOTE_MESSAGES.items()},
        "emptied_hand": gettext("emptied hand"),
        "false_yaniv_word": gettext("false Yaniv"),
        "assaf": gettext("Assaf"),
        "false_yaniv": gettext(
            "False Yaniv: %(caller)s gets %(penalty)s + %(neighbour)s's %(hand)s = %(points)s"
        ),
        "eliminated": gettext("Out of the game after this round: %(players)s."),
        "ends_game": gettext("This round ends the game."),
        "over_150": [
            ngettext(
                "This round ends the game: %(over)s is over 150.",
                "This round ends the game: %(over)s are over 150.",
                count,
            )
            for count in (1, 2)
        ],
        "over_limit": [
            ngettext(
                "This round ends the game: %(over)s is above %(limit)s.",
                "This round ends the game: %(over)s are above %(limit)s.",
                count,
            )
            for count in (1, 2)
        ],
        "dealt_out": [
            ngettext(
                "This round ends the game: every player has dealt once.",
                "This round ends the game: every player has dealt %(counter)s times.",
                count,
            )
            for count in (1, 2)
        ],
        "winners": [
            ngettext("Winner: %(winners)s.", "Winners: %(winners)s.", count) for count in (1, 2)
        ],
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
        "waiting": [
            ngettext("%(count)s change waiting.", "%(count)s changes waiting.", count)
            for count in (1, 2)
        ],
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
        "already": gettext(
            "Your round %(from)s was already stored as round %(number)s (from another phone): "
            "not stored again."
        ),
        "already_there": gettext("(already stored as round %(number)s)"),
        "first": gettext("Mine came first: my rounds, then the rounds stored meanwhile"),
        "first_hint": gettext(
            "None of your waiting rounds is among the rounds stored since: if yours were "
            "played first, the other phone numbered its rounds too early."
        ),
        "first_reason": gettext(
            "played before the rounds stored meanwhile by another phone, which follow it"
        ),
        "stored_moved": gettext("The stored round %(from)s is now round %(to)s."),
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
        "errors": error_templates(ruleset),
        "warnings": {code: gettext(message) for code, message in WARNING_MESSAGES.items()},
        "marks": {mark.value: mark_letter(mark) for mark in Mark},
    }
