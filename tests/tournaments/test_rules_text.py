"""A rule set in words (tournaments.rules_text): the rules page and the printed box say what the
engine does under every option."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import rules
from tournaments.rules_text import interpretation_lines, marks_line, or_list, rule_lines


def words(ruleset: rules.Ruleset) -> str:
    return " ".join([*rule_lines(ruleset), marks_line(ruleset), *interpretation_lines(ruleset)])


def test_a_flat_assaf_costs_the_caller_the_penalty_alone():
    text = words(rules.ISRAELI.with_options({"assaf": "flat", "assaf_penalty": 25}))
    assert "the caller scores <b>25</b>, everyone else their hand" in text
    assert "+25" not in text


def test_who_scores_zero_in_an_assaf_follows_the_option():
    below = words(rules.ISRAELI.with_options({"assaf_zero": "at_or_below_caller"}))
    assert "every hand as low as the caller's or lower scores 0" in below
    assert "the lowest hand scores 0" in words(rules.WIKIPEDIA_EN)
    assert "scores 0." not in words(rules.ISRAELI).split("Yaniv</b>")[-1].split("<b>Emptied")[0]


def test_a_limit_that_only_warns_is_not_a_false_yaniv():
    text = words(rules.BELGIAN.with_options({"yaniv_limit_warns": True}))
    assert "A call above 5 is scored as any other call" in text
    assert "False Yaniv" not in text and "No Yaniv above" not in text


def test_reducing_again_after_a_round_without_points_is_said():
    text = words(rules.BELGIAN.with_options({"reduction_needs_points": False}))
    assert "stays on 50 after a round without points is reduced again" in text
    assert "Only arriving on 50 is reduced" not in text
    assert "Only arriving on 50 is reduced: a player who stays there" in words(rules.BELGIAN)


@pytest.mark.parametrize("every", [10, 50])
def test_a_long_list_of_multiples_is_said_as_the_rule(every):
    ruleset = rules.WIKIPEDIA_EN.with_options({"reduce_multiples": [every, every]})
    text = words(ruleset)
    if len(ruleset.reduction_totals) > 8:
        assert f"Exactly a multiple of {every}</b>" in text
    else:
        assert "Exactly 50, 100, 150, 200" in text


@pytest.mark.parametrize(
    ("language", "belgian", "israeli"),
    [
        ("en", "Exactly 50, 100 or 150</b>", "<b>100 → 50 or 200 → 100</b>"),
        ("nl", "Precies 50, 100 of 150</b>", "<b>100 → 50 of 200 → 100</b>"),
        ("fr", "Exactement 50, 100 ou 150</b>", "<b>100 → 50 ou 200 → 100</b>"),
    ],
)
def test_the_reduction_totals_are_alternatives_joined_with_or(language, belgian, israeli):
    """Any one of the totals is reduced: "50, 100 or 150", never a bare list."""
    with translation.override(language):
        assert belgian in words(rules.BELGIAN)
        assert israeli in words(rules.ISRAELI)
        assert or_list(["50"]) == "50"
