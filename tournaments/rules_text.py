"""A rule set in words, in the reader's language: the rules page and the PDFs' rules box.

Each line is a short sentence with the rule set's own numbers, the key words in <b> (which
both HTML and reportlab's paragraphs understand). The rules page lists `rule_lines` and
`interpretation_lines`; a score sheet prints `rule_lines` and `marks_line` in its box.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from scoring.rules import Assaf, AssafReset, AssafZero, FaceValues, FalseYaniv, Ruleset, WinStreak
from scoring.sheet import legend
from tournaments import texts


def rule_lines(ruleset: Ruleset) -> list[SafeString]:
    """What matters at the table, with the rule set's numbers."""
    lines = [
        gettext(
            "<b>Yaniv</b> with a hand of <b>%(limit)s or less</b>: the caller scores 0, "
            "everyone else their hand."
        )
        % {"limit": ruleset.yaniv_limit},
    ]
    if ruleset.automatic_assaf:
        lines.append(_assaf_line(ruleset))
        if ruleset.assaf_zero is AssafZero.LOWEST:
            lines.append(gettext("In an Assaf, the lowest hand scores 0."))
        elif ruleset.assaf_zero is AssafZero.AT_OR_BELOW_CALLER:
            lines.append(
                gettext("In an Assaf, every hand as low as the caller's or lower scores 0.")
            )
    else:
        lines.append(
            gettext(
                "<b>Along</b>: the same or fewer points than the caller: 0, and the caller "
                "+%(penalty)s; more points: <b>%(penalty)s</b>."
            )
            % {"penalty": ruleset.along_penalty}
        )
    if ruleset.yaniv_limit_warns:
        lines.append(
            gettext(
                "A call above %(limit)s is scored as any other call; the referee's sheet "
                "warns of it."
            )
            % {"limit": ruleset.yaniv_limit}
        )
    elif ruleset.scores_false_yaniv:
        others = (
            gettext("everyone else scores 0")
            if ruleset.false_yaniv is FalseYaniv.OTHERS_SCORE_ZERO
            else gettext("everyone else scores their hand")
        )
        lines.append(
            gettext(
                "<b>False Yaniv</b> (above %(limit)s): the caller scores <b>%(penalty)s + the "
                "left neighbour's hand</b> (the next seat clockwise); %(others)s."
            )
            % {
                "limit": ruleset.yaniv_limit,
                "penalty": ruleset.false_yaniv_penalty,
                "others": others,
            }
        )
    else:
        lines.append(gettext("<b>No Yaniv above %(limit)s.</b>") % {"limit": ruleset.yaniv_limit})
    lines.append(gettext("<b>Emptied hand</b>: that player 0, everyone else their hand."))
    lines.append(_reduction_line(ruleset))
    if ruleset.eliminates:
        lines.append(
            gettext(
                "<b>Out</b> after the round in which a player is <b>above %(end)s</b>; "
                "the last player left wins."
            )
            % {"end": ruleset.end_above}
        )
    else:
        lines.append(
            gettext(
                "<b>Game over</b> after the round in which anyone is <b>above %(end)s</b>; "
                "the lowest total wins."
            )
            % {"end": ruleset.end_above}
        )
    if ruleset.deals_per_player:
        lines.append(
            ngettext(
                "<b>Game over</b> also when <b>every player has dealt once</b>, whichever "
                "comes first; ranked as at any end.",
                "<b>Game over</b> also when <b>every player has dealt %(deals)s times</b>, "
                "whichever comes first; ranked as at any end.",
                ruleset.deals_per_player,
            )
            % {"deals": ruleset.deals_per_player}
        )
    lines.append(
        gettext("1 deck for 2–%(players)s players, 2 decks for more.")
        % {"players": ruleset.one_deck_up_to}
    )
    lines += _house_rule_lines(ruleset)
    # The texts are ours (translated) and the numbers the rule set's: nothing typed by a user.
    return [mark_safe(line) for line in lines]  # noqa: S308


