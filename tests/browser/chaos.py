"""The table page under chaos: seeded games where the network drops and returns and the page
reloads at random moments, with a second phone sometimes recording (tests/browser/test_chaos.py,
`python -m bench chaos`).

One game, from a seed: 4 to 8 players at a table of a running session, a referee's phone (the
table page in Chromium, offline first) and, now and then, a second phone of the same referee
sending a round through the same sync the page uses (one HTTP request, in step with the
server). Between and during the phone's submissions the driver drops the network (before the
request, or while it is in flight), brings it back, and reloads the page (online, offline,
right after a round is taken). When the server finds two versions of a round, the page shows
the choice and the driver makes one at random (keep the stored round, replace it, or record
mine after it), as a referee would.

At the end, online, once the phone has nothing left: the stored rounds are compared with what
was typed. Each typed round has an identity (its entries: dealt so that no two are equal), so
the check counts, with what each choice promised:

- lost: a round typed on the phone or acknowledged to the second phone, not stored, and not
  given up by a choice the page showed ("keep the stored round");
- doubled: a round stored more than once, or a stored round nobody typed;
- misnumbered: rounds not numbered 1..n, or one phone's rounds stored out of the order they
  were typed in (without a choice that moved them);
- wrong totals: the seats' totals differ from the engine's (`scoring.rules`) on the stored
  rounds as typed, or the page shows others.

The rounds are dealt small (no ordering of them can end the game), so that every choice leaves a
game still taking rounds: what is measured is the phone, not the end of a game.
"""

from __future__ import annotations

import os
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from django.test import Client
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scoring import rules
from scoring.dealer import deal_round
from tests.factories import make_table
from tournaments.models import Seat

NAMES = ["Ann", "Bart", "Chris", "Dirk", "Eva", "Fien", "Gert", "Hilde"]
# Every player's most possible points over the dealt rounds stay under the end (150), so no
# order of them ends the game; PENALTY: the heaviest of the rule set's (along, Assaf).
MARGIN = 145
PENALTY = 32


@dataclass
class Figures:
    """What the chaos runs did and what they found (every "found" figure must be 0)."""

    games: int = 0
    rounds: int = 0  # rounds stored at the end
    typed: int = 0  # rounds typed on the phone
    drops: int = 0
    mid_request_drops: int = 0
    reloads: int = 0
    offline_reloads: int = 0
    second_device_rounds: int = 0
    # Of those, rounds the first phone still held (typed there too), and mistyped ones.
    second_phone_held: int = 0
    mistyped: int = 0
    conflicts: int = 0
    choices: Counter = field(default_factory=Counter)
    lost: int = 0
    doubled: int = 0
    misnumbered: int = 0
    wrong_totals: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(self, item.name, mine + theirs)

    @property
    def found(self) -> int:
        return self.lost + self.doubled + self.misnumbered + self.wrong_totals

    def lines(self) -> list[str]:
        choices = ", ".join(f"{name} {count}" for name, count in sorted(self.choices.items()))
        return [
            f"games {self.games}, rounds stored {self.rounds} (typed on the phone {self.typed}, "
            f"second-device rounds {self.second_device_rounds}, of which rounds the first "
            f"phone still held {self.second_phone_held}, {self.mistyped} of them mistyped)",
            f"drops {self.drops} (mid-request {self.mid_request_drops}), reloads {self.reloads} "
            f"(offline {self.offline_reloads})",
            f"conflicts {self.conflicts} (choices: {choices or 'none'})",
            f"lost {self.lost}, doubled {self.doubled}, misnumbered {self.misnumbered}, "
            f"wrong totals {self.wrong_totals}",
        ]

    def as_dict(self) -> dict[str, Any]:
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        values["choices"] = dict(self.choices)
        return values


def key_of(entry: rules.Round) -> tuple:
    """A round's identity: its entries."""
    return (
        tuple(sorted(entry.hands.items())),
        entry.yaniv,
        tuple(sorted(entry.along)),
        entry.empty_hand,
    )


