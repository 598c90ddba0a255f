"""What the site's state changes refuse: a code and its parameters, put in words at the edge.

A model method that will not change anything (the clock has started already, the account
belongs to another tournament) raises `Refused(code, **params)`. The code picks one message
of REFUSALS, the one table of them; the message is read in the reader's language when the
view answers (`sentence`), never when the model raises. The engine's errors
(`scoring.errors`, `scoring.seasons.SeasonError`) carry a code and parameters too:
`sentence` puts either kind in words, and `tournaments.views.refusals.answers_refusals`
turns either into the answer the request expects.

Not Django's `ValidationError`: that one says a form's or a field's input is wrong, and
Django catches it for forms and `full_clean`; a refusal is about the state of the
tournament, raised by the one method that changes it. A form shows one as a non-field
error with its code (`on_form`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring import errors as engine
from scoring.seasons import SeasonError
from tournaments import texts

if TYPE_CHECKING:
    from django import forms

# Every refusal's message by its code, with its parameters as %(name)s. The texts are those
# the models raised before the codes: the catalogues translate them already.
REFUSALS: Mapping[str, Promise] = MappingProxyType(
    {
        # The final.
        "no_final": _("this tournament has no final: set it up in its settings"),
        "qualifying_unfinished": _("finish every qualifying session before the final"),
        # The tournament's accounts.
        "username_taken": _("the username %(username)s is taken: choose another one"),
        "no_such_account": _(
            "no account is called %(username)s: check the spelling, or create it"
        ),
        "account_of_another_director": _(
            "the account %(username)s belongs to another director's tournament: "
            "create a new account"
        ),
        "no_account_to_add": _(
            "there is no account %(username)s that you may add: check the spelling, or "
            "create a new account"
        ),
        "directs_already": _("the account %(username)s already directs this tournament"),
        "referees_already": _("the account %(username)s already referees this tournament"),
        "account_deactivated": _(
            "the account %(username)s is deactivated: an administrator can reactivate it"
        ),
        "remove_yourself": _("you cannot remove yourself: ask another director"),
        "account_not_here": _("the account %(username)s does not belong to this tournament"),
        "last_director": _("a tournament keeps at least one director"),
        "creator_stays": _(
            "only an administrator can remove %(username)s: they created this tournament"
        ),
        "own_password": _("you cannot reset your own password here"),
        "password_of_shared_account": _(
            "the account %(username)s also belongs to another tournament or has "
            "rights of its own: an administrator resets its password"
        ),
        # Registrations: check-in, withdrawal, removal.
        "withdrawn_check_in": _("%(name)s has withdrawn: bring them back with Return first"),
        "withdraw_reason": _("say why the player withdraws"),
        "withdrawn_already": _("%(name)s has already withdrawn"),
        "not_withdrawn": _("%(name)s has not withdrawn"),
        "seated_stays": _(
            "%(name)s is seated in session %(number)s: a seated player stays registered."
        ),
        # A session's seating, start and way of entering rounds.
        "too_few_checked_in": _("check in at least 2 players before the draw"),
        "seating_after_start": _("the seating can only change before the session starts"),
        "seating_has_rounds": _("rounds were recorded at these tables: the seating stays"),
        "rebalance_needless": _("the seating needs no rebalancing any more"),
        "rebalance_changed": _(
            "the players present changed since the page showed the suggestion: check the new one"
        ),
        "started_already": _("this session has already started"),
        "draw_first": _("draw the seating before starting the session"),
        "no_table_codes": _("this session does not take table codes"),
        "table_elsewhere": _("this table is not of this session"),
        "entry_when_finished": _("a finished session keeps its way of entering rounds"),
        "finish_not_running": _("only a running session can be finished"),
        # The session clock.
        "time_limit_range": _("a time limit is %(low)s to %(high)s minutes"),
        "limit_after_start": _("the clock has started: add time with an extension instead"),
        "clock_before_session": _("start the session before its clock"),
        "limit_first": _("set a time limit before starting the clock"),
        "clock_started": _("the clock has already started"),
        "clock_not_started": _("the clock has not started"),
        "clock_paused": _("the clock is paused already"),
        "clock_not_paused": _("the clock is not paused"),
        "extension_range": _("an extension is %(low)s to %(high)s minutes"),
        "extend_before_start": _("start the clock before extending it"),
        "extended_too_long": _("a clock can be extended to %(most)s minutes in all"),
        "clock_when_finished": _("the session is finished: its clock stays as it was"),
        # Ending games at the time limit.
        "end_reason": _("say why the games end"),
        "session_not_started": _("the session has not started"),
        "choose_playing_table": _("choose a table still playing"),
        "games_over": _("every game of this session is over already"),
        # Check-in at the door (tournaments.models.checkin).
        "door_closed": _("check-in is closed: ask at the desk"),
        "door_withdrawn": _("%(name)s has withdrawn: ask at the desk"),
        "door_checked_in_already": _("%(name)s is checked in already"),
        "door_no_member_number": _("we have no member number for %(name)s: check in at the desk"),
        "door_wrong_member_number": _("that is not the member number we have for %(name)s"),
        "door_wrong_desk_code": _("that is not the code shown at the desk"),
        "door_undo_late": _(
            "only the phone that checked %(name)s in can undo it, within %(minutes)s "
            "minutes: ask at the desk"
        ),
        "door_no_entries": _("this event takes no registrations at the door: ask at the desk"),
        "door_registered_already": _("%(name)s is registered already: find your name in the list"),
        "door_requests_full": _("too many registrations are waiting: ask at the desk"),
        "door_request_answered": _("this registration was answered already"),
        "door_entry_refused": _("%(name)s cannot be registered: %(reason)s"),
        # Penalty and bonus points (tournaments.models.adjustments).
        "adjustment_needs_game": _("game points are given at a table: choose the game"),
        "adjustment_removed": _("this penalty or bonus was removed already"),
        "adjustment_why": _("say why"),
        "adjustment_in_final": _(
            "a final is ranked by its game: give game points at the final's table"
        ),
        "adjustment_not_seated": _("%(name)s does not play at this table"),
        # Substitutes and seats typed wrongly (tournaments.models.substitutions).
        "substitute_game_over": _("the game is over: a substitute comes in while it is played"),
        "substitute_before_play": _(
            "no round is recorded yet: swap or move the player in the seating instead"
        ),
        "substitute_out": _("%(name)s is out of the game already"),
        "substitute_at_table": _("%(name)s plays or played at this table already"),
        "substitute_elsewhere": _("%(name)s is playing at table %(table)s of session %(session)s"),
        "reseat_same_seat": _("choose two different seats"),
        "reseat_full_table": _(
            "a table of %(count)s has no free seat to swap two players through: correct "
            "the rounds instead"
        ),
        "reseat_changes_game": _(
            "with these seats the rounds no longer score as recorded (%(error)s): nothing "
            "was changed"
        ),
        # Seasons.
        "counts_already": _("%(tournament)s already counts for this season"),
        # Merging two players.
        "merge_into_self": _("a player cannot be merged into themselves"),
        "merge_player_gone": _("one of the players no longer exists"),
        "merge_same_table": _(
            "%(merged)s and %(into)s sat at the same table (%(tournament)s, session "
            "%(session)s, table %(table)s): one person cannot play twice at a table"
        ),
        "merge_both_registered": _(
            "%(merged)s and %(into)s are both registered in %(tournament)s: its "
            "director removes one registration first (a seated player stays registered)"
        ),
        "merge_unique_row": _(
            "%(merged)s and %(into)s both have a %(kind)s that only one player can "
            "have: nothing was merged"
        ),
    }
)


class Refused(Exception):
    """A state change the rules refuse; nothing was written. `code` picks the message of
    REFUSALS, `params` fill it in; `str()` reads it in the active language."""

    def __init__(self, code: str, **params: object) -> None:
        if code not in REFUSALS:
            raise KeyError(f"no refusal is coded {code!r}")
        self.code = code
        self.params: Mapping[str, object] = MappingProxyType(params)
        super().__init__(code)

    @property
    def template(self) -> Promise:
        return REFUSALS[self.code]

    def __str__(self) -> str:
        return texts.translated(self)

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {dict(self.params)!r})"


# What `sentence` puts in words: the site's refusals and the engine's coded errors (a game's
# entries, a draw, a final, a season's numbers).
CODED_ERRORS = (Refused, engine.GameError, engine.CodedError, SeasonError)
CodedError = Refused | engine.GameError | engine.CodedError | SeasonError


def sentence(error: CodedError | Exception) -> str:
    """A refusal or an engine error in the active language, as a sentence: "The clock has
    already started." (`texts.translated` looks the code up.) Any other error (a stale sheet,
    a director's question) was worded when raised and is shown as it is."""
    if isinstance(error, CODED_ERRORS):
        return texts.sentence(texts.translated(error))
    return texts.sentence(str(error))


def on_form(form: forms.Form, error: CodedError, field: str | None = None) -> None:
    """Show a refusal on the form the user typed in (a non-field error unless `field`),
    keeping its code for whoever reads `form.errors.as_data()`."""
    form.add_error(field, ValidationError(sentence(error), code=error.code))
