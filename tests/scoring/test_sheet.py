"""The one read model of a game's sheet (scoring.sheet), one behaviour per test (no database)."""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.sheet import (
    Mark,
    Scores,
    legend,
    render_sheet,
    round_preview,
    score_sheet,
    sheet_from_scores,
)
from tests.scoring.vectors import PRESET_VECTORS_DIR, VECTORS_DIR, load

PLAYERS = ("Ann", "Bart", "Chris")


def scored(ruleset: rules.Ruleset, *rounds: rules.Round):
    game = rules.Game(PLAYERS, rounds, ruleset)
    return game, score_sheet(game, rules.score_game(game))


@pytest.mark.parametrize(
    ("preset", "marks"),
    [
        ("belgian", [Mark.CALLER, Mark.ALONG, Mark.FALSE, Mark.EMPTY]),
        ("israeli", [Mark.CALLER, Mark.ASSAF, Mark.LOWEST, Mark.EMPTY, Mark.OUT]),
        ("wikipedia_en", [Mark.CALLER, Mark.ASSAF, Mark.LOWEST, Mark.EMPTY]),
        ("wikipedia_fr", [Mark.CALLER, Mark.ASSAF, Mark.LOWEST, Mark.EMPTY]),
    ],
)
def test_the_legend_lists_exactly_the_marks_a_preset_can_show(preset, marks):
    assert list(legend(rules.RULESETS[preset])) == marks


def test_a_belgian_round_marks_the_caller_the_along_players_and_a_false_yaniv():
    _, sheet = scored(
        rules.BELGIAN,
        rules.Round({"Ann": 3, "Bart": 2, "Chris": 9}, yaniv="Ann", along=("Bart",)),
        rules.Round({"Ann": 9, "Bart": 4, "Chris": 1}, yaniv="Ann"),
    )
    first, second = sheet.rows
    assert [cell.mark for cell in first.cells] == [Mark.CALLER, Mark.ALONG, None]
    assert [cell.points for cell in first.cells] == [32, 0, 9]
    assert [cell.mark for cell in second.cells] == [Mark.FALSE, None, None]
    # The false Yaniv costs 32 + the left neighbour's (Bart's) 4.
    assert second.neighbour == "Bart" and second.cells[0].points == 36


def test_an_assaf_marks_the_caller_and_every_lowest_hand():
    _, sheet = scored(
        rules.WIKIPEDIA_EN, rules.Round({"Ann": 6, "Bart": 2, "Chris": 2}, yaniv="Ann")
    )
    (row,) = sheet.rows
    assert row.kind is rules.RoundKind.ASSAF
    assert [cell.mark for cell in row.cells] == [Mark.ASSAF, Mark.LOWEST, Mark.LOWEST]
    assert [cell.points for cell in row.cells] == [36, 0, 0]


def test_a_reduction_shows_the_total_arrived_at_and_the_total_kept():
    _, sheet = scored(
        rules.BELGIAN,
        rules.Round({"Ann": 0, "Bart": 50, "Chris": 10}, yaniv="Ann"),
    )
    bart = sheet.rows[0].cells[1]
    assert (bart.points, bart.reduction, bart.arrived, bart.total) == (50, 50, 50, 0)


def test_an_eliminated_player_goes_out_once_and_has_no_hand_after():
    vector = load(PRESET_VECTORS_DIR / "israeli" / "random_0.json")
    game = rules.Game(
        tuple(vector["game"]["players"]),
        tuple(rules.Round(**entry) for entry in vector["game"]["rounds"]),
        rules.ISRAELI,
    )
    sheet = score_sheet(game, rules.score_game(game))
    went_out = {
        player: [row.number for row in sheet.rows if row.cells[index].went_out]
        for index, player in enumerate(sheet.players)
    }
    assert {player: rounds for player, rounds in went_out.items() if rounds} == {
        player: [number] for player, number in sheet.out_in_round.items()
    }
    for player, number in sheet.out_in_round.items():
        later = [row.cells[sheet.players.index(player)] for row in sheet.rows[number:]]
        assert all(cell.out and cell.mark is None for cell in later)
    assert sheet.winners == tuple(vector["expected"]["winners"])


@pytest.mark.parametrize(
    "path",
    [
        *sorted((VECTORS_DIR / "belgian").glob("*.json")),
        *sorted((PRESET_VECTORS_DIR / "israeli").glob("*.json")),
        *sorted((PRESET_VECTORS_DIR / "wikipedia_en").glob("*.json")),
    ],
    ids=lambda path: f"{path.parent.name}/{path.stem}",
)
def test_the_sheet_from_stored_numbers_equals_the_sheet_from_the_engine(path):
    """What the site builds from its cached numbers is what the engine's result gives."""
    record = load(path)["game"]
    ruleset = rules.RULESETS[record.get("ruleset", "belgian")].with_options(
        record.get("options", {})
    )
    game = rules.Game(
        tuple(record["players"]),
        tuple(rules.Round(**entry) for entry in record["rounds"]),
        ruleset,
    )
    result = rules.score_game(game)
    stored = [
        (entries, Scores(round_.kind, round_.points, round_.reductions, round_.totals))
        for entries, round_ in zip(game.rounds, result.rounds, strict=True)
    ]
    from_cache = sheet_from_scores(game.players, ruleset, stored, finished=result.finished)
    assert from_cache == score_sheet(game, result)
    assert dict(from_cache.ranks) == {p.player: p.rank for p in result.ranking}
    assert from_cache.winners == result.winners


def test_the_preview_of_a_false_yaniv_names_the_penalty_and_the_neighbour():
    game = rules.Game(PLAYERS)
    preview = round_preview(game, rules.Round({"Ann": 7, "Bart": 5, "Chris": 0}, yaniv="Ann"))
    assert preview.kind is rules.RoundKind.FALSE_YANIV
    assert preview.false_yaniv is not None
    assert (preview.false_yaniv.penalty, preview.false_yaniv.neighbour) == (32, "Bart")
    assert preview.false_yaniv.points == 37
    assert [(line.player, line.total) for line in preview.lines] == [
        ("Ann", 37),
        ("Bart", 0),
        ("Chris", 0),
    ]


def test_the_terminal_legend_follows_the_ruleset():
    _, belgian = scored(rules.BELGIAN, rules.Round({"Ann": 1, "Bart": 2, "Chris": 3}, yaniv="Ann"))
    _, israeli = scored(rules.ISRAELI, rules.Round({"Ann": 1, "Bart": 2, "Chris": 3}, yaniv="Ann"))
    assert render_sheet(belgian).splitlines()[-1] == (
        "Y caller, A along, F false Yaniv, E emptied hand; 'a → b' is a reduction."
    )
    last = render_sheet(israeli).splitlines()[-1]
    assert "A along" not in last and "F false Yaniv" not in last
    assert "S Assaf on the caller, L lowest hand (the Assaf)" in last
    assert "'out' went out" in last