def deal(players: list[str], ruleset: rules.Ruleset, rng: random.Random, count: int):
    """`count` distinct rounds that no order of can end the game."""
    burden = dict.fromkeys(players, 0)
    seen: set[tuple] = set()
    dealt: list[rules.Round] = []
    while len(dealt) < count:
        entry = deal_round(
            players, ruleset, rng, hand_scale=0.3, false_yaniv_rate=0.0, along_rate=0.15
        )
        # The most each can score: a caller beaten by everyone who went along and Assafed,
        # each along player penalised.
        weight = {p: entry.hands[p] + (PENALTY if p in entry.along else 0) for p in players}
        if entry.yaniv:
            weight[entry.yaniv] += PENALTY * (len(entry.along) + 1)
        if key_of(entry) in seen or any(burden[p] + weight[p] > MARGIN for p in players):
            if len(seen) > 10 * count + 50:
                break
            seen.add(key_of(entry))
            continue
        seen.add(key_of(entry))
        dealt.append(entry)
        for player in players:
            burden[player] += weight[player]
    return dealt


class Game:
    """One chaos game: the table, the phone, the second phone, and what was typed."""

    def __init__(
        self, seed: int, live_url: str, context: BrowserContext, page: Page, referee, tournament
    ) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        count = self.rng.randint(4, 8)
        self.players = NAMES[:count]
        self.table = make_table(players=self.players, referee=referee, tournament=tournament)
        self.ruleset = self.table.game.ruleset
        planned = self.rng.randint(5, 8)
        rounds = deal(self.players, self.ruleset, self.rng, planned + 3)
        planned = min(planned, len(rounds) - 1)
        self.phone_rounds = rounds[:planned]
        self.spare = rounds[planned:]  # the second phone's
        self.spares = list(self.spare)
        self.url = live_url + reverse("tables:detail", args=[self.table.pk])
        self.sync_url = reverse("tables:sync", args=[self.table.pk])
        self.context, self.page = context, page
        self.second = Client()
        self.second.force_login(referee)
        self.online = True
        self.figures = Figures(games=1)
        # What the check compares with: who typed which round, in order; what the choices
        # gave up (kept the stored round: the phone's; replaced: the second phone's).
        self.typed_here: list[tuple] = []
        self.typed_there: list[tuple] = []
        self.given_up: set[tuple] = set()
        self.held_typed_there: set[tuple] = set()
        # Rounds a choice placed ("mine is another round", "replace round N with mine", the
        # stored ones "mine came first" put after): out of the order they were typed in by
        # the referee's word.
        self.moved: set[tuple] = set()
        self.events: list[str] = []

    # --- the phone -----------------------------------------------------------------------

    def ready(self) -> None:
        self.page.wait_for_function("typeof window.yanivOutbox === 'function'")
        self.page.wait_for_timeout(150)  # the outbox read and drawn

    def outbox(self) -> list[dict[str, Any]]:
        return self.page.evaluate("window.yanivOutbox()")

    def fill(self, entry: rules.Round) -> None:
        seats = self.page.locator("#round-form fieldset.seat-entry")
        for index, player in enumerate(self.players):
            seats.nth(index).get_by_label("Hand").fill(str(entry.hands[player]))
        for index, player in enumerate(self.players):
            seat = seats.nth(index)
            if entry.yaniv == player:
                seat.locator("label.toggle", has_text="Yaniv").click()
            if entry.empty_hand == player:
                seat.locator("label.toggle", has_text="Empty").click()
            if player in entry.along:
                seat.locator("label.toggle", has_text="Along").click()

    def type_round(self, then: str) -> None:
        """The phone's next round; `then`: what happens right after the Record tap."""
        entry = self.phone_rounds[len(self.typed_here)]
        self.fill(entry)
        if not self.page.locator("#record-button").is_visible():
            raise AssertionError(f"seed {self.seed}: no Record button; {self.state()}")
        self.page.locator("#record-button").click()
        self.typed_here.append(key_of(entry))
        self.figures.typed += 1
        # The round is taken once the form is blank again (the outbox written first).
        expect(self.page.locator("#round-form input.hand").first).to_have_value("")
        if then == "drop-mid-request":
            self.page.wait_for_timeout(self.rng.randint(0, 120))
            self.go_offline()
            self.figures.mid_request_drops += 1
        elif then == "reload":
            self.page.wait_for_timeout(self.rng.randint(0, 250))
            self.reload()

    def state(self) -> str:
        """What the phone and the server hold, for a failure's message."""
        kept = self.page.evaluate(
            """idbKeyval.get('table-' + document.getElementById('live').dataset.table,
                 idbKeyval.createStore('yaniv-club', 'tables'))"""
        )
        self.table.game.refresh_from_db()
        rows = self.table.game.rows()
        stored = [key_of(rows.entries(r)) for r in rows.rounds]
        known = kept.get("known") or {}
        ops = [
            (op["action"], op["number"], op.get("version"), bool(op.get("problem")))
            for op in kept["outbox"]
        ]
        return (
            f"server v{self.table.game.version} {len(stored)} rounds; phone knows "
            f"v{known.get('version')} {len(known.get('rounds', []))} rounds; outbox {ops}; "
            f"typed {len(self.typed_here)}, second phone {len(self.typed_there)}; "
            f"events {self.events}"
        )

    def go_offline(self) -> None:
        if self.online:
            self.context.set_offline(True)
            self.online = False
            self.figures.drops += 1

    def go_online(self) -> None:
        if not self.online:
            self.context.set_offline(False)
            self.online = True
            self.page.evaluate("window.dispatchEvent(new Event('online'))")

    def reload(self) -> None:
        self.page.reload()
        self.ready()
        self.figures.reloads += 1
        if not self.online:
            self.figures.offline_reloads += 1

    def choose(self) -> bool:
        """The choice a conflict shows, made at random; False when none is shown."""
        panel = self.page.locator("#device-problem .conflict")
        if not panel.count():
            return False
        ops = self.outbox()
        problem = next((op for op in ops if op.get("problem")), None)
        if problem is not None and problem["problem"]["status"] == "stale":
            # A replacement chosen on a sheet another phone changed since: the referee still
            # wants theirs (what "replace" meant).
            self.figures.choices["apply anyway"] += 1
            panel.get_by_role("button", name="Apply mine anyway").click()
            expect(self.page.locator("#device-problem .conflict")).to_have_count(0)
            return True
        if problem is None or problem["problem"]["status"] != "conflict":
            if problem is not None:
                self.figures.problems.append(f"seed {self.seed}: {problem['problem']}")
                panel.get_by_role("button", name="Discard mine").click()
            return True
        self.figures.conflicts += 1
        if os.environ.get("YANIV_CHAOS_DEBUG"):
            print(f"conflict on round {problem['number']}: {self.state()}")
        mine = self._key_of_fields(problem["fields"])
        number = problem["number"]
        offered = ["keep", "replace", "after"]
        if panel.locator("[data-choice=first]").count():
            offered.append("first")
        choice = self.rng.choice(offered)
        self.figures.choices[choice] += 1
        stored = self.table.game.rows()
        if number <= len(stored.rounds):
            occupant = key_of(stored.entries(stored.rounds[number - 1]))
            if (occupant in self.typed_here and occupant not in self.typed_there) or (
                occupant == mine
            ):
                # The phone met its own round: no other device made this conflict.
                self.figures.problems.append(
                    f"seed {self.seed}: a conflict with its own round {number}; {self.state()}"
                )
        if choice == "keep":
            panel.get_by_role("link", name="Keep the stored round").click()
            if mine not in self.typed_there:
                # Unless the other phone typed it too: stored from there, it is no loss.
                self.given_up.add(mine)
        elif choice == "replace":
            stored = self.table.game.rows()
            existing = stored.entries(stored.rounds[number - 1])
            panel.get_by_label("Reason").fill("the phone had it right")
            panel.get_by_role("button", name=f"Replace round {number} with mine").click()
            self.moved.add(mine)  # put at that number by the referee's word
            waiting = [self._key_of_fields(op["fields"]) for op in ops if op is not problem]
            if key_of(existing) not in waiting:
                # Unless this phone still holds it too (the other phone typed it): it follows.
                self.given_up.add(key_of(existing))
        elif choice == "first":
            # The phone's waiting rounds came first: every round kept, the stored ones after.
            stored = self.table.game.rows()
            self.moved.update(key_of(stored.entries(each)) for each in stored.rounds[number - 1 :])
            panel.locator("[data-choice=first]").click()
        else:
            panel.get_by_role("button", name="Mine is another round").click()
            self.moved.add(mine)
        expect(self.page.locator("#device-problem .conflict")).to_have_count(0)
        return True

    def _key_of_fields(self, typed: dict[str, Any]) -> tuple:
        by_position = {str(index): player for index, player in enumerate(self.players, start=1)}
        kind, _, position = str(typed["ending"]).partition(":")
        entry = rules.Round(
            hands={
                by_position[name[5:]]: int(value)
                for name, value in typed.items()
                if name.startswith("hand_")
            },
            yaniv=by_position[position] if kind == "yaniv" else None,
            empty_hand=by_position[position] if kind == "empty" else None,
            along=tuple(by_position[str(p)] for p in typed.get("along", [])),
        )
        return key_of(entry)

    # --- the second phone ----------------------------------------------------------------

    def second_phone_records(self) -> None:
        """The other phone, online and in step, stores the next round of the stored sheet."""
        if not self.spare:
            return
        self._second_sends(self.spare.pop(0))

    def second_phone_types_a_held_round(self) -> None:
        """The other phone types the round the first still holds (the first waiting one), as
        it is or with one hand mistyped, as the next round of the stored sheet."""
        # The sheet the other phone shows as the referee types there: read before the first
        # phone's outbox, which may send that round meanwhile (the other phone then types on
        # the sheet it had, not on one already holding the round).
        # A round it shows stored already (the first phone's answer still on its way) is
        # not typed again there.
        self.table.game.refresh_from_db()
        seen = (self.table.game.round_count + 1, self.table.game.version)
        rows = self.table.game.rows()
        shown = {key_of(rows.entries(each)) for each in rows.rounds}
        waiting = [
            self._key_of_fields(op["fields"])
            for op in self.outbox()
            if op["action"] == "record" and not op.get("problem")
        ]
        waiting = [key for key in waiting if key not in shown]
        # A referee types a round on the second phone once, not again and again.
        waiting = [key for key in waiting if key not in self.held_typed_there]
        if not waiting:
            self.second_phone_records()
            return
        key = waiting[0]
        self.held_typed_there.add(key)
        entry = next((each for each in self.phone_rounds if key_of(each) == key), None)
        if entry is None:
            return
        if self.rng.random() < 0.4:
            # One hand other than the caller's, off by one: another version of that round.
            player = self.rng.choice([p for p in self.players if p != entry.yaniv])
            hand = entry.hands[player]
            hands = {**entry.hands, player: hand + 1 if hand < 50 else hand - 1}
            entry = rules.Round(
                hands=hands, yaniv=entry.yaniv, empty_hand=entry.empty_hand, along=entry.along
            )
            self.figures.mistyped += 1
        if self._second_sends(entry, seen):
            self.figures.second_phone_held += 1

    def _second_sends(self, entry: rules.Round, seen: tuple[int, int] | None = None) -> bool:
        """The second phone's round, sent through the sync on the sheet it shows (`seen`: the
        round's number and the sheet's version; else the stored sheet now): True once stored."""
        if seen is None:
            self.table.game.refresh_from_db()
            seen = (self.table.game.round_count + 1, self.table.game.version)
        number, version = seen
        data: dict[str, Any] = {
            "action": "record",
            "client_id": str(uuid.uuid4()),
            "number": number,
            "version": version,
            "known": version,
            "along": [str(self.players.index(p) + 1) for p in entry.along],
        }
        ender = entry.yaniv or entry.empty_hand
        assert ender is not None  # a round ends by a Yaniv or an emptied hand
        data["ending"] = f"{'yaniv' if entry.yaniv else 'empty'}:{self.players.index(ender) + 1}"
        for index, player in enumerate(self.players, start=1):
            data[f"hand_{index}"] = entry.hands[player]
        answer = self.second.post(self.sync_url, data).json()
        if os.environ.get("YANIV_CHAOS_DEBUG"):
            name = self.label(key_of(entry))
            print(f"second phone: {name} as round {number}: {answer['status']}")
        if answer["status"] == "stored":
            self.typed_there.append(key_of(entry))
            self.figures.second_device_rounds += 1
            return True
        return False

    # --- the game ------------------------------------------------------------------------

    def label(self, key: tuple) -> str:
        """A round's name in a debug trace: A3 the phone's third, S1 a spare, ? else."""
        for index, entry in enumerate(self.phone_rounds):
            if key_of(entry) == key:
                return f"A{index + 1}"
        for index, entry in enumerate(self.spares):
            if key_of(entry) == key:
                return f"S{index + 1}"
        return "?"

    def debug(self) -> None:
        """YANIV_CHAOS_DEBUG: every sync the phone sends, and its answer, printed."""

        def sent(request: Any) -> None:
            if "/sync/" in request.url and request.post_data:
                from urllib.parse import parse_qs

                data = parse_qs(request.post_data)
                print("  phone sends", {k: v for k, v in data.items() if k not in ("client_id",)})

        def answered(response: Any) -> None:
            if "/sync/" in response.url:
                try:
                    body = response.json()
                except Exception:  # noqa: BLE001 - a debug trace
                    body = response.status
                if isinstance(body, dict):
                    body = {k: v for k, v in body.items() if k not in ("html", "state")}
                print("  answer", body)

        self.page.on("request", sent)
        self.page.on("response", answered)

    def play(self) -> Figures:
        if os.environ.get("YANIV_CHAOS_DEBUG"):
            self.debug()
        self.page.goto(self.url)
        self.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        self.page.wait_for_function(
            "caches.open('pages').then(c => c.match(location.href)).then(Boolean)"
        )
        self.ready()
        while len(self.typed_here) < len(self.phone_rounds):
            if self.choose():
                continue
            roll = self.rng.random()
            self.events.append(f"{roll:.2f}{'' if self.online else '/off'}")
            if roll < 0.45:
                then = self.rng.choice(["", "", "drop-mid-request", "reload"])
                if then == "drop-mid-request" and not self.online:
                    then = ""
                self.type_round(then)
            elif roll < 0.6:
                if self.online:
                    self.go_offline()
                else:
                    self.go_online()
            elif roll < 0.75:
                self.reload()
            elif roll < 0.78:
                self.second_phone_records()
            elif roll < 0.9:
                self.second_phone_types_a_held_round()
            else:
                self.page.wait_for_timeout(self.rng.randint(100, 1500))
        self.finish()
        self.check()
        return self.figures

    def finish(self) -> None:
        """Online until the phone holds nothing, making any choice it shows."""
        self.go_online()
        for _ in range(120):
            if self.choose():
                continue
            if not self.outbox():
                return
            self.page.wait_for_timeout(250)
            if self.rng.random() < 0.1:
                self.page.evaluate("window.dispatchEvent(new Event('online'))")
        self.figures.problems.append(f"seed {self.seed}: the outbox never emptied")

    def check(self) -> None:
        game = self.table.game
        game.refresh_from_db()
        rows = game.rows()
        stored = [key_of(rows.entries(round_)) for round_ in rows.rounds]
        numbers = [round_.number for round_ in rows.rounds]
        self.figures.rounds += len(stored)
        if os.environ.get("YANIV_CHAOS_DEBUG"):
            print("stored:", [self.label(key) for key in stored])
        expected = (set(self.typed_here) | set(self.typed_there)) - self.given_up
        counts = Counter(stored)
        lost = expected - set(stored)
        self.figures.lost += len(lost)
        for key in lost:
            whose = "phone" if key in self.typed_here else "second phone"
            mine = self.typed_here if key in self.typed_here else self.typed_there
            self.figures.problems.append(
                f"seed {self.seed}: lost the {whose}'s round #{mine.index(key) + 1} of "
                f"{len(mine)}; stored {len(stored)}; events {self.events}"
            )
        # A round a choice gave up may still be stored (e.g. a replacement refused as the
        # round another phone stored meanwhile): not a double, as long as someone typed it.
        anyone = set(self.typed_here) | set(self.typed_there)
        self.figures.doubled += sum(n - 1 for n in counts.values()) + len(set(stored) - anyone)
        misnumbered = 0 if numbers == list(range(1, len(numbers) + 1)) else 1
        for typed in (self.typed_here, self.typed_there):
            order = [stored.index(k) for k in typed if k in stored and k not in self.moved]
            misnumbered += sum(1 for a, b in zip(order, order[1:], strict=False) if a > b)
        self.figures.misnumbered += misnumbered
        engine = rules.score_game(
            rules.Game(
                tuple(self.players), tuple(rows.entries(r) for r in rows.rounds), self.ruleset
            )
        )
        seats = Seat.objects.filter(table=self.table).select_related("player")
        totals = {seat.player.name: seat.total for seat in seats}
        if totals != dict(engine.totals):
            self.figures.wrong_totals += 1
        shown = self.page.locator(".seat-total").all_text_contents()
        if shown != [str(engine.totals[p]) for p in self.players]:
            self.figures.wrong_totals += 1
            self.figures.problems.append(f"seed {self.seed}: the page shows {shown}")
