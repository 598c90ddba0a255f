"""The round preview, every field of it (issue 36, mutation testing): what a referee is shown
before saving a false Yaniv, a round that reduces two totals, a round that ends the game with a
total on the limit and one above it, and a round that puts a player out."""

from __future__ import annotations

from scoring.rules import BELGIAN, Game, Round, RoundKind
from scoring.sheet import FalseYanivNote, PreviewLine, RoundPreview, round_preview

SEATS = ("Ann", "Bart", "Chris")
FIRST = Round({"Ann": 0, "Bart": 20, "Chris": 45}, yaniv="Ann")
# No reductions and a low limit: the totals land where a test puts them.
PLAIN = BELGIAN.with_options({"reductions": [], "end_above": 30})


def test_a_false_yaniv_preview_names_the_caller_the_neighbour_and_the_penalty():
    # Ann calls with 9 above the limit of 5: 32 and Bart's 30 (the neighbour on her left).
    preview = round_preview(
        Game(SEATS, (FIRST,)), Round({"Ann": 9, "Bart": 30, "Chris": 5}, "Ann")
    )
    assert preview == RoundPreview(
        number=2,
        kind=RoundKind.FALSE_YANIV,
        lines=(
            PreviewLine("Ann", points=62, reduction=0, total=62),
            PreviewLine("Bart", points=0, reduction=0, total=20),
            PreviewLine("Chris", points=0, reduction=0, total=45),
        ),
        false_yaniv=FalseYanivNote("Ann", "Bart", neighbour_hand=30, penalty=32, points=62),
        ends_game=False,
        eliminated=(),
        over=(),
        winners=(),
        ruleset=BELGIAN,
        warnings=(),
    )


def test_a_preview_of_totals_landing_on_50_shows_them_arrived_and_reduced():
    preview = round_preview(
        Game(SEATS, (FIRST,)), Round({"Ann": 3, "Bart": 30, "Chris": 5}, "Ann")
    )
    assert preview.false_yaniv is None
    assert preview.lines == (
        PreviewLine("Ann", points=0, reduction=0, total=0),
        PreviewLine("Bart", points=30, reduction=50, total=0),
        PreviewLine("Chris", points=5, reduction=50, total=0),
    )
    assert [line.arrived for line in preview.lines] == [0, 50, 50]


def test_a_preview_of_the_last_round_names_who_is_over_the_limit_and_who_won():
    game = Game(SEATS, (), PLAIN)
    preview = round_preview(game, Round({"Ann": 2, "Bart": 30, "Chris": 31}, yaniv="Ann"))
    assert preview.ends_game is True
    # Bart's 30 is on the limit, not over it.
    assert preview.over == ("Chris",)
    assert preview.winners == ("Ann",)
    assert preview.ruleset is PLAIN


def test_a_preview_under_elimination_names_who_goes_out_and_leaves_out_who_is_out():
    ruleset = PLAIN.with_options({"end": "elimination"})
    out = Round({"Ann": 0, "Bart": 10, "Chris": 31}, yaniv="Ann")
    preview = round_preview(Game(SEATS, (), ruleset), out)
    assert preview.eliminated == ("Chris",)
    assert preview.ends_game is False
    following = round_preview(
        Game(SEATS, (out,), ruleset), Round({"Ann": 1, "Bart": 4}, yaniv="Ann")
    )
    assert [line.player for line in following.lines] == ["Ann", "Bart"]
    assert following.eliminated == ()
