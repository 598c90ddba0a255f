"""The public pages pass the Nu HTML checker (issue 33): `data-hx-*` attributes, not `hx-*`.

The checker is Java (the npm package vnu-jar ships its jar): set VNU_JAR to its path, or the
test is skipped, saying so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import make_table, make_tournament, make_user, record
from tests.tournaments.test_live_pages import NAMES, opened, public_pages, register

VNU_JAR = os.environ.get("VNU_JAR", "")

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.slow,
    # Skipped on a machine without the checker, never under CI (.ci/run installs it).
    pytest.mark.skipif(
        not os.environ.get("CI")
        and not (VNU_JAR and Path(VNU_JAR).exists() and shutil.which("java")),
        reason="the Nu HTML checker: set VNU_JAR to vnu.jar (npm vnu-jar) and install java",
    ),
]


def test_the_public_pages_pass_the_nu_html_checker(tmp_path):
    assert Path(VNU_JAR).is_file() and shutil.which("java"), "VNU_JAR and java are needed"
    director, referee = make_user("director"), make_user("referee")
    tournament = make_tournament(slug="day", directors=[director])
    for name in NAMES:
        register(tournament, name)
    table = make_table(tournament=tournament, referee=referee)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    record(
        table.game,
        referee,
        {"hands": dict(zip(names, [1, 9, 8, 7], strict=True)), "yaniv": names[0]},
    )
    seated = table.seats.first()
    assert seated is not None
    kwargs = {"slug": "day", "number": 1, "player_id": seated.player_id}
    files = []
    for name, url in public_pages(kwargs).items():
        html = opened(Client(), url)
        if html is not None:
            files.append(tmp_path / f"{name.replace(':', '-')}.html")
            files[-1].write_text(html, encoding="utf-8")
    assert len(files) >= 6
    checked = subprocess.run(
        ["java", "-jar", VNU_JAR, "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    errors = [
        f"{Path(m['url']).name}:{m.get('lastLine')}: {m['message']}"
        for m in json.loads(checked.stderr or checked.stdout)["messages"]
        if m["type"] == "error"
    ]
    assert errors == []
