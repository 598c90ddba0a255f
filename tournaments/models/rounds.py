"""A game's rounds as stored: each round, each seat's hand in it, and the audit log of every change
(GameChange)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from scoring import rules
from tournaments.models.tables import Seat, TableCode
from tournaments.models.tournaments import Tournament


class Round(models.Model):
    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=[(k.value, k.value) for k in rules.RoundKind])
    caller = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    empty_hand = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    # A player who joined the game before this round (issue 37's `joins`): their seat, added
    # at the end of the table, and the start as the record says it ("highest", "average",
    # "zero" or a number; the total it gave is the engine's).
    joined = models.OneToOneField(
        Seat, null=True, blank=True, on_delete=models.RESTRICT, related_name="joined_in"
    )
    join_start = models.CharField(max_length=8, blank=True)

    class Meta:
        # The table keeps the name it had when games were their own app (migration 0004).
        db_table = "scoring_round"
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_1"),
            # One caller or one emptied hand, never both, never neither.
            models.CheckConstraint(
                condition=(
                    Q(kind="empty_hand", empty_hand__isnull=False, caller__isnull=True)
                    | Q(
                        kind__in=["yaniv", "false_yaniv", "assaf"],
                        caller__isnull=False,
                        empty_hand__isnull=True,
                    )
                ),
                name="round_has_one_ending",
            ),
            models.CheckConstraint(
                condition=Q(joined__isnull=True, join_start="")
                | (Q(joined__isnull=False) & ~Q(join_start="")),
                name="a_join_has_a_start",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.game}"


class Hand(models.Model):
    """One player's entries in one round, with the engine's numbers cached."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="hands")
    # RESTRICT, not PROTECT: deleting a whole table deletes its rounds in the same cascade.
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="hands")
    hand_total = models.PositiveSmallIntegerField()
    along = models.BooleanField(default=False)
    points = models.IntegerField(default=0)
    reduction = models.PositiveSmallIntegerField(default=0)
    total = models.IntegerField(default=0)
    # The jokers the player still held (entered where a joker option counts them): their
    # hand_total is the other cards.
    jokers = models.PositiveSmallIntegerField(default=0)
    # The streak rules (issue 37), after the reductions: the win-streak bonus added to the
    # total, and whether an Assaf streak put the total back to 0 (then `total` is 0).
    bonus = models.IntegerField(default=0)
    reset = models.BooleanField(default=False)

    class Meta:
        # The table keeps the name it had when games were their own app (migration 0004).
        db_table = "scoring_hand"
        ordering = ["round", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="unique_hand_per_seat"),
            # The largest hand of any rule options (7 cards of 13); the engine checks a
            # hand against the tournament's own rules before it is stored.
            models.CheckConstraint(
                condition=Q(hand_total__gte=0, hand_total__lte=rules.MAX_HAND),
                name="hand_total_0_to_91",
            ),
            # Two decks' four jokers at most (rules.Ruleset.max_jokers).
            models.CheckConstraint(condition=Q(jokers__lte=4), name="jokers_0_to_4"),
            models.CheckConstraint(condition=Q(reset=False) | Q(total=0), name="reset_to_0"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} in {self.round}"


class GameChange(models.Model):
    """The audit log: every record, correction, undo and end of a game."""

    class Action(models.TextChoices):
        RECORD = "record", gettext_lazy("recorded")
        CORRECT = "correct", gettext_lazy("corrected")
        UNDO = "undo", gettext_lazy("undone")
        END = "end", gettext_lazy("ended at the time limit")
        SIGN_OFF = "sign_off", gettext_lazy("signed off")
        CONFIRM = "confirm", gettext_lazy("agreed to the sheet for")
        DISPUTE = "dispute", gettext_lazy("disputed")
        RESOLVE = "resolve", gettext_lazy("resolved a dispute by correcting")
        DISMISS = "dismiss", gettext_lazy("dismissed a dispute about")
        # Beside the rounds: game points given, a substitute, seats typed wrongly.
        ADJUST = "adjust", gettext_lazy("changed the points given")
        SUBSTITUTE = "substitute", gettext_lazy("brought in a substitute")
        RESEAT = "reseat", gettext_lazy("swapped two seats")

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=10, choices=Action)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    version = models.PositiveIntegerField()
    # The device's id for a change it made, offline maybe: each is applied once.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # Kept with each change for the pages' polls: the tournament's last change, and its last
    # change that touched a finished game (the standings), are one indexed row away.
    tournament = models.ForeignKey(
        Tournament, null=True, on_delete=models.CASCADE, related_name="game_changes"
    )
    standing = models.BooleanField(default=False)
    # A change made through a table code (no account).
    code = models.ForeignKey(
        TableCode, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        # The table keeps the name it had when games were their own app (migration 0004).
        db_table = "scoring_gamechange"
        ordering = ["game", "-at", "-pk"]
        indexes = [
            models.Index(fields=["tournament", "-id"], name="last_change_of_a_tournament"),
            models.Index(
                fields=["tournament", "-id"],
                condition=Q(standing=True),
                name="last_change_to_standings",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["record", "sign_off", "confirm"]) | ~Q(reason=""),
                name="change_needs_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} round {self.round_number} of {self.game}"

    @property
    def before_text(self) -> str:
        return describe_entries(self.before)

    @property
    def after_text(self) -> str:
        return describe_entries(self.after)


def describe_entries(record: dict | None) -> str:
    """A round record as a referee reads it: "Ann 3 (Yaniv), Bart 12 (along)"."""
    if not record:
        return ""
    along = set(record.get("along", []))
    parts = []
    for player, hand in record["hands"].items():
        if player == record.get("yaniv"):
            note = " " + gettext("(Yaniv)")
        elif player == record.get("empty_hand"):
            note = " " + gettext("(emptied)")
        else:
            note = " " + gettext("(along)") if player in along else ""
        parts.append(f"{player} {hand}{note}")
    return ", ".join(parts)
