from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.records import game_from_record, read_json, result_to_record
from scoring.rules import RULESETS, GameError, score_game
from scoring.sheet import render_sheet, score_sheet


class Command(BaseCommand):
    help = (
        "Score a game record (the JSON format of docs/game-record.md) and print the result. "
        f"The record's ruleset is one of {', '.join(RULESETS)} (default belgian)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            help="a game record, or a test vector holding one; '-' reads stdin",
        )
        parser.add_argument(
            "--format",
            choices=["json", "table"],
            default="json",
            help=(
                "json: the scored result as RULES.md gives it (each round's eliminated "
                "players too under elimination); table: a score sheet"
            ),
        )

    def handle(self, *args: object, path: str, format: str, **options: object) -> None:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error
        try:
            # Within limits: JSON nested 2,000 deep or a number of 5,000 digits is an error,
            # e.g. "json: JSON nested more than 64 levels deep", not a crash.
            record = read_json(text)
        except GameError as error:
            raise CommandError(str(error)) from error
        # A test vector wraps the record: {"game": ..., "expected": ...}.
        if isinstance(record, dict) and "game" in record and "players" not in record:
            record = record["game"]
        try:
            game = game_from_record(record)
            result = score_game(game)
        except GameError as error:
            raise CommandError(str(error)) from error
        if format == "table":
            self.stdout.write(render_sheet(score_sheet(game, result)), ending="")
        else:
            self.stdout.write(json.dumps(result_to_record(result), indent=1, ensure_ascii=False))