def _assaf_line(ruleset: Ruleset) -> str:
    """What a caller caught by an Assaf scores, by the `assaf` option."""
    numbers = {"penalty": ruleset.assaf_penalty, "extra": ruleset.assaf_extra_penalty}
    if ruleset.assaf is Assaf.FLAT:
        text = gettext(
            "<b>Assaf</b>: another hand with the same or fewer points than the caller's: "
            "the caller scores <b>%(penalty)s</b>, everyone else their hand."
        )
    elif ruleset.assaf is Assaf.PER_CHALLENGER and numbers["extra"] != numbers["penalty"]:
        text = gettext(
            "<b>Assaf</b>: other hands with the same or fewer points than the caller's: the "
            "caller scores their hand <b>+%(penalty)s</b> for the first such hand and "
            "<b>+%(extra)s</b> for each other one, everyone else their hand."
        )
    elif ruleset.assaf is Assaf.PER_CHALLENGER:
        text = gettext(
            "<b>Assaf</b>: other hands with the same or fewer points than the caller's: the "
            "caller scores their hand <b>+%(penalty)s for each such hand</b>, everyone else "
            "their hand."
        )
    elif ruleset.assaf is Assaf.OTHERS_CARDS:
        text = gettext(
            "<b>Assaf</b>: another hand with the same or fewer points than the caller's: the "
            "caller scores <b>all the other hands added up</b>, everyone else their hand."
        )
    else:
        text = gettext(
            "<b>Assaf</b>: another hand with the same or fewer points than the caller's: "
            "the caller scores their hand <b>+%(penalty)s</b>, everyone else their hand."
        )
    return text % numbers


def _house_rule_lines(ruleset: Ruleset) -> list[str]:
    """The cards, jokers and streak rules, where they differ from the standard."""
    lines = []
    if ruleset.cards_dealt != 5 or ruleset.face_values is not FaceValues.TEN:
        lines.append(
            gettext("<b>%(cards)s cards</b> dealt: a hand is at most <b>%(most)s</b>.")
            % {"cards": ruleset.cards_dealt, "most": ruleset.max_hand}
        )
    if ruleset.face_values is FaceValues.ELEVEN_TWELVE_THIRTEEN:
        lines.append(gettext("Jack, queen and king count <b>11, 12 and 13</b>."))
    if ruleset.joker_held:
        lines.append(
            gettext(
                "A <b>joker</b> still held when the round ends: <b>+%(points)s</b> for every "
                "player but the caller."
            )
            % {"points": ruleset.joker_held}
        )
    if ruleset.joker_value:
        lines.append(
            gettext("A <b>joker</b> held counts <b>%(value)s</b> in its holder's hand.")
            % {"value": ruleset.joker_value}
        )
    for rule in ruleset.streak_bonus:
        if isinstance(rule, WinStreak):
            lines.append(
                ngettext(
                    "<b>%(wins)s round won</b> (a Yaniv nobody caught, or an emptied hand): "
                    "<b>%(points)s</b>, after the round's reductions.",
                    "<b>%(wins)s rounds won in a row</b> (a Yaniv nobody caught, or an emptied "
                    "hand): <b>%(points)s</b>, after the round's reductions.",
                    rule.wins,
                )
                % {"wins": rule.wins, "points": f"{rule.points:+d}"}
            )
        elif isinstance(rule, AssafReset):
            lines.append(
                ngettext(
                    "After <b>%(assafs)s Assaf</b> (catching a caller), a player's total goes "
                    "back to <b>0</b>, once a game.",
                    "After <b>%(assafs)s Assafs</b> (catching a caller), a player's total goes "
                    "back to <b>0</b>, once a game.",
                    rule.assafs,
                )
                % {"assafs": rule.assafs}
            )
    return lines


