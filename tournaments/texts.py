"""Texts of the pure modules, translated where the site shows them.

The rules engine, the game records, the seating draw and the standings (`scoring`) are pure
Python without Django and speak English. Their errors carry a code and parameters; the site
looks the code's message up (`scoring.errors`, marked for the catalogues) and shows its
translation filled with the parameters. No English sentence is matched.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from scoring import standings
from scoring.errors import GAME_MESSAGES, FinalError, GameError, GameWarning, SeatingError
from scoring.sheet import Mark

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
    return text[:1].upper() + text[1:] + "."


def translated(error: GameError | GameWarning | SeatingError | FinalError) -> str:
    """An engine, game-record or seating error (or a warning) in the active language, by its
    code; a rule set it names by its name in that language."""
    return gettext(error.template) % _named(error.params)


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


def error_sentence(error: Exception) -> str:
    """Any error a view shows, as a sentence in the reader's language: the engine's, the
    seating's and the finals' by their code; the models' (translated when raised) as they
    are."""
    if isinstance(error, GameError | SeatingError | FinalError):
        return sentence(translated(error))
    return sentence(str(error))


def warning(warning: GameWarning) -> str:
    """An engine's warning about a round, as a sentence in the active language."""
    return sentence(translated(warning))


def mark_letter(mark: Mark | str | None) -> str:
    """A sheet mark as its letter in the active language; "" for none."""
    if not mark:
        return ""
    return str(MARK_LETTERS[Mark(mark)])


def mark_meaning(mark: Mark | str) -> str:
    return str(MARK_MEANINGS[Mark(mark)])


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
