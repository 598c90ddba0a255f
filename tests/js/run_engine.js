#!/usr/bin/env node
// The JS engine (static/js/yaniv-engine.js) over game records, for the comparison with the
// Python engine in tests/scoring/test_js_engine.py.
//
// Reads one game record a line (JSON) on stdin and writes one line for each:
//   {"result": <the scored result of docs/game-record.md>}
//   {"error": {"code", "text", "field", "round", "player", "params"}}  (text: Python's str(error))
//   {"crash": "<stack>"}  (anything but a GameError: a bug of the port)
// With --sheet a scored line also holds "sheet": the legend, each round's marks (seat order) and
// warnings, the engine's neighbour, endsGame and outInRound, and the ruleset's fields and derived
// numbers.
// The records are read with YanivEngine.parseJSON (Python's reading: 7.0 is a float, objects keep
// their key order); with --plain, with JSON.parse into plain objects, as a page would build them.
//
//   node tests/js/run_engine.js [--sheet] [--plain] < records.jsonl
"use strict";

const fs = require("fs");
const path = require("path");

const YanivEngine = require(path.join(__dirname, "..", "..", "static", "js", "yaniv-engine.js"));

function sheetOf(record) {
  const game = YanivEngine.gameFromRecord(record);
  const scored = YanivEngine.scoreGame(game.players, game.rounds, game.ruleset);
  const rules = game.ruleset;
  return {
    legend: YanivEngine.legend(rules),
    marks: game.rounds.map((entries, index) =>
      game.players.map((player) => YanivEngine.handMark(entries, scored.rounds[index].kind, player))
    ),
    warnings: game.rounds.map((entries) =>
      YanivEngine.roundWarnings(entries, rules).map((warning) =>
        [warning.code, warning.player, warning.message]
      )
    ),
    neighbours: scored.rounds.map((round) => round.neighbour),
    ends_game: scored.rounds.map((round) => round.endsGame),
    out_in_round: Array.from(scored.outInRound),
    elimination: scored.elimination,
    ruleset: {
      name: rules.name,
      cards_dealt: rules.cardsDealt,
      face_values: rules.faceValues,
      highest_card: rules.highestCard,
      max_jokers: rules.maxJokers,
      joker_held: rules.jokerHeld,
      joker_value: rules.jokerValue,
      may_go_negative: rules.mayGoNegative,
      assaf_extra: rules.assafExtra,
      assaf_extra_penalty: rules.assafExtraPenalty,
      streak_bonus: rules.streakBonus,
      yaniv_limit: rules.yanivLimit,
      challenge: rules.challenge,
      scores_false_yaniv: rules.scoresFalseYaniv,
      refuses_above_limit: rules.refusesAboveLimit,
      yaniv_limit_warns: rules.yanivLimitWarns,
      assaf: rules.assaf,
      assaf_penalty: rules.assafPenalty,
      assaf_zero: rules.assafZero,
      assaf_lowest_scores_zero: rules.assafLowestScoresZero,
      reduction_needs_points: rules.reductionNeedsPoints,
      false_yaniv: rules.falseYaniv,
      reduction_table: rules.reductionTable,
      reduce_multiples: rules.reduceMultiples,
      end: rules.end,
      end_above: rules.endAbove,
      deals_per_player: rules.dealsPerPlayer,
      deal_limits: [1, 2, 3, 4, 5, 6, 7, 8].map((count) => rules.dealLimit(count)),
      one_deck_up_to: rules.oneDeckUpTo,
      max_hand: rules.maxHand,
      max_round_points: rules.maxRoundPoints,
      automatic_assaf: rules.automaticAssaf,
      eliminates: rules.eliminates,
      reduction_steps: rules.reductionSteps,
      reduction_totals: rules.reductionTotals,
      reduction: rules.reduction,
      decks: [1, 2, 3, 4, 5, 6, 7, 8].map((count) => rules.decks(count)),
    },
  };
}

function outcome(line, sheet, read) {
  try {
    const record = read(line);
    try {
      const scored = {result: YanivEngine.scoreRecord(record)};
      if (sheet) scored.sheet = sheetOf(record);
      return scored;
    } catch (error) {
      if (!(error instanceof YanivEngine.GameError)) throw error;
      const params = {};
      for (const name of Object.keys(error.params)) {
        params[name] = YanivEngine.pyStr(error.params[name]);
      }
      return {
        error: {
          code: error.code,
          text: error.text,
          field: error.field,
          round: error.round,
          player: error.player,
          params,
        },
      };
    }
  } catch (crash) {
    return {crash: String(crash && crash.stack)};
  }
}

// Option numbers past 2**53 are BigInts: written as JSON's integers.
function toJSON(value) {
  const marked = (key, item) => (typeof item === "bigint" ? "\u0000big:" + item : item);
  return JSON.stringify(value, marked).replace(/"\\u0000big:(-?[0-9]+)"/g, "$1");
}

const sheet = process.argv.includes("--sheet");
const read = process.argv.includes("--plain") ? JSON.parse : YanivEngine.parseJSON;
const lines = fs.readFileSync(0, "utf8").split("\n").filter((line) => line.trim());
process.stdout.write(lines.map((line) => toJSON(outcome(line, sheet, read)) + "\n").join(""));