def _reduction_line(ruleset: Ruleset) -> str:
    totals = ruleset.reduction_totals
    if ruleset.reduce_multiples is not None and len(totals) > 8:
        # A long list says less than the rule that makes it.
        every, minus = ruleset.reduce_multiples
        return gettext(
            "<b>Exactly a multiple of %(every)s</b> after a round with points: "
            "<b>−%(minus)s</b>, once a round."
        ) % {"every": every, "minus": minus}
    if totals and ruleset.reduction is not None:
        example_from = totals[len(totals) // 2]
        return gettext(
            "<b>Exactly %(totals)s</b> after a round with points: <b>−%(reduction)s</b>, "
            "once a round (write %(before)s → %(after)s)."
        ) % {
            "totals": or_list([str(total) for total in totals]),
            "reduction": ruleset.reduction,
            "before": example_from,
            "after": example_from - ruleset.reduction,
        }
    if totals:
        steps = or_list([f"{total} → {becomes}" for total, becomes in ruleset.reduction_steps])
        return gettext(
            "<b>Exactly</b> after a round with points, once a round: <b>%(steps)s</b>."
        ) % {"steps": steps}
    return gettext("No total is reduced.")


def or_list(items: list[str]) -> str:
    """Alternatives as the language lists them: "50, 100 or 150", "50, 100 of 150"."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(items)s or %(last)s") % {
        "items": ", ".join(items[:-1]),
        "last": items[-1],
    }


def marks_line(ruleset: Ruleset) -> SafeString:
    """The marks a sheet under this rule set shows: "Marks: Y caller · A along · …"."""
    marks = format_html_join(
        " · ",
        "<b>{}</b> {}",
        ((texts.mark_letter(mark), texts.mark_meaning(mark)) for mark in legend(ruleset)),
    )
    reduction = mark_safe(gettext("“100 → 50” a reduction"))  # noqa: S308 - our own text
    return mark_safe(
        gettext("Marks: %(marks)s · %(reduction)s.") % {"marks": marks, "reduction": reduction}
    )  # noqa: S308


def interpretation_lines(ruleset: Ruleset) -> list[str]:
    """Where the official text is silent: the readings the site applies under this rule set."""
    lines = []
    if ruleset.scores_false_yaniv:
        if ruleset.false_yaniv is FalseYaniv.OTHERS_SCORE_ZERO:
            lines.append(
                gettext(
                    "False Yaniv: only the caller is penalised; every other player scores 0 for "
                    "that round and declarations of going along are void."
                )
            )
        else:
            lines.append(
                gettext(
                    "False Yaniv: every other player adds their hand total, as if the round "
                    "had ended normally."
                )
            )
    if ruleset.automatic_assaf and ruleset.assaf in (Assaf.HAND_PLUS, Assaf.FLAT):
        lines.append(
            gettext(
                "An Assaf costs the caller %(assaf)s once, however many players hold as few "
                "points."
            )
            % {"assaf": ruleset.assaf_penalty}
        )
    if any(isinstance(rule, WinStreak) and rule.points < 0 for rule in ruleset.streak_bonus):
        lines.append(gettext("A streak bonus takes a total down to 0 at most, never below."))
    if ruleset.eliminates:
        lines.append(
            gettext(
                "If every player still in goes above %(end)s in the same round, the lowest "
                "total stays in; players tied for it all stay in and play on."
            )
            % {"end": ruleset.end_above}
        )
    totals = ruleset.reduction_totals
    if totals and ruleset.reduction_needs_points:
        lines.append(
            gettext(
                "Only arriving on %(total)s is reduced: a player who stays there with 0 "
                "points is not reduced again."
            )
            % {"total": totals[0]}
        )
    elif totals:
        lines.append(
            gettext(
                "A player who stays on %(total)s after a round without points is reduced "
                "again, once a round."
            )
            % {"total": totals[0]}
        )
    # The example of one reduction a round (100 → 50, not on to 0) needs both totals.
    if 50 in totals and 100 in totals:
        lines.append(
            gettext("At most one reduction per player per round: 100 → 50 does not go on to 0.")
        )
    lines.append(
        gettext(
            "Equal totals share a rank (1, 1, 3); placement points for shared ranks are split "
            "equally."
        )
    )
    return lines


def rules_context(ruleset: Ruleset) -> dict[str, Any]:
    """The rules page's context for a rule set."""
    return {
        "ruleset": ruleset,
        "ruleset_name": texts.ruleset_name(ruleset.name),
        "rule_lines": rule_lines(ruleset),
        "marks_line": marks_line(ruleset),
        "interpretation_lines": interpretation_lines(ruleset),
    }
