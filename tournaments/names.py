"""When two players' names may be one person's: the same letters but for accents and case,
the first and last name swapped, or one letter apart (a typo: a letter missing, extra,
wrong or two swapped). Pure Python (unicodedata), for the registration's warning and the
merge page's possible duplicates.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Hashable, Iterable

# Below this many letters (folded), one letter apart is too often two people (Jan, Jon).
NEAR_MIN_LENGTH = 10


class Likeness(enum.IntEnum):
    """How alike two names are, closest first."""

    SAME = 1  # equal but for accents, case, spaces and punctuation
    SWAPPED = 2  # the same words in another order ("Declercq Hélène")
    NEAR = 3  # one letter apart


def fold(name: str) -> str:
    """The name without accents, case or punctuation: "Hélène  De-Clercq" → "helene de clercq"."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    return " ".join("".join(char if char.isalnum() else " " for char in text).split())


def one_edit_apart(first: str, second: str) -> bool:
    """One letter inserted, deleted, replaced, or two neighbours swapped (and not equal)."""
    if first == second or abs(len(first) - len(second)) > 1:
        return False
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    if len(first) == len(second):
        if first[start + 1 :] == second[start + 1 :]:
            return True  # replaced
        swapped = first[start : start + 2] == second[start : start + 2][::-1]
        return swapped and first[start + 2 :] == second[start + 2 :]
    longer, shorter = (first, second) if len(first) > len(second) else (second, first)
    return longer[start + 1 :] == shorter[start:]


def likeness(first: str, second: str) -> Likeness | None:
    """How alike two folded names are, or None."""
    if first == second:
        return Likeness.SAME
    if sorted(first.split()) == sorted(second.split()):
        return Likeness.SWAPPED
    if min(len(first), len(second)) >= NEAR_MIN_LENGTH and one_edit_apart(first, second):
        return Likeness.NEAR
    return None


def _keys(folded: str) -> set[str]:
    """What a name is filed under: itself, its words in order, and itself less one letter
    (two names one letter apart share one of those)."""
    keys = {folded, " ".join(sorted(folded.split()))}
    if len(folded) >= NEAR_MIN_LENGTH - 1:
        keys.update(folded[:index] + folded[index + 1 :] for index in range(len(folded)))
    return keys


class NameIndex:
    """Names filed so that the alike ones are found without comparing every pair."""

    def __init__(self, names: Iterable[tuple[Hashable, str]] = ()) -> None:
        self._folded: dict[Hashable, str] = {}
        self._by_key: dict[str, list[Hashable]] = {}
        for key, name in names:
            self.add(key, name)

    def add(self, key: Hashable, name: str) -> None:
        folded = fold(name)
        self._folded[key] = folded
        for filed in _keys(folded):
            self._by_key.setdefault(filed, []).append(key)

    def alike(self, name: str) -> list[tuple[Hashable, Likeness]]:
        """The filed names like `name`, closest first."""
        folded = fold(name)
        candidates = {key for filed in _keys(folded) for key in self._by_key.get(filed, ())}
        found = [(key, likeness(folded, self._folded[key])) for key in candidates]
        return sorted(
            ((key, how) for key, how in found if how is not None),
            key=lambda pair: (pair[1], str(pair[0])),
        )
