"""The archive file's shape (`printing.archive_file`): a file of the wrong shape is refused
before anything is read into the site, naming the place and saying why in the import's words."""

from __future__ import annotations

import copy
from datetime import UTC, date, datetime
from typing import Any

import pytest

from printing import archive_file

SMALLEST: dict[str, Any] = {
    "format": "yaniv-club-tournament",
    "version": 1,
    "tournament": {
        "slug": "small",
        "name": "Small",
        "starts_on": "2026-03-14",
        "venue": "",
        "status": "finished",
        "is_public": True,
        "table_size": 4,
        "session_count": 1,
    },
    "sessions": [
        {
            "number": 1,
            "status": "finished",
            "seating": "random",
            "repeat_meetings": 0,
            "tables": [
                {
                    "number": 1,
                    "seats": [{"position": 1, "player": 1}],
                    "game": {
                        "record": {},
                        "ended_at_time_limit": False,
                        "finished": False,
                        "version": 0,
                        "rounds_entered": [{"at": "2026-03-14T10:00:00+01:00"}],
                    },
                }
            ],
        }
    ],
}


def edited(change) -> dict[str, Any]:
    data = copy.deepcopy(SMALLEST)
    change(data)
    return data


def test_a_file_of_the_right_shape_reads_with_the_defaults_of_older_files():
    archive = archive_file.read(SMALLEST)
    assert archive.tournament.starts_on == date(2026, 3, 14)
    assert archive.tournament.preset == "belgian" and archive.tournament.final_players == 0
    session = archive.sessions[0]
    assert session.stage == "qualifying" and session.time_limit is None
    entered = session.tables[0].game.rounds_entered[0].at
    assert entered == datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
    assert archive.clubs == [] and archive.players == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["sessions"][0]["tables"][0]["seats"][0].update(position=9),
            "sessions[1], tables[1], seats[1]: position must be an integer 1-8",
        ),
        (
            lambda d: d["sessions"][0]["tables"][0]["seats"][0].update(position=True),
            "sessions[1], tables[1], seats[1]: position must be an integer 1-8",
        ),
        (
            lambda d: d["tournament"].update(starts_on="14/03/2026"),
            "tournament: starts_on must be a date (YYYY-MM-DD)",
        ),
        (
            lambda d: d["tournament"].pop("venue"),
            "tournament: venue is missing",
        ),
        (
            lambda d: d["tournament"].update(is_public="yes"),
            "tournament: is_public must be true or false",
        ),
        (
            lambda d: d["tournament"].update(preset="dutch"),
            "tournament: preset must be one of belgian",
        ),
        (
            lambda d: d["tournament"].update(slug=""),
            "tournament: slug must be a non-empty text of at most 80 characters",
        ),
        (
            lambda d: d["sessions"][0]["tables"][0]["game"]["rounds_entered"][0].update(
                at="2026-03-14T10:00:00"
            ),
            "sessions[1], tables[1], game, rounds_entered[1]: at must be a date and time "
            "with its UTC offset (ISO 8601)",
        ),
        (
            lambda d: d.update(players={"id": 1}),
            "file: players must be a list",
        ),
        (
            lambda d: d["sessions"].append("session 2"),
            "sessions[2]: must be a JSON object",
        ),
        (
            lambda d: d["sessions"][0]["tables"][0].pop("game"),
            "sessions[1], tables[1]: game is missing",
        ),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_naming_the_place_and_why(change, message):
    with pytest.raises(archive_file.Refused) as refused:
        archive_file.read(edited(change))
    assert str(refused.value).startswith(message)
