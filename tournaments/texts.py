"""Texts of the pure modules, translated where the site shows them.

The rules engine (`scoring.rules`), the seating draw (`tournaments.seating`) and the standings
(`tournaments.standings`) are pure Python without Django, and speak English. Their messages
reach referees and directors through the site, which translates them here, at the boundary:

- a known message is matched whole against its English pattern (a `gettext_noop` string whose
  `%(name)s` placeholders match any text), and its translation gets the matched values;
- a message not known here is shown as it is, in English (a new engine message still reads).

The English patterns are the engine's texts exactly, so an English page shows what it always
showed. `tests/test_i18n.py` checks that the patterns still match what the engine says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import gettext, gettext_lazy, gettext_noop

from tournaments import standings

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _compile(template: str) -> re.Pattern[str]:
    """The English pattern as a regular expression: each placeholder matches any text."""
    parts = _PLACEHOLDER.split(template)
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
        for index, part in enumerate(parts)
    )
    return re.compile(regex, re.DOTALL)


class Catalogue:
    """English message patterns, each matched whole and translated with its values."""

    def __init__(self, templates: Iterable[str]) -> None:
        self.patterns = [(_compile(template), template) for template in templates]

    def translate(self, message: str) -> str:
        for pattern, template in self.patterns:
            match = pattern.fullmatch(message)
            if match:
                return gettext(template) % match.groupdict()
        return message


# What the rules engine (scoring.rules) and the game records (scoring.models) say about a
# round or a game that the referee can act on.
GAME_ERRORS = Catalogue(
    [
        gettext_noop("hands must name every player still in the game exactly once"),
        gettext_noop("hands must name every player exactly once"),
        gettext_noop("hand of %(player)s must be an integer 0-%(max)s"),
        gettext_noop("exactly one of yaniv / empty_hand"),
        gettext_noop("nobody goes along under the %(ruleset)s rules"),
        gettext_noop("empty_hand must name a player in the game"),
        gettext_noop("an emptied hand is 0"),
        gettext_noop("nobody can go along when a hand was emptied"),
        gettext_noop("yaniv must name a player in the game"),
        gettext_noop("the caller cannot go along"),
        gettext_noop("along must list players in the game once"),
        gettext_noop("Yaniv needs a hand of %(limit)s or less"),
        gettext_noop("the game is already over"),
        gettext_noop("rounds are numbered from 1"),
        gettext_noop("rounds are recorded in order"),
        gettext_noop(
            "this correction ends the game at round %(round)s, but rounds up to %(last)s "
            "were played after it"
        ),
        gettext_noop(
            "this correction changes who is out of the game before round %(round)s: "
            "undo the rounds after it first"
        ),
        gettext_noop("there is no round to undo"),
        gettext_noop("there is no round %(number)s"),
        gettext_noop("only a finished game can be signed off"),
        gettext_noop("the game is already signed off"),
        gettext_noop("the game already has rounds"),
    ]
)

# What the seating draw (tournaments.seating) says about a director's manual adjustment.
SEATING_ERRORS = Catalogue(
    [
        gettext_noop("player %(player)s is not seated in this draw"),
        gettext_noop("the target table size must be %(low)s–%(high)s, got %(target)s"),
        gettext_noop("a session needs at least %(low)s players to seat, got %(count)s"),
        gettext_noop("swapping needs two different players, got %(player)s twice"),
        gettext_noop("there is no table %(table)s; this draw has %(count)s tables"),
        gettext_noop("player %(player)s already sits at table %(table)s"),
        gettext_noop(
            "moving %(player)s would leave table %(table)s with fewer than %(low)s players"
        ),
        gettext_noop("table %(table)s already has %(high)s players, the most a table seats"),
        gettext_noop("player %(player)s is listed twice"),
    ]
)

# The engine's rule sets by name, as a page title names them.
RULESET_NAMES = {"belgian": gettext_lazy("Belgian")}


def sentence(text: str) -> str:
    """A message as a sentence: "the game is already over" → "The game is already over."."""
    return text[:1].upper() + text[1:] + "."


def game_error(message: str) -> str:
    """An engine or game-record message in the active language, as a sentence."""
    return sentence(GAME_ERRORS.translate(message))


def seating_error(message: str) -> str:
    return sentence(SEATING_ERRORS.translate(message))


def ruleset_name(name: str) -> str:
    return str(RULESET_NAMES.get(name, name[:1].upper() + name[1:]))


def scheme() -> str:
    """How the standings are made (standings.SCHEME), in the active language."""
    return gettext(standings.SCHEME)


def tie_breaks() -> list[str]:
    return [gettext(rule) for rule in standings.TIE_BREAKS]


def tie_break_order() -> str:
    """The tie-breaks as one list: "placement points, high first; then games won, …"."""
    return gettext("; then ").join(tie_breaks())
