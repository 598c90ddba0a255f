"""A small reader of gettext catalogues (.po), enough for the catalogue tests.

Python's standard library compiles .mo files (Tools/i18n/msgfmt.py) but reads no .po
files; the tests need only the entries: context, message, plural and translations, flags.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def translations(self) -> list[str]:
        return [self.msgstr[index] for index in sorted(self.msgstr)]


def _string(text: str) -> str:
    """A quoted PO string ("a\\"b") as its value; PO escapes are C's, a subset of Python's."""
    return ast.literal_eval(text.strip())


def parse(text: str) -> list[Entry]:
    """The entries of a .po file's text, in order (the header first, as msgid "")."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] | None = None  # the keyword a continuation line adds to

    def start() -> Entry:
        nonlocal entry
        if entry is None:
            entry = Entry()
        return entry

    def finish() -> None:
        nonlocal entry, target
        if entry is not None:
            entries.append(entry)
        entry, target = None, None

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            start().obsolete = True
            continue
        if line.startswith("#,"):
            start().flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue
        if line.startswith("#:"):
            start().references.extend(line[2:].split())
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            if target is None or entry is None:
                raise ValueError(f"a string outside an entry: {raw!r}")
            keyword, index = target
            value = _string(line)
            if keyword == "msgstr":
                entry.msgstr[index] += value
            else:
                setattr(entry, keyword, (getattr(entry, keyword) or "") + value)
            continue
        keyword, _, rest = line.partition(" ")
        current = start()
        if keyword == "msgid" and (current.msgid or current.msgstr):
            # A new entry without a blank line before it.
            finish()
            current = start()
        if keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            current.msgstr[index] = _string(rest)
            target = ("msgstr", index)
        elif keyword in ("msgid", "msgctxt", "msgid_plural"):
            setattr(current, keyword, _string(rest))
            target = (keyword, 0)
        else:
            raise ValueError(f"unknown line in a .po file: {raw!r}")
    finish()
    return entries


def read(path: Path) -> list[Entry]:
    return parse(path.read_text(encoding="utf-8"))
