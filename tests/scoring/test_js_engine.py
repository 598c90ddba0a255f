"""The referee's phone scores offline with static/js/yaniv-engine.js, a port of the Python
engine: it must give exactly what the server gives. Each test runs the node harness
tests/js/run_engine.js once over many game records and compares every line with Python:

- every vector of tests/vectors: the same result, or the same error (code and text);
- thousands of random valid games under every preset with random options (played to the end,
  with callers, along, emptied hands, false Yaniv, Assaf and eliminations): the same result, and
  the same sheet marks, legend and engine details;
- a thousand and more random malformed records: the same error code, text, field, round, player.

Without `node` the tests are skipped, saying so, except under CI=true where they fail.
See docs/device-engine.md.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from scoring.errors import ENGINE_CODES, GAME_MESSAGES, WARNING_MESSAGES
from scoring.records import _round_from_record as round_from_record
from scoring.records import game_from_record, result_to_record
from scoring.rules import (
    MAX_TOTAL,
    OPTIONS,
    RULESETS,
    Assaf,
    AssafZero,
    End,
    FalseYaniv,
    Game,
    GameError,
    GameResult,
    RoundKind,
    Ruleset,
    round_warnings,
    score_game,
    score_round,
)
from scoring.sheet import Mark, hand_mark, legend
from tests.profiles import sized
from tests.scoring.vectors import load, option_vector_files, preset_vector_files, vector_files

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "static" / "js" / "yaniv-engine.js"
HARNESS = ROOT / "tests" / "js" / "run_engine.js"

# Fixed seeds: game i is random.Random(SEED + i), so a failure names a game to replay.
GAMES_SEED = 20_240_000
INVALID_SEED = 30_240_000
# Random games: 3,000 under CI, the profile's share locally (tests/profiles.py); what they
# must cover is a share of them. Malformed records: always 1,300, since meeting every one of
# the engine's messages takes about 1,000 of them.
GAME_COUNT = sized(3_000)
INVALID_COUNT = 1_300

# Names that trip JS up: integer-like keys (objects list them first), Object.prototype's
# names, Python's whitespace that JS's trim() does not strip and the reverse (\ufeff), quotes.
NAMES = (
    "Ann",
    "Bart",
    "Chris",
    "Dirk",
    "Hélène",
    "Zoë 🃏",
    "7",
    "12",
    "0",
    "__proto__",
    "constructor",
    "toString",
    " Jo ",
    "\ufeff",
    "\x1cIvo",
    "it's",
    'say "yes"',
)


# The codes of scoring.errors that the engine and the records raise (scoring.errors.ENGINE_CODES;
# the rest are the site's game model's and the JSON reader's): the JS engine holds exactly these.
assert set(GAME_MESSAGES) >= ENGINE_CODES


# --- running both engines ----------------------------------------------------------------------


def node() -> str:
    path = shutil.which("node")
    if path:
        return path
    reason = "node is not installed: static/js/yaniv-engine.js cannot be compared with Python"
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _needs_node() -> None:
    """Skip or fail (CI=true) before any work when node is missing."""
    node()


def run_js(records: list[Any], *, sheet: bool = False, plain: bool = False) -> list[Any]:
    """One harness run over all records: one parsed line each (dicts keep the keys' order).

    `plain`: the harness reads the records with JSON.parse (plain objects, as a page builds them)
    instead of YanivEngine.parseJSON (Python's reading).
    """
    flags = [flag for flag, on in (("--sheet", sheet), ("--plain", plain)) if on]
    command = [node(), str(HARNESS), *flags]
    lines = "".join(json.dumps(record) + "\n" for record in records)
    done = subprocess.run(
        command, input=lines, capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert done.returncode == 0, done.stderr
    # Split on "\n" only: JSON.stringify leaves \u2028 and \x85 raw, splitlines() would cut there.
    out = [json.loads(line) for line in done.stdout.split("\n")[:-1]]
    crashes = [line["crash"] for line in out if "crash" in line]
    assert not crashes, crashes[0]
    assert len(out) == len(records), "the harness must answer every record"
    return out


def run_both(
    records: list[Any], *, sheet: bool = False, plain: bool = False
) -> tuple[list[Any], list[Any], list[Any]]:
    """The Python engine and the harness (in node) over the same records, side by side:
    (js, python, js_plain); `plain`: also a run reading plain objects ([] if not)."""
    node()
    with ThreadPoolExecutor(max_workers=2) as pool:
        js = pool.submit(run_js, records, sheet=sheet)
        js_plain = pool.submit(run_js, records, plain=True) if plain else None
        python = [run_python(record, sheet=sheet) for record in records]
        return js.result(), python, js_plain.result() if js_plain else []


def python_error(error: GameError) -> dict[str, Any]:
    return {
        "code": error.code,
        "text": str(error),
        "field": error.field,
        "round": error.round_number,
        "player": error.player,
        "params": {name: str(value) for name, value in error.params.items()},
    }


def python_sheet(game: Game, result: GameResult) -> dict[str, Any]:
    """What the harness's --sheet gives, from scoring.sheet and the Python engine."""
    rules = game.ruleset
    marks = [
        [hand_mark(entries, scored.kind, player) for player in game.players]
        for entries, scored in zip(game.rounds, result.rounds, strict=True)
    ]
    return {
        "legend": [str(mark) for mark in legend(rules)],
        "marks": [[None if mark is None else str(mark) for mark in row] for row in marks],
        "warnings": [
            [[warning.code, warning.player, warning.message] for warning in warnings]
            for warnings in (round_warnings(entries, rules) for entries in game.rounds)
        ],
        "neighbours": [scored.neighbour for scored in result.rounds],
        "ends_game": [scored.ends_game for scored in result.rounds],
        "out_in_round": [[player, number] for player, number in result.out_in_round.items()],
        "elimination": result.elimination,
        "ruleset": {
            "name": rules.name,
            "cards_dealt": rules.cards_dealt,
            "face_values": str(rules.face_values),
            "highest_card": rules.highest_card,
            "max_jokers": rules.max_jokers,
            "joker_held": rules.joker_held,
            "joker_value": rules.joker_value,
            "may_go_negative": rules.may_go_negative,
            "assaf_extra": rules.assaf_extra,
            "assaf_extra_penalty": rules.assaf_extra_penalty,
            "streak_bonus": OPTIONS["streak_bonus"][2](rules.streak_bonus),
            "yaniv_limit": rules.yaniv_limit,
            "challenge": str(rules.challenge),
            "scores_false_yaniv": rules.scores_false_yaniv,
            "refuses_above_limit": rules.refuses_above_limit,
            "yaniv_limit_warns": rules.yaniv_limit_warns,
            "assaf": str(rules.assaf),
            "assaf_penalty": rules.assaf_penalty,
            "assaf_zero": str(rules.assaf_zero),
            "assaf_lowest_scores_zero": rules.assaf_lowest_scores_zero,
            "reduction_needs_points": rules.reduction_needs_points,
            "false_yaniv": str(rules.false_yaniv),
            "reduction_table": [list(pair) for pair in rules.reduction_table],
            "reduce_multiples": rules.reduce_multiples and list(rules.reduce_multiples),
            "end": str(rules.end),
            "end_above": rules.end_above,
            "deals_per_player": rules.deals_per_player,
            "deal_limits": [rules.deal_limit(count) for count in range(1, 9)],
            "one_deck_up_to": rules.one_deck_up_to,
            "max_hand": rules.max_hand,
            "max_round_points": rules.max_round_points,
            "automatic_assaf": rules.automatic_assaf,
            "eliminates": rules.eliminates,
            "reduction_steps": [list(step) for step in rules.reduction_steps],
            "reduction_totals": list(rules.reduction_totals),
            "reduction": rules.reduction,
            "decks": [rules.decks(count) for count in range(1, 9)],
        },
    }


def run_python(record: Any, *, sheet: bool = False) -> dict[str, Any]:
    try:
        game = game_from_record(record)
        result = score_game(game)
    except GameError as error:
        return {"error": python_error(error)}
    outcome: dict[str, Any] = {"result": result_to_record(result)}
    if sheet:
        outcome["sheet"] = python_sheet(game, result)
    return outcome


ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def is_array_index(key: str) -> bool:
    return bool(ARRAY_INDEX.fullmatch(key)) and int(key) < 2**32 - 1


def js_order(value: Any) -> Any:
    """`value` with every dict's keys in the order a JS object lists them: integer-like keys
    ("7", "12") first and ascending, the one way a plain JS object cannot follow a dict."""
    if isinstance(value, dict):
        if any(is_array_index(key) for key in value):
            indexes = sorted((key for key in value if is_array_index(key)), key=int)
            keys = indexes + [key for key in value if not is_array_index(key)]
            return {key: js_order(value[key]) for key in keys}
        return {key: js_order(item) for key, item in value.items()}
    if isinstance(value, list):
        return [js_order(item) for item in value]
    return value


def differences(records: list[Any], js: list[Any], python: list[Any]) -> list[str]:
    """Every record where the engines differ, described for the failure message.

    Compared as JSON text: the same keys in the same order, and the same types (true is not 1).
    """
    found = []
    for index, (record, js_line, python_line) in enumerate(zip(records, js, python, strict=True)):
        players = record.get("players") if isinstance(record, dict) else None
        if isinstance(players, list) and isinstance(record.get("rounds"), list):
            # Players who join are named in the results too.
            players = players + [
                entry["joins"].get("name")
                for entry in record["rounds"]
                if isinstance(entry, dict) and isinstance(entry.get("joins"), dict)
            ]
        named_by_index = isinstance(players, list) and any(
            isinstance(player, str) and is_array_index(player) for player in players
        )
        expected = js_order(python_line) if named_by_index else python_line
        if json.dumps(js_line) != json.dumps(expected):
            found.append(
                f"#{index}: {json.dumps(record)[:600]}\n  python: {json.dumps(python_line)[:600]}"
                f"\n  js:     {json.dumps(js_line)[:600]}"
            )
    return found


def assert_agree(records: list[Any], js: list[Any], python: list[Any]) -> None:
    found = differences(records, js, python)
    assert not found, f"{len(found)} of {len(records)} records differ:\n" + "\n".join(found[:5])


# --- random valid games ------------------------------------------------------------------------


def random_pairs(rng: random.Random) -> list[list[int]]:
    """A valid `reductions` option: totals often on a grid that totals reach, rarely the most
    pairs (MAX_REDUCTION_PAIRS) or the bounds of a total."""
    totals: set[int] = set()
    for _ in range(rng.choice([rng.randint(0, 4), rng.randint(0, 4), 20])):
        totals.add(
            rng.choice(
                [
                    rng.randrange(10, 400, 10),
                    rng.randint(1, 400),
                    rng.randint(1, MAX_TOTAL),
                    rng.choice([1, MAX_TOTAL]),
                ]
            )
        )
    pairs = [[total, rng.choice([0, total // 2, rng.randrange(total)])] for total in totals]
    rng.shuffle(pairs)
    return pairs


def random_multiples(rng: random.Random) -> list[int]:
    every = rng.choice([10, 25, 100, rng.randint(10, 120), rng.randint(10, MAX_TOTAL)])
    return [every, rng.choice([every, rng.randint(1, every)])]


def random_options(rng: random.Random) -> dict[str, Any]:
    """A valid option set drawn from the OPTIONS bounds, in a random order, often none."""
    if rng.random() < 0.25:
        return {}
    names = rng.sample(list(OPTIONS), rng.randint(1, len(OPTIONS)))
    cards = rng.randint(1, 7) if "cards_dealt" in names else 5
    faces = rng.choice(["10", "11-12-13"]) if "face_values" in names else "10"
    most = cards * (13 if faces == "11-12-13" else 10)
    values: dict[str, Callable[[], Any]] = {
        "false_yaniv": lambda: str(rng.choice(list(FalseYaniv))),
        "yaniv_limit": lambda: rng.choice([0, most, rng.randint(0, min(10, most))]),
        "face_values": lambda: faces,
        "assaf_extra": lambda: rng.choice([None, 20, rng.randint(0, 100)]),
        "joker_held": lambda: rng.choice([10, 25, rng.randint(0, 50)]),
        "joker_value": lambda: rng.choice([-5, 0, rng.randint(-50, 0)]),
        "streak_bonus": lambda: random_streak_rules(rng),
        "reductions": lambda: random_pairs(rng),
        "reduce_multiples": lambda: rng.choice([None, [50, 50], random_multiples(rng)]),
        "end": lambda: str(rng.choice(list(End))),
        "end_above": lambda: rng.choice(
            [1, 10_000, rng.randint(1, 80), rng.randint(40, 260), rng.randint(1, 10_000)]
        ),
        # Often a few deals, so that games end by them; sometimes off (0) or the bound.
        "deals_per_player": lambda: rng.choice([0, 2, 5, rng.randint(1, 12), 50]),
        "cards_dealt": lambda: cards,
        "one_deck_up_to": lambda: rng.randint(1, 8),
        "assaf": lambda: str(rng.choice(list(Assaf))),
        "assaf_penalty": lambda: rng.choice([25, 30, 0, 100, rng.randint(0, 100)]),
        "assaf_zero": lambda: str(rng.choice(list(AssafZero))),
        "reduction_needs_points": lambda: rng.choice([True, False]),
        "yaniv_limit_warns": lambda: rng.choice([True, False]),
    }
    return {name: values[name]() for name in names}


def random_streak_rules(rng: random.Random) -> list[dict[str, Any]]:
    """Win streaks of a few rounds (so that games reach them) and Assaf resets."""
    rules: list[dict[str, Any]] = []
    for _ in range(rng.choice([0, 1, 2, 3, 10])):
        if rng.random() < 0.6:
            points = rng.choice([-10, 25, rng.randint(-100, 100)])
            rules.append({"wins": rng.choice([1, 2, 3, rng.randint(1, 50)]), "points": points})
        else:
            rules.append({"assafs": rng.choice([1, 2, 3, rng.randint(1, 50)]), "reset": True})
    return rules


def random_jokers(
    rng: random.Random, hands: dict[str, int], ender: str, rules: Ruleset
) -> dict[str, int]:
    """Jokers held, within the bounds: room in the hand, 2 a deck; none for an emptied hand."""
    jokers: dict[str, int] = {}
    left = 2 * rules.decks(len(hands))
    for player in rng.sample(list(hands), rng.randint(0, len(hands))):
        count = rng.randint(0, min(left, rules.max_jokers))
        room = rules.highest_card * (rules.cards_dealt - count)
        if count and hands[player] <= room and not (player == ender and hands[player] == 0):
            jokers[player] = count
            left -= count
    return jokers


def random_round(rng: random.Random, playing: list[str], rules: Ruleset) -> dict[str, Any]:
    """One valid round's record: hands often low (ties, Assaf), the ender picked at random."""
    low = min(rules.max_hand, rules.yaniv_limit + 3)
    hands = {
        player: rng.randint(0, low) if rng.random() < 0.5 else rng.randint(0, rules.max_hand)
        for player in playing
    }
    ender = rng.choice(playing)
    others = [player for player in playing if player != ender]
    entry: dict[str, Any]
    if rng.random() < 0.2:
        hands[ender] = 0
        entry = {"empty_hand": ender}
    else:
        entry = {"yaniv": ender}
        # Above the limit: a false Yaniv (belgian), or a call the limit only warns of.
        above = not rules.refuses_above_limit and rng.random() < 0.25
        hands[ender] = rng.randint(0, rules.max_hand if above else rules.yaniv_limit)
        if not rules.automatic_assaf:
            entry["along"] = rng.sample(others, rng.randint(0, len(others)))
    # An empty `along` may be written or left out.
    if not entry.get("along") and rng.random() < 0.3:
        if "along" in entry:
            del entry["along"]
        else:
            entry["along"] = []
    order = list(hands.items())
    rng.shuffle(order)
    if rng.random() < 0.3:
        jokers = random_jokers(rng, hands, ender, rules)
        # A caller whose jokers count below 0 still calls within the limit (or above it).
        if jokers or rng.random() < 0.2:
            entry["jokers"] = jokers
    return {"hands": dict(order), **entry}


def random_game(rng: random.Random) -> dict[str, Any]:
    """A valid record: a preset, options, 2-8 players and rounds up to the game's end (or not)."""
    name = rng.choice(list(RULESETS))
    options = random_options(rng)
    rules = RULESETS[name].with_options(options)
    players = rng.sample(NAMES, rng.randint(2, 8))
    totals: dict[str, int] = dict.fromkeys(players, 0)
    out: list[str] = []
    rounds = []
    seated = list(players)
    streaks: Any = {}
    for number in range(1, rng.choice([rng.randint(0, 6), 60]) + 1):
        joins: dict[str, Any] | None = None
        if len(seated) < 8 and rng.random() < 0.06:
            joiner = rng.choice([other for other in NAMES if other not in seated])
            start = rng.choice(["highest", "average", "zero", rng.randint(0, rules.end_above)])
            joins = {"name": joiner, "start": start}
        playing = [player for player in seated if player not in out]
        entry = random_round(rng, playing + ([joins["name"]] if joins else []), rules)
        if joins:
            entry["joins"] = joins
        entries = round_from_record(entry, number)
        scored = score_round(seated, totals, entries, number, rules, tuple(out), streaks)
        rounds.append(entry)
        totals, streaks = dict(scored.totals), scored.streaks
        if scored.joined:
            seated.append(scored.joined[0])
        out.extend(scored.eliminated)
        if scored.ends_game:
            break
    record: dict[str, Any] = {"ruleset": name, "players": players, "rounds": rounds}
    if options or rng.random() < 0.2:
        record["options"] = options
    if name == "belgian" and rng.random() < 0.3:
        del record["ruleset"]
    if rng.random() < 0.05:
        record["comment"] = "other top-level keys are ignored"
    return record


def test_the_js_engine_scores_every_vector_as_python():
    paths = vector_files() + preset_vector_files() + option_vector_files()
    vectors = [load(path) for path in paths]
    records = [vector["game"] for vector in vectors]
    js, python, js_plain = run_both(records, plain=True)
    assert_agree(records, js, python)
    assert_agree(records, js_plain, python)
    # And both are the vectors' own answers.
    for vector, line in zip(vectors, python, strict=True):
        if "expected" in vector:
            assert line == {"result": vector["expected"]}
        else:
            assert line["error"]["text"] == vector["error"]
    scored = sum("result" in line for line in js)
    refused = sum("error" in line for line in js)
    print(f"\nJS = Python on {len(records)} vectors: {scored} scored, {refused} refused")
    assert scored + refused == len(js) == len(records) == len(paths) >= 52


def test_the_device_engine_doc_counts_the_vectors_there_are():
    """docs/device-engine.md says how many vectors the comparison runs: a new vector updates it
    (issue 22: it said 52 when there were 57)."""
    vectors = [
        load(path) for path in vector_files() + preset_vector_files() + option_vector_files()
    ]
    scored = sum("expected" in vector for vector in vectors)
    refused = sum("error" in vector for vector in vectors)
    assert scored + refused == len(vectors)
    doc = (ROOT / "docs" / "device-engine.md").read_text(encoding="utf-8")
    assert f"`tests/vectors/` ({len(vectors)}: {scored} scored, {refused} refused;" in doc


def test_the_js_engine_scores_random_games_and_sheets_as_python(record_property):
    records = [random_game(random.Random(GAMES_SEED + index)) for index in range(GAME_COUNT)]
    js, python, js_plain = run_both(records, sheet=True, plain=True)
    assert_agree(records, js, python)
    # The same games as plain objects, as the table page builds them (no sheet in this run).
    assert_agree(records, js_plain, [{"result": line["result"]} for line in python])

    # What the comparison covered, so a generator that stops reaching a case fails here.
    results = [line["result"] for line in python]
    kinds = Counter(scored["kind"] for result in results for scored in result["rounds"])
    covered: Counter[str] = Counter()
    for record, line in zip(records, python, strict=True):
        result = line["result"]
        options = record.get("options", {})
        covered[record.get("ruleset", "belgian")] += 1
        covered["options"] += bool(record.get("options"))
        covered.update(f"option {name}" for name in record.get("options", {}))
        covered["finished"] += result["finished"]
        # Ended by the deals alone: the same rounds without the deal limit play on.
        if options.get("deals_per_player") and result["finished"]:
            without = {**record, "options": {**options, "deals_per_player": 0}}
            covered["dealt out"] += not score_game(game_from_record(without)).finished
        covered["shared win"] += len(result["winners"]) > 1
        covered["eliminated"] += any(scored.get("eliminated") for scored in result["rounds"])
        covered["reduced"] += any(scored["reductions"] for scored in result["rounds"])
        covered["along"] += any(entry.get("along") for entry in record["rounds"])
        covered["mark lowest"] += any("lowest" in row for row in line["sheet"]["marks"])
        # The house rules of issue 13: each must meet the round it changes.
        assafs = [scored for scored in result["rounds"] if scored["kind"] == "assaf"]
        covered["warned"] += any(line["sheet"]["warnings"])
        covered["flat assaf"] += bool(assafs) and options.get("assaf") == "flat"
        covered["zero at or below"] += bool(assafs) and (
            options.get("assaf_zero") == "at_or_below_caller"
        )
        covered["reduced after 0"] += any(
            scored["points"][player] == 0
            for scored in result["rounds"]
            for player in scored["reductions"]
        )
        # The options of issue 37, each meeting the round it changes.
        covered["joined"] += any("joined" in scored for scored in result["rounds"])
        covered["streak bonus"] += any(scored.get("bonuses") for scored in result["rounds"])
        covered["reset"] += any(scored.get("resets") for scored in result["rounds"])
        covered["jokers"] += any(entry.get("jokers") for entry in record["rounds"])
        covered[f"assaf {options.get('assaf')}"] += bool(assafs)
    rounds = sum(kinds.values())
    # Totals never go below 0 but with a negative joker value: JS's % (which keeps the sign)
    # differs from Python's there, so reductionAt takes care of negative totals.
    assert min(min(result["totals"].values()) for result in results) < 0
    print(f"\nJS = Python on {len(records)} random games, {rounds} rounds: {dict(kinds)}")
    print(f"covered: {dict(covered)}")
    record_property("js_engine_random_games", len(records))
    record_property("js_engine_random_rounds", rounds)
    assert len(records) == len(js) == GAME_COUNT
    assert set(kinds) == set(RoundKind) and min(kinds.values()) >= GAME_COUNT // 6
    for preset in RULESETS:
        assert covered[preset] >= GAME_COUNT // 5, preset
    for option in OPTIONS:
        assert covered[f"option {option}"] >= GAME_COUNT // 5, option
    for case in ("finished", "eliminated", "reduced", "along", "mark lowest"):
        assert covered[case] >= GAME_COUNT // 10, case
    for case in ("warned", "flat assaf", "zero at or below", "dealt out"):
        assert covered[case] >= GAME_COUNT // 30, case
    for case in ("joined", "streak bonus", "reset", "jokers"):
        assert covered[case] >= GAME_COUNT // 30, case
    for case in ("assaf per_challenger", "assaf others_cards"):
        assert covered[case] >= GAME_COUNT // 60, case
    # A player left on a reducible total who then scores 0 is rarer.
    assert covered["reduced after 0"] >= GAME_COUNT // 120
    assert covered["shared win"] >= GAME_COUNT // 300


# --- random malformed records -------------------------------------------------------------------

# Values that are not what a field takes, and texts whose repr() needs care.
NOT_INTS = [True, False, 7.0, 7.5, -0.0, "7", None, [7], {"n": 7}, 10**30, -(10**30), float("nan")]
NOT_TEXTS = [5, 1.5, True, None, ["Ann"], {"Ann": 0}]
NOT_MAPPINGS = [[], "x", 5, 2.5, None, True, [["Ann", 1]]]
ODD_KEYS = [
    "limit",
    "Yaniv_limit",
    "it's",
    'say "hi"',
    "both ' and \"",
    "back\\slash",
    "tab\there\nand\rthere",
    "nul\x00",
    "del\x7f",
    "\x85",
    "\xa0",
    "\u200b",
    "\u2028",
    "\ud800",
    "\ue000",
    "\U000e0001",
    "\U0010ffff",
    "é",
    "🃏",
    "\uffff",
    "7",
    "__proto__",
    "",
]
BAD_RULESETS = [
    "moon",
    "",
    "Belgian",
    "israeli ",
    5,
    7.0,
    1e16,
    1.5e-7,
    123.456,
    -0.0,
    float("inf"),
    12345678901234567890123,
    None,
    True,
    [1, "x", None],
    {"a": [1.0, {"b": "it's"}]},
    {},
]
BAD_OPTION_VALUES: dict[str, list[Any]] = {
    "false_yaniv": ["others_score", "", None, 1, ["others_score_zero"], "OTHERS_SCORE_HAND"],
    "end": ["Game_over", "eliminate", None, 0, True],
    "yaniv_limit": [-1, 92, *NOT_INTS],
    "end_above": [0, 10_001, *NOT_INTS],
    "deals_per_player": [-1, 51, *NOT_INTS],
    "cards_dealt": [0, 8, *NOT_INTS],
    "face_values": ["11", "11-13", 10, None, "J-Q-K"],
    "assaf_extra": [-1, 101, *NOT_INTS[:-1]],
    "joker_held": [-1, 51, *NOT_INTS],
    "joker_value": [1, -51, *NOT_INTS],
    "streak_bonus": [
        "x",
        {},
        None,
        [{"wins": 3}],
        [{"wins": 3, "points": -10, "reset": True}],
        [{"assafs": 6, "reset": False}],
        [{"assafs": 6, "reset": 1}],
        [{"wins": 3.0, "points": 1}],
        [{"wins": 0, "points": 1}],
        [{"wins": 3, "points": 101}],
        [{"assafs": 51, "reset": True}],
        [{"wins": 1, "points": 1}] * 11,
        [[3, -10]],
    ],
    "one_deck_up_to": [0, 9, *NOT_INTS],
    "assaf": ["Flat", "hand", "hand+30", None, 30, True],
    "assaf_penalty": [-1, 101, *NOT_INTS],
    "assaf_zero": ["lowest ", "every", "", None, 0, False],
    "reduction_needs_points": [0, 1, "true", "false", None, [True], 1.0],
    "yaniv_limit_warns": [0, 1, "yes", None, {}, 0.0],
    "reductions": [
        "x",
        {},
        None,
        5,
        [50, 0],
        [[1, 2, 3]],
        [[1]],
        [[100.0, 0]],
        [[True, 0]],
        [[50, "0"]],
        [[100, 50], [1]],
        [[50, 50]],
        [[50, 60]],
        [[50, -1]],
        [[0, 0]],
        [[100, 50], [100, 20]],
        [[50, 50], [1]],
        [[10**30, 10**30]],
        [[10**30, 1], [10**30, 2]],
        # The bounds: at most 20 pairs (a list of 50,000 is refused before it is read), each
        # total 1-10,000.
        [[total, 0] for total in range(10, 220, 10)],
        [[total, total // 2] for total in range(1, 50_001)],
        [["x"]] * 21,
        [[10_001, 0]],
        [[100, 50], [20_000, 100]],
        [[0, 0], [50, 60]],
    ],
    "reduce_multiples": [
        [9, 9],
        [1, 1],
        [10_001, 50],
        [10**30, 1],
        [0, 0],
        [50, 0],
        [50, 60],
        [-5, -5],
        [50],
        [50, 50, 50],
        "50",
        [50.0, 50],
        [50, True],
        True,
        {},
        5,
    ],
}


ROUND_MUTATIONS = [
    *["round field", "hands", "hand", "ending", "along", "caller", "empty hand"],
    *["jokers", "joins"],
]
MUTATIONS = [
    *["record", "ruleset", "options", "players", "names", "rounds", "round"],
    *["option"] * 6,
    *ROUND_MUTATIONS,
    *["limit", "after the end", "out player"],
    *["several"] * 3,
]


def mutate(rng: random.Random, record: dict[str, Any], what: str = "") -> tuple[str, Any]:
    """One thing wrong with a valid record, or several: (what, the bad record)."""
    record = copy.deepcopy(record)
    what = what or rng.choice(MUTATIONS)
    rounds = record["rounds"]
    players = record["players"]
    entries = [entry for entry in rounds if isinstance(entry, dict)]
    if what in (*ROUND_MUTATIONS, "limit", "round") and not entries:
        what = "option"
    entry = rng.choice(entries) if entries else {}
    hands = entry.get("hands")
    names = list(hands) if isinstance(hands, dict) and hands else ["Ann"]
    if what == "record":
        return what, rng.choice([[], "game", 3, None, 1.5, True, [record]])
    if what == "ruleset":
        record["ruleset"] = rng.choice(BAD_RULESETS)
    elif what == "options":
        record["options"] = rng.choice(NOT_MAPPINGS)
    elif what == "option":
        items = list(record.get("options", {}).items())
        if rng.random() < 0.3:
            bad = (rng.choice(ODD_KEYS), rng.choice([1, "x", None]))
        elif rng.random() < 0.15:
            bad = ("yaniv_limit", rng.randint(11, 50))
            items = [item for item in items if item[0] not in ("cards_dealt", "yaniv_limit")]
            items.insert(rng.randint(0, len(items)), ("cards_dealt", 1))
        else:
            # The pair options have the most ways to be wrong.
            name = rng.choice(
                [
                    *BAD_OPTION_VALUES,
                    *["reductions"] * 4,
                    *["reduce_multiples", "streak_bonus"] * 2,
                ]
            )
            bad = (name, rng.choice(BAD_OPTION_VALUES[name]))
            items = [item for item in items if item[0] != name]
        items.insert(rng.randint(0, len(items)), bad)
        record["options"] = dict(items)
    elif what == "players":
        record["players"] = rng.choice(
            [*NOT_MAPPINGS[1:], {"Ann": 1}, players[:1], [*NAMES, "Extra"][: rng.randint(9, 12)]]
        )
    elif what == "names":
        blank: Any = rng.choice(["", " ", "\t\n", "\x1c", "\x85", "\u3000", "\u2028", *NOT_TEXTS])
        index = rng.randrange(len(players))
        players[index] = blank if rng.random() < 0.7 else players[index - 1]
    elif what == "rounds":
        record["rounds"] = rng.choice([{}, "x", None, 3, True])
    elif what == "round":
        rounds[rounds.index(entry)] = rng.choice([[], "x", None, 3, [entry]])
    elif what == "round field":
        for key in rng.sample(
            [*ODD_KEYS, "Hands", "yanive", "emptyHand", " hands"], rng.randint(1, 3)
        ):
            entry[key] = None
    elif what == "hands":
        change = rng.choice(["not an object", "missing", "extra", "renamed"])
        if change == "not an object" or not isinstance(hands, dict) or not hands:
            if rng.random() < 0.3:
                entry.pop("hands", None)
            else:
                entry["hands"] = rng.choice(NOT_MAPPINGS)
        elif change == "missing":
            del hands[rng.choice(names)]
        elif change == "extra":
            hands[rng.choice(["Zed", "constructor", "7", "Ann"])] = rng.randint(0, 9)
        else:
            hands["Zed"] = hands.pop(rng.choice(names))
    elif what == "hand" and isinstance(hands, dict):
        hands[rng.choice(names)] = rng.choice([-1, 51, 11, 10**30, *NOT_INTS])
    elif what == "ending":
        caller = entry.get("yaniv", entry.get("empty_hand"))
        change = rng.choice(["both", "none", "yaniv", "empty_hand"])
        if change == "both":
            entry["yaniv" if "empty_hand" in entry else "empty_hand"] = caller
        elif change == "none":
            entry.pop("yaniv", None)
            entry.pop("empty_hand", None)
        else:
            entry[change] = rng.choice(NOT_TEXTS)
    elif what == "along":
        entry["along"] = rng.choice(
            [
                rng.sample(names, rng.randint(1, len(names))),
                [names[0], names[0]],
                ["Zed"],
                rng.choice([*NOT_TEXTS[:4], [1], [names[0], None], [[names[0]]]]),
            ]
        )
    elif what == "caller":
        entry.pop("empty_hand", None)
        entry["yaniv"] = rng.choice(["Zed", "", "constructor", *names])
        entry["along"] = rng.choice([[entry["yaniv"]], [], entry.get("along", [])])
    elif what == "empty hand":
        entry.pop("yaniv", None)
        entry["empty_hand"] = rng.choice(["Zed", "toString", *names])
        if rng.random() < 0.4:
            entry["along"] = [rng.choice(names)]
    elif what == "limit" and isinstance(hands, dict):
        entry.pop("empty_hand", None)
        entry["yaniv"] = caller = rng.choice(names)
        hands[caller] = rng.randint(6, 50)
    elif what == "jokers":
        entry["jokers"] = rng.choice(
            [
                rng.choice(NOT_MAPPINGS),
                {"Zed": 1},
                {names[0]: rng.choice([-1, 5, *NOT_INTS])},
                # No room in the hand: a joker of one card dealt beside a card.
                {names[0]: 1},
                dict.fromkeys(names, 2),
            ]
        )
        if rng.random() < 0.5 and isinstance(hands, dict):
            hands[names[0]] = 50
            record["options"] = {**record.get("options", {}), "cards_dealt": 5}
    elif what == "joins":
        joiner = rng.choice(["Zed", "", " ", names[0], 7, None])
        entry["joins"] = rng.choice(
            [
                rng.choice(NOT_MAPPINGS),
                {"name": joiner},
                {"name": joiner, "start": rng.choice(["highest", "zero", 40])},
                {"name": "Zed", "start": rng.choice(["high", -1, 10**6, 7.0, None, True])},
            ]
        )
        if isinstance(hands, dict):
            hands["Zed"] = 3
        if rng.random() < 0.3:
            record["players"] = [*players, *(f"P{n}" for n in range(8 - len(players)))]
    elif what == "after the end" and rounds:
        rounds.append(copy.deepcopy(rounds[-1]))
    elif what == "out player":
        rounds.append({"hands": dict.fromkeys(players, 0), "empty_hand": players[0]})
    elif what == "several":
        for _ in range(rng.randint(2, 4)):
            record = mutate(rng, record, rng.choice([*ROUND_MUTATIONS, "option", "names"]))[1]
    return what, record


@pytest.mark.slow  # 1,300 records through node
def test_the_js_engine_refuses_random_malformed_records_as_python(record_property):
    cases = []
    for index in range(INVALID_COUNT):
        rng = random.Random(INVALID_SEED + index)
        cases.append(mutate(rng, random_game(rng)))
    records = [record for _, record in cases]
    js, python, _ = run_both(records)
    assert_agree(records, js, python)

    codes = Counter(line["error"]["code"] for line in python if "error" in line)
    refused = sum(codes.values())
    print(f"\nJS = Python on {len(records)} malformed records: {refused} refused, same error")
    print(f"codes: {dict(codes)}")
    print(f"mutations: {dict(Counter(what for what, _ in cases))}")
    record_property("js_engine_malformed_records", len(records))
    record_property("js_engine_refused_records", refused)
    assert len(records) == len(js) == INVALID_COUNT
    assert refused >= 1_000
    # Every message the engine and the records can give was compared at least once.
    assert set(codes) == ENGINE_CODES, ENGINE_CODES - set(codes)


def test_python_values_read_and_printed_as_python_does():
    """The JSON reader and repr() of the port, on the values the messages can hold."""
    rng = random.Random(40_240_000)
    floats = [rng.uniform(-1e3, 1e3) for _ in range(200)]
    floats += [10.0 ** rng.randint(-30, 30) * rng.random() for _ in range(200)]
    floats += [0.0, -0.0, 1e16, 1e15, 1e-4, 1e-5, 123456789012345678.0, 0.1, 1 / 3, 5e-324]
    values: list[Any] = [*floats, *ODD_KEYS, *BAD_RULESETS, 2**53, 2**53 + 1, -(2**64), 10**21]
    records = [{"ruleset": value, "players": ["Ann", "Bart"]} for value in values]
    records += [{"options": {key: 1}, "players": ["Ann", "Bart"]} for key in ODD_KEYS]
    records += [
        {"players": ["Ann", "Bart"], "rounds": [{"hands": {"Ann": 0, "Bart": 1}, key: 1}]}
        for key in ODD_KEYS
    ]
    js, python, _ = run_both(records)
    assert_agree(records, js, python)
    assert all("error" in line for line in python)
    print(f"\nJS = Python on {len(records)} odd values in messages")
    assert len(records) == len(values) + 2 * len(ODD_KEYS) == 500


# A page has no `module`: the engine must attach itself to the window.
IN_A_PAGE = """
const fs = require("fs");
const vm = require("vm");
const window = {};
window.self = window;
vm.createContext(window);
vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), window);
const engine = window.YanivEngine;
console.log(JSON.stringify({
  api: Object.keys(engine).sort(),
  messages: engine.GAME_MESSAGES,
  warnings: engine.WARNING_MESSAGES,
  assaf: {choices: Object.values(engine.Assaf)},
  assaf_zero: {choices: Object.values(engine.AssafZero)},
  kinds: engine.RoundKind,
  marks: engine.Mark,
  options: engine.OPTIONS,
  presets: Array.from(engine.RULESETS.keys()),
}));
"""


def test_the_engine_is_a_page_script_with_pythons_messages_and_names():
    done = subprocess.run(
        [node(), "-e", IN_A_PAGE, str(ENGINE)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    for name in ("scoreRecord", "ruleset", "checkRound", "scoreGame", "roundKind", "handMark"):
        assert name in page["api"]
    assert "legend" in page["api"] and "GameError" in page["api"]
    assert page["messages"] == {code: GAME_MESSAGES[code] for code in sorted(ENGINE_CODES)}
    assert page["warnings"] == dict(WARNING_MESSAGES)
    assert page["assaf"] == {"choices": [str(choice) for choice in Assaf]}
    assert page["assaf_zero"] == {"choices": [str(choice) for choice in AssafZero]}
    assert sorted(page["kinds"].values()) == sorted(str(kind) for kind in RoundKind)
    assert sorted(page["marks"].values()) == sorted(str(mark) for mark in Mark)
    assert page["options"] == list(OPTIONS)
    assert page["presets"] == list(RULESETS)
