// The Yaniv rules engine for the referee's phone: a port of the pure-Python engine
// (scoring/rules.py, scoring/records.py, scoring/errors.py and the marks of scoring/sheet.py).
//
// While the venue's Wi-Fi is down the table page scores each pending round with it, and must
// show exactly what the server will compute, so the Python engine is the reference and this file
// follows it function by function (the names are Python's in camelCase). Do not change a rule
// here alone: tests/scoring/test_js_engine.py runs both engines on every vector and thousands of
// random games and records and requires the same results and the same error texts.
// See docs/device-engine.md.
//
// ES2017, no dependencies, no build step. In a page: window.YanivEngine; in node: require().
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.YanivEngine = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // --- Python values ------------------------------------------------------------------------
  // The Python engine checks its input by Python types; JS values differ, so:
  // - an int is a whole JS number (or a BigInt); a bool is never an int (`type(x) is int`);
  // - a float is a JS number that is not whole, or a PyFloat: JSON's 7.0, which JS would read
  //   as the int 7 (parseJSON below keeps it a float, as Python's json does);
  // - a Mapping is a Map or a plain object (read as JSON.stringify would send it: keys whose
  //   value is undefined are left out), a list is an array.

  class PyFloat {
    constructor(value) {
      this.value = value;
    }
  }

  function isInt(value) {
    return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
  }

  function isStr(value) {
    return typeof value === "string";
  }

  function isMapping(value) {
    if (value instanceof Map) return true;
    return value !== null && typeof value === "object" && !Array.isArray(value) &&
      !(value instanceof PyFloat);
  }

  // (key, value) pairs in order: a Map keeps insertion order like a dict. A plain object lists
  // integer-like keys ("7") first, a JS rule; nothing but which of two bad options is reported
  // first depends on that order (docs/device-engine.md).
  function pairsOf(mapping) {
    if (mapping instanceof Map) return Array.from(mapping);
    return Object.keys(mapping)
      .filter((key) => mapping[key] !== undefined)
      .map((key) => [key, mapping[key]]);
  }

  // `mapping.get(key, fallback)`; undefined is a missing key.
  function get(mapping, key, fallback) {
    let value;
    if (mapping instanceof Map) value = mapping.get(key);
    else if (Object.prototype.hasOwnProperty.call(mapping, key)) value = mapping[key];
    return value === undefined ? fallback : value;
  }

  // `dict(mapping)`; always a Map, so a player called "__proto__" or "7" is just a key.
  function toMap(mapping) {
    return new Map(pairsOf(mapping));
  }

  // A Map as a plain object for JSON, keys in the Map's order (but for integer-like keys).
  function toObject(map) {
    const object = {};
    for (const [key, value] of map) {
      // Assigning "__proto__" would set the object's prototype: define it as a plain key.
      if (key === "__proto__") {
        const property = {value, enumerable: true, writable: true, configurable: true};
        Object.defineProperty(object, key, property);
      } else {
        object[key] = value;
      }
    }
    return object;
  }

  function setsEqual(first, second) {
    const a = new Set(first);
    const b = new Set(second);
    return a.size === b.size && Array.from(a).every((item) => b.has(item));
  }

  // Python's str.isspace() characters (JS's trim() differs: it keeps \x1c-\x1f and \x85, and
  // strips \ufeff, which Python keeps).
  const NOT_PY_SPACE = /[^\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

  // `not text.strip()`
  function isBlank(text) {
    return !NOT_PY_SPACE.test(text);
  }

  // Python sorts strings by code point; JS's default sort compares UTF-16 units.
  function byCodePoint(first, second) {
    const a = Array.from(first);
    const b = Array.from(second);
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      const difference = a[i].codePointAt(0) - b[i].codePointAt(0);
      if (difference) return difference;
    }
    return a.length - b.length;
  }

  // str.isprintable(): not Other (Cc, Cf, Cs, Co, Cn) nor Separator, but the space; by the
  // browser's Unicode version, which may be newer than Python's (docs/device-engine.md).
  // Unicode property escapes are ES2018: without them, only Latin-1's are known.
  const NOT_PRINTABLE = (function () {
    try {
      return new RegExp("[\\p{C}\\p{Z}]", "u");
    } catch (unsupported) {
      return /[\x80-\xa0\xad]/;
    }
  })();

  function hex(code, width) {
    return code.toString(16).padStart(width, "0");
  }

  // repr(str): single quotes unless the text holds ' and no ".
  function reprStr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let out = quote;
    for (const char of text) {
      const code = char.codePointAt(0);
      if (char === quote || char === "\\") out += "\\" + char;
      else if (char === "\t") out += "\\t";
      else if (char === "\n") out += "\\n";
      else if (char === "\r") out += "\\r";
      else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
      else if (code < 0x7f || !NOT_PRINTABLE.test(char)) out += char;
      else if (code <= 0xff) out += "\\x" + hex(code, 2);
      else if (code <= 0xffff) out += "\\u" + hex(code, 4);
      else out += "\\U" + hex(code, 8);
    }
    return out + quote;
  }

  // repr(float): the shortest digits that read back (as JS's), positioned like Python: plain
  // from 1e-4 to 1e16, with at least one decimal ("7.0"), else "1e+16", "1.5e-05".
  function reprFloat(number) {
    if (number !== number) return "nan";
    if (number === Infinity) return "inf";
    if (number === -Infinity) return "-inf";
    const parts = number.toExponential().split("e");
    const exponent = Number(parts[1]);
    const sign = number < 0 || Object.is(number, -0) ? "-" : "";
    const digits = parts[0].replace("-", "").replace(".", "");
    if (exponent < -4 || exponent >= 16) {
      const mantissa = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "");
      const power = String(Math.abs(exponent)).padStart(2, "0");
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power;
    }
    if (exponent < 0) return sign + "0." + "0".repeat(-exponent - 1) + digits;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    return sign + whole + "." + (digits.slice(exponent + 1) || "0");
  }

  function reprInt(number) {
    // Whole doubles from 1e21 up print with an exponent in JS, never in Python.
    if (Math.abs(number) < 1e21 || typeof BigInt !== "function") {
      return String(number === 0 ? 0 : number);
    }
    return BigInt(number).toString();
  }

  // repr() of a JSON value.
  function pyRepr(value) {
    if (value === null || value === undefined) return "None";
    if (value === true) return "True";
    if (value === false) return "False";
    if (typeof value === "string") return reprStr(value);
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number") {
      return Number.isInteger(value) ? reprInt(value) : reprFloat(value);
    }
    if (value instanceof PyFloat) return reprFloat(value.value);
    if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
    if (isMapping(value)) {
      const items = pairsOf(value).map((pair) => pyRepr(pair[0]) + ": " + pyRepr(pair[1]));
      return "{" + items.join(", ") + "}";
    }
    return String(value);
  }

  // str() of a JSON value: a text as it is, the rest as repr.
  function pyStr(value) {
    return typeof value === "string" ? value : pyRepr(value);
  }

  // `template % params` for the "%(name)s" placeholders of the messages.
  function pyFormat(template, params) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => pyStr(params[name]));
  }

  // An integer literal of JSON: exact like Python's int, a BigInt past 2**53.
  function jsonInt(literal) {
    const number = Number(literal);
    if (Number.isSafeInteger(number)) return number === 0 ? 0 : number;
    return typeof BigInt === "function" ? BigInt(literal) : number;
  }

  // One value for one int: a Number up to 2**53, a BigInt only past it (and never -0).
  function normInt(value) {
    if (typeof value === "bigint") {
      return Number.isSafeInteger(Number(value)) ? Number(value) : value;
    }
    return value === 0 ? 0 : value;
  }

  // JSON.parse as Python's json.loads reads it: objects are Maps in key order (a duplicate key
  // keeps its first place and its last value), 7.0 and 1e3 are floats (PyFloat), integers are
  // exact, and NaN, Infinity and -Infinity are accepted.
  function parseJSON(text) {
    let at = 0;
    const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
    const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
    const WORDS = [["true", true], ["false", false], ["null", null], ["NaN", new PyFloat(NaN)],
      ["Infinity", new PyFloat(Infinity)], ["-Infinity", new PyFloat(-Infinity)]];

    function fail() {
      throw new SyntaxError("invalid JSON at " + at);
    }
    function space() {
      while (at < text.length && " \t\n\r".includes(text[at])) at += 1;
    }
    function take(char) {
      space();
      if (text[at] !== char) return false;
      at += 1;
      return true;
    }
    function match(pattern) {
      pattern.lastIndex = at;
      const found = pattern.exec(text);
      if (found) at = pattern.lastIndex;
      return found;
    }
    function string() {
      space();
      const found = match(STRING);
      if (!found) fail();
      return JSON.parse(found[0]);
    }
    function value() {
      space();
      if (take("{")) {
        const object = new Map();
        if (take("}")) return object;
        do {
          const key = string();
          if (!take(":")) fail();
          object.set(key, value());
        } while (take(","));
        if (!take("}")) fail();
        return object;
      }
      if (take("[")) {
        const array = [];
        if (take("]")) return array;
        do array.push(value()); while (take(","));
        if (!take("]")) fail();
        return array;
      }
      if (text[at] === '"') return string();
      for (const [word, meaning] of WORDS) {
        if (text.startsWith(word, at)) {
          at += word.length;
          return meaning;
        }
      }
      const found = match(NUMBER);
      if (!found) fail();
      return found[1] || found[2] ? new PyFloat(Number(found[0])) : jsonInt(found[0]);
    }
    const result = value();
    space();
    if (at !== text.length) fail();
    return result;
  }

  // --- errors (scoring/errors.py) -----------------------------------------------------------

  // The English messages of the codes the engine and the records raise (GAME_MESSAGES).
  const GAME_MESSAGES = Object.freeze({
    hands_name_players: "hands must name every player still in the game exactly once",
    hand_range: "hand of %(player)s must be an integer 0-%(max)s",
    one_ending: "exactly one of yaniv / empty_hand",
    no_along_under_assaf: "nobody goes along under the %(ruleset)s rules",
    empty_hand_unknown: "empty_hand must name a player in the game",
    empty_hand_not_zero: "an emptied hand is 0",
    no_along_after_empty_hand: "nobody can go along when a hand was emptied",
    caller_unknown: "yaniv must name a player in the game",
    caller_along: "the caller cannot go along",
    along_players: "along must list players in the game once",
    above_yaniv_limit: "Yaniv needs a hand of %(limit)s or less",
    game_over: "the game is already over",
    player_count: "%(low)s to %(high)s names",
    player_name_empty: "every name must be a non-empty text",
    player_name_twice: "duplicate name",
    options_object: "options must be an object",
    option_unknown: "unknown option %(option)s",
    option_whole_number: "%(option)s must be a whole number from %(low)s to %(high)s",
    option_choice: "%(option)s must be one of %(choices)s",
    option_true_false: "%(option)s must be true or false",
    option_pairs: "%(option)s needs pairs of whole numbers",
    reductions_list: "reductions must be a list of [total, becomes] pairs",
    reductions_count: "reductions: at most %(most)s pairs",
    reductions_total: "reductions: a total must be a whole number from %(low)s to %(high)s",
    reductions_smaller: "reductions: a total must become a smaller total, 0 or more",
    reductions_once: "reductions: each total once",
    reduce_multiples_every: "reduce_multiples: every must be a whole number from %(low)s to %(high)s",
    reduce_multiples_range: "reduce_multiples: [every, minus] with 0 < minus <= every",
    yaniv_limit_above_hand: "yaniv_limit must be at most the largest hand, %(max)s",
    record_object: "a game record must be a JSON object",
    ruleset_unknown: "unknown %(name)s",
    players_list: "players must be a list of names",
    rounds_list: "rounds must be a list",
    round_object: "a round must be an object",
    round_field_unknown: "unknown field %(name)s",
    hands_object: "hands must be an object of player: hand total",
    along_list: "along must be a list of players",
    name_a_player: "%(name)s must name a player",
  });

  // Bad input. `text` is Python's str(error): "round 3: ..." or "<field>: ...".
  class GameError extends Error {
    constructor(code, field, round, player, params) {
      const all = Object.assign({}, params);
      if (player !== null && player !== undefined && !("player" in all)) all.player = player;
      const message = pyFormat(GAME_MESSAGES[code], all);
      super(message);
      this.name = "GameError";
      this.code = code;
      this.field = field;
      this.round = round === undefined ? null : round;
      this.player = player === undefined ? null : player;
      this.params = all;
      this.message = message;
      this.text = (this.round === null ? field : "round " + this.round) + ": " + message;
    }

    toString() {
      return this.text;
    }
  }

  // What the engine warns a referee of in a round it scores (WARNING_MESSAGES).
  const WARNING_MESSAGES = Object.freeze({
    call_above_limit:
      "%(player)s called Yaniv with %(hand)s, above the limit of %(limit)s: " +
      "scored as any other call",
  });

  // Something a referee should know about a round that is still scored (GameWarning):
  // `message` is Python's str(warning).
  class GameWarning {
    constructor(code, player, params) {
      const all = Object.assign({}, params);
      if (player !== null && player !== undefined && !("player" in all)) all.player = player;
      this.code = code;
      this.player = player === undefined ? null : player;
      this.params = all;
      this.message = pyFormat(WARNING_MESSAGES[code], all);
      Object.freeze(this);
    }

    toString() {
      return this.message;
    }
  }

  // --- the rule sets (scoring/rules.py) -------------------------------------------------------

  const FalseYaniv = Object.freeze({
    // The default: only the caller is penalised.
    OTHERS_SCORE_ZERO: "others_score_zero",
    // Everyone else scores their hand, as if the round had ended normally.
    OTHERS_SCORE_HAND: "others_score_hand",
  });
  const Challenge = Object.freeze({ALONG: "along", ASSAF: "assaf"});
  // What the caller caught by an Assaf scores: their hand + the penalty, or the penalty alone.
  const Assaf = Object.freeze({HAND_PLUS: "hand_plus", FLAT: "flat"});
  // Who scores 0 in an Assaf: nobody, the lowest challenger(s) (wikipedia_en), or every player
  // at or below the caller's hand.
  const AssafZero = Object.freeze({
    NOBODY: "nobody",
    LOWEST: "lowest",
    AT_OR_BELOW_CALLER: "at_or_below_caller",
  });
  const End = Object.freeze({GAME_OVER: "game_over", ELIMINATION: "elimination"});
  const RoundKind = Object.freeze({
    YANIV: "yaniv",
    FALSE_YANIV: "false_yaniv",
    EMPTY_HAND: "empty_hand",
    // Automatic Assaf: someone else held the same or fewer points than the caller.
    ASSAF: "assaf",
  });

  function choices(enumeration) {
    return Object.keys(enumeration).map((key) => enumeration[key]);
  }

  // Every number of the rules: the defaults are Belgian, the championship standard.
  const DEFAULTS = Object.freeze({
    name: "belgian",
    minPlayers: 2,
    maxPlayers: 8,
    cardsDealt: 5,
    yanivLimit: 5,
    challenge: Challenge.ALONG,
    alongPenalty: 32,
    // Automatic Assaf: the caller scores their hand plus the penalty, once, or exactly the
    // penalty (Assaf.FLAT).
    assaf: Assaf.HAND_PLUS,
    assafPenalty: 30,
    // Who scores 0 in an Assaf (wikipedia_en: the lowest challenger(s)).
    assafZero: AssafZero.NOBODY,
    // The preset's rule for a call above the limit: a false Yaniv (Belgian), else refused as bad
    // input. yanivLimitWarns overrides both: see scoresFalseYaniv.
    falseYanivAboveLimit: true,
    // A house rule: the limit only warns; a call above it is scored as any other call.
    yanivLimitWarns: false,
    falseYanivPenalty: 32,
    falseYaniv: FalseYaniv.OTHERS_SCORE_ZERO,
    // [total, becomes]: a positive round landing exactly on `total` leaves the player on `becomes`.
    reductionTable: [[50, 0], [100, 50], [150, 100]],
    // [every, minus]: any other positive multiple of `every` loses `minus` (wikipedia_en: 50, 50).
    reduceMultiples: null,
    // A player who stays on 50 with 0 points is not reduced again; a reduction needs an arrival.
    reductionNeedsPoints: true,
    end: End.GAME_OVER,
    endAbove: 150,
    // "Each player deals N times": the game is over after N x the players' count rounds, or above
    // endAbove if that comes first (0: no such limit).
    dealsPerPlayer: 0,
    // Players with one deck at most; more players play with two.
    oneDeckUpTo: 4,
  });

  function freezePairs(pairs) {
    return pairs === null ? null : Object.freeze(pairs.map((pair) => Object.freeze(pair.slice())));
  }

  // The bounds of the options (Python's MAX_TOTAL, MAX_REDUCTION_PAIRS, MIN_EVERY, ...).
  const MAX_TOTAL = 10000;
  const MAX_REDUCTION_PAIRS = 20;
  const MIN_EVERY = 10;
  const MAX_ASSAF_PENALTY = 100;
  const MAX_DEALS_PER_PLAYER = 50;

  // A ruleset's reductionSteps, computed once (a Ruleset is frozen).
  const STEPS = new WeakMap();

  // a - b for option numbers, which may be BigInts (past 2**53) where Python's ints are exact.
  function subtract(a, b) {
    if (typeof a !== "bigint" && typeof b !== "bigint") return a - b;
    return normInt(BigInt(a) - BigInt(b));
  }

  class Ruleset {
    constructor(fields) {
      Object.assign(this, DEFAULTS, fields);
      this.reductionTable = freezePairs(this.reductionTable);
      this.reduceMultiples = this.reduceMultiples && Object.freeze(this.reduceMultiples.slice());
      Object.freeze(this);
    }

    get maxHand() {
      return 10 * this.cardsDealt;
    }

    get automaticAssaf() {
      return this.challenge === Challenge.ASSAF;
    }

    get eliminates() {
      return this.end === End.ELIMINATION;
    }

    // A call above the limit is scored as a false Yaniv (Belgian, unless the limit warns).
    get scoresFalseYaniv() {
      return this.falseYanivAboveLimit && !this.yanivLimitWarns;
    }

    // A call above the limit is refused as bad input (the other presets).
    get refusesAboveLimit() {
      return !this.falseYanivAboveLimit && !this.yanivLimitWarns;
    }

    // The lowest challenger(s) score 0 in an Assaf (wikipedia_en).
    get assafLowestScoresZero() {
      return this.assafZero === AssafZero.LOWEST;
    }

    // The most points one player can score in one round (an upper bound): a hand; a Belgian
    // caller and 7 players along (224); a false Yaniv; an Assaf's caller.
    get maxRoundPoints() {
      let most = this.maxHand;
      if (this.challenge === Challenge.ALONG) {
        most = Math.max(most, this.alongPenalty * (this.maxPlayers - 1));
      } else if (this.assaf === Assaf.FLAT) {
        most = Math.max(most, this.assafPenalty);
      } else {
        const caller = this.yanivLimitWarns ? this.maxHand : this.yanivLimit;
        most = Math.max(most, caller + this.assafPenalty);
      }
      if (this.scoresFalseYaniv) most = Math.max(most, this.falseYanivPenalty + this.maxHand);
      return most;
    }

    // [total, becomes] for every total a positive round can land on and be reduced: the table's
    // totals, and the multiples of reduceMultiples up to endAbove + maxRoundPoints (a total above
    // the limit can come back under it). A total of the table keeps its own entry. Computed once.
    get reductionSteps() {
      let steps = STEPS.get(this);
      if (steps === undefined) {
        const table = new Map(this.reductionTable.map((pair) => [pair[0], pair[1]]));
        if (this.reduceMultiples !== null) {
          const [every, minus] = this.reduceMultiples;
          const highest = this.endAbove + this.maxRoundPoints;
          for (let total = every; total <= highest; total += every) {
            if (!table.has(total)) table.set(total, total - minus);
          }
        }
        steps = Object.freeze(
          Array.from(table)
            .sort((a, b) => compareNumbers(a[0], b[0]))
            .map((step) => Object.freeze(step))
        );
        STEPS.set(this, steps);
      }
      return steps;
    }

    // The totals that are reduced (50, 100, 150 under belgian).
    get reductionTotals() {
      return this.reductionSteps.map((step) => step[0]);
    }

    // What every reduction takes off when that is one amount (50 under belgian), else null.
    get reduction() {
      const amounts = new Set(this.reductionSteps.map((step) => subtract(step[0], step[1])));
      return amounts.size === 1 ? Array.from(amounts)[0] : null;
    }

    decks(playerCount) {
      return playerCount <= this.oneDeckUpTo ? 1 : 2;
    }

    // The most rounds a game of playerCount players lasts (dealsPerPlayer), or null without.
    dealLimit(playerCount) {
      return this.dealsPerPlayer ? this.dealsPerPlayer * playerCount : null;
    }

    // This ruleset with the options of a game record applied, in the record's order.
    withOptions(options) {
      if (!isMapping(options)) throw new GameError("options_object", "options");
      const changes = {};
      for (const [option, value] of pairsOf(options)) {
        if (!OPTIONS.has(option)) throw optionError("option_unknown", {option: pyRepr(option)});
        const [attribute, parse] = OPTIONS.get(option);
        changes[attribute] = parse(value);
      }
      const changed = new Ruleset(Object.assign({}, this, changes));
      checkRuleset(changed);
      return changed;
    }
  }

  // --- options of a game record ---------------------------------------------------------------

  function optionError(code, params) {
    return new GameError(code, "options", null, null, params);
  }

  function wholeNumber(option, low, high) {
    return (value) => {
      if (!isInt(value) || !(low <= value && value <= high)) {
        throw optionError("option_whole_number", {option, low, high});
      }
      return Number(value);
    };
  }

  function choice(option, enumeration) {
    return (value) => {
      if (isStr(value) && choices(enumeration).includes(value)) return value;
      throw optionError("option_choice", {option, choices: choices(enumeration).join(", ")});
    };
  }

  function trueFalse(option) {
    return (value) => {
      if (value !== true && value !== false) throw optionError("option_true_false", {option});
      return value;
    };
  }

  function reductionPair(option, value) {
    if (!Array.isArray(value) || value.length !== 2 || !value.every(isInt)) {
      throw optionError("option_pairs", {option});
    }
    return [normInt(value[0]), normInt(value[1])];
  }

  function compareNumbers(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  // [[total, becomes], ...]: e.g. [[100, 50], [200, 100]] (israeli); kept sorted.
  function parseReductions(value) {
    if (!Array.isArray(value)) throw optionError("reductions_list");
    if (value.length > MAX_REDUCTION_PAIRS) {
      throw optionError("reductions_count", {most: MAX_REDUCTION_PAIRS});
    }
    const pairs = value.map((pair) => reductionPair("reductions", pair));
    for (const [total, becomes] of pairs) {
      if (!(1 <= total && total <= MAX_TOTAL)) {
        throw optionError("reductions_total", {low: 1, high: MAX_TOTAL});
      }
      if (!(0 <= becomes && becomes < total)) throw optionError("reductions_smaller");
    }
    if (new Set(pairs.map((pair) => pair[0])).size !== pairs.length) {
      throw optionError("reductions_once");
    }
    return pairs.sort((a, b) => compareNumbers(a[0], b[0]) || compareNumbers(a[1], b[1]));
  }

  // [every, minus] or null: e.g. [50, 50] (wikipedia_en).
  function parseReduceMultiples(value) {
    if (value === null) return null;
    const [every, minus] = reductionPair("reduce_multiples", value);
    if (!(MIN_EVERY <= every && every <= MAX_TOTAL)) {
      throw optionError("reduce_multiples_every", {low: MIN_EVERY, high: MAX_TOTAL});
    }
    if (!(0 < minus && minus <= every)) throw optionError("reduce_multiples_range");
    return [every, minus];
  }

  // option name -> [Ruleset attribute, parse a JSON value], in Python's order.
  const OPTIONS = new Map([
    ["false_yaniv", ["falseYaniv", choice("false_yaniv", FalseYaniv)]],
    ["yaniv_limit", ["yanivLimit", wholeNumber("yaniv_limit", 0, 50)]],
    ["reductions", ["reductionTable", parseReductions]],
    ["reduce_multiples", ["reduceMultiples", parseReduceMultiples]],
    ["end", ["end", choice("end", End)]],
    ["end_above", ["endAbove", wholeNumber("end_above", 1, MAX_TOTAL)]],
    [
      "deals_per_player",
      ["dealsPerPlayer", wholeNumber("deals_per_player", 0, MAX_DEALS_PER_PLAYER)],
    ],
    ["cards_dealt", ["cardsDealt", wholeNumber("cards_dealt", 1, 5)]],
    ["one_deck_up_to", ["oneDeckUpTo", wholeNumber("one_deck_up_to", 1, 8)]],
    ["assaf", ["assaf", choice("assaf", Assaf)]],
    ["assaf_penalty", ["assafPenalty", wholeNumber("assaf_penalty", 0, MAX_ASSAF_PENALTY)]],
    ["assaf_zero", ["assafZero", choice("assaf_zero", AssafZero)]],
    ["reduction_needs_points", ["reductionNeedsPoints", trueFalse("reduction_needs_points")]],
    ["yaniv_limit_warns", ["yanivLimitWarns", trueFalse("yaniv_limit_warns")]],
  ]);

  // Options that only make sense together.
  function checkRuleset(ruleset) {
    if (ruleset.yanivLimit > ruleset.maxHand) {
      throw optionError("yaniv_limit_above_hand", {max: ruleset.maxHand});
    }
  }

  const BELGIAN = new Ruleset({});
  // pagat: automatic Assaf, 100 -> 50 and 200 -> 100, above 200 a player is out.
  const ISRAELI = new Ruleset({
    name: "israeli",
    challenge: Challenge.ASSAF,
    falseYanivAboveLimit: false,
    reductionTable: [[100, 50], [200, 100]],
    end: End.ELIMINATION,
    endAbove: 200,
  });
  // English Wikipedia: Yaniv at 7, the lowest challenger scores 0, multiples of 50 - 50.
  const WIKIPEDIA_EN = new Ruleset({
    name: "wikipedia_en",
    yanivLimit: 7,
    challenge: Challenge.ASSAF,
    assafZero: AssafZero.LOWEST,
    falseYanivAboveLimit: false,
    reductionTable: [],
    reduceMultiples: [50, 50],
    endAbove: 200,
  });
  // French Wikipedia: Yaniv at 7, 100 -> 50 and 200 -> 150.
  const WIKIPEDIA_FR = new Ruleset({
    name: "wikipedia_fr",
    yanivLimit: 7,
    challenge: Challenge.ASSAF,
    falseYanivAboveLimit: false,
    reductionTable: [[100, 50], [200, 150]],
    endAbove: 200,
  });
  const RULESETS = new Map(
    [BELGIAN, ISRAELI, WIKIPEDIA_EN, WIKIPEDIA_FR].map((ruleset) => [ruleset.name, ruleset])
  );

  // RULESETS[name].with_options(options)
  function ruleset(name, options) {
    if (!isStr(name) || !RULESETS.has(name)) {
      throw new GameError("ruleset_unknown", "ruleset", null, null, {name});
    }
    return RULESETS.get(name).withOptions(options === undefined ? new Map() : options);
  }

  // --- the game and its rounds -----------------------------------------------------------------

  const ROUNDS = new WeakSet();

  // The referee's raw entries for one round: `hands` (a Map or an object of player: hand total),
  // exactly one of `yaniv` (the caller) and `emptyHand`, and `along`, who went along with a Yaniv.
  // Under elimination `hands` names only the players still in.
  function Round(entries) {
    const round = Object.freeze({
      hands: new Map(pairsOf(entries.hands).map((pair) => [pair[0], normInt(pair[1])])),
      yaniv: entries.yaniv === undefined ? null : entries.yaniv,
      along: Object.freeze(Array.from(entries.along || [])),
      emptyHand: entries.emptyHand === undefined ? null : entries.emptyHand,
    });
    ROUNDS.add(round);
    return round;
  }

  function asRound(entries) {
    return ROUNDS.has(entries) ? entries : Round(entries);
  }

  // --- validation ---------------------------------------------------------------------------

  function checkPlayers(players, ruleset) {
    ruleset = ruleset || BELGIAN;
    if (!(ruleset.minPlayers <= players.length && players.length <= ruleset.maxPlayers)) {
      throw new GameError("player_count", "players", null, null, {
        low: ruleset.minPlayers,
        high: ruleset.maxPlayers,
      });
    }
    for (const player of players) {
      if (!isStr(player) || isBlank(player)) throw new GameError("player_name_empty", "players");
    }
    if (new Set(players).size !== players.length) {
      throw new GameError("player_name_twice", "players");
    }
  }

  // A bool is not a hand total, nor is 7.0 (type(hand) is int).
  function isValidHand(hand, ruleset) {
    return isInt(hand) && 0 <= hand && hand <= (ruleset || BELGIAN).maxHand;
  }

  // Throw a GameError for the first thing wrong with one round's entries. `players` are the
  // players who play the round: under elimination, those still in.
  function checkRound(players, entries, number, ruleset) {
    ruleset = ruleset || BELGIAN;
    entries = asRound(entries);
    const error = (code, field, player, params) =>
      new GameError(code, field, number, player, params);
    const hands = entries.hands;

    if (!setsEqual(hands.keys(), players) || hands.size !== players.length) {
      throw error("hands_name_players", "hands");
    }
    for (const player of players) {
      if (!isValidHand(hands.get(player), ruleset)) {
        throw error("hand_range", "hands", player, {max: ruleset.maxHand});
      }
    }
    if ((entries.yaniv === null) === (entries.emptyHand === null)) {
      throw error("one_ending", "ending");
    }
    if (ruleset.automaticAssaf && entries.along.length) {
      throw error("no_along_under_assaf", "along", null, {ruleset: ruleset.name});
    }
    if (entries.emptyHand !== null) {
      if (!hands.has(entries.emptyHand)) throw error("empty_hand_unknown", "empty_hand");
      if (hands.get(entries.emptyHand) !== 0) {
        throw error("empty_hand_not_zero", "empty_hand", entries.emptyHand);
      }
      if (entries.along.length) throw error("no_along_after_empty_hand", "along");
      return;
    }
    if (entries.yaniv === null || !hands.has(entries.yaniv)) throw error("caller_unknown", "yaniv");
    if (entries.along.includes(entries.yaniv)) throw error("caller_along", "along", entries.yaniv);
    if (new Set(entries.along).size !== entries.along.length ||
        !entries.along.every((player) => players.includes(player))) {
      throw error("along_players", "along");
    }
    if (ruleset.refusesAboveLimit && hands.get(entries.yaniv) > ruleset.yanivLimit) {
      throw error("above_yaniv_limit", "yaniv", entries.yaniv, {limit: ruleset.yanivLimit});
    }
  }

  // What a referee is warned of in a valid round: a call above a limit that only warns.
  function roundWarnings(entries, ruleset) {
    entries = asRound(entries);
    ruleset = ruleset || BELGIAN;
    const caller = entries.yaniv;
    if (ruleset.yanivLimitWarns && caller !== null) {
      const hand = entries.hands.get(caller);
      if (hand > ruleset.yanivLimit) {
        return [new GameWarning("call_above_limit", caller, {hand, limit: ruleset.yanivLimit})];
      }
    }
    return [];
  }

  // --- the rules, one function each ------------------------------------------------------------

  // The next seat clockwise; the last seat's neighbour is seat 1 (indexes are never negative,
  // so JS's % is Python's here).
  function leftNeighbour(players, player) {
    return players[(players.indexOf(player) + 1) % players.length];
  }

  // A valid Yaniv: along players are compared with the caller.
  function yanivPoints(entries, ruleset) {
    const caller = entries.yaniv;
    const callerHand = entries.hands.get(caller);
    const points = new Map(entries.hands);
    points.set(caller, 0);
    for (const player of entries.along) {
      if (entries.hands.get(player) <= callerHand) {
        points.set(player, 0);
        points.set(caller, points.get(caller) + ruleset.alongPenalty);
      } else {
        points.set(player, ruleset.alongPenalty);
      }
    }
    return points;
  }

  // Automatic Assaf: the caller's hand is not lower than every other hand.
  function someoneHasSameOrFewer(entries) {
    const caller = entries.yaniv;
    const callerHand = entries.hands.get(caller);
    return Array.from(entries.hands).some(
      ([player, hand]) => player !== caller && hand <= callerHand
    );
  }

  // An Assaf: the caller scores own hand + 30 (once), everyone else their hand. With assaf
  // "flat" the caller scores the penalty alone. Who else scores 0 is assafZero: nobody, the
  // challenger(s) with the lowest hand (wikipedia_en), or every player at or below the caller.
  function assafPoints(entries, ruleset) {
    const caller = entries.yaniv;
    const callerHand = entries.hands.get(caller);
    const points = new Map(entries.hands);
    if (ruleset.assaf === Assaf.FLAT) points.set(caller, ruleset.assafPenalty);
    else points.set(caller, callerHand + ruleset.assafPenalty);
    if (ruleset.assafZero === AssafZero.NOBODY) return points;
    const others = Array.from(entries.hands).filter((pair) => pair[0] !== caller);
    const below = ruleset.assafZero === AssafZero.LOWEST
      ? Math.min.apply(null, others.map((pair) => pair[1]))
      : callerHand;
    for (const [player, hand] of others) {
      if (hand <= below) points.set(player, 0);
    }
    return points;
  }

  // A call above the limit: 32 plus the left neighbour's hand for the caller.
  function falseYanivPoints(players, entries, ruleset) {
    const caller = entries.yaniv;
    let points;
    if (ruleset.falseYaniv === FalseYaniv.OTHERS_SCORE_HAND) points = new Map(entries.hands);
    else points = new Map(Array.from(entries.hands.keys()).map((player) => [player, 0]));
    const neighbour = leftNeighbour(players, caller);
    points.set(caller, ruleset.falseYanivPenalty + entries.hands.get(neighbour));
    return points;
  }

  // An emptied hand: everyone scores their hand, the emptier's being 0.
  function emptyHandPoints(entries) {
    return new Map(entries.hands);
  }

  // What the reduction table takes off a total reached exactly (0: not reduced). The table's own
  // totals come first; then any positive multiple of the `reduceMultiples` rule. Totals are
  // never negative (points are not, and a reduction leaves 0 or more), so % is Python's.
  // Option numbers past 2**53 (BigInt) can never equal a total: Number() compares them safely.
  function reductionAt(total, ruleset) {
    for (const [reduced, becomes] of ruleset.reductionTable) {
      if (total === Number(reduced)) return Number(reduced) - Number(becomes);
    }
    if (ruleset.reduceMultiples !== null) {
      const [every, minus] = ruleset.reduceMultiples;
      if (total > 0 && total % Number(every) === 0) return Number(minus);
    }
    return 0;
  }

  // Landing exactly on a total of the table after a positive round: reduce it, once.
  function reductionFor(previous, points, ruleset) {
    if (ruleset.reductionNeedsPoints && points <= 0) return 0;
    return reductionAt(previous + points, ruleset);
  }

  function roundKind(entries, ruleset) {
    entries = asRound(entries);
    ruleset = ruleset || BELGIAN;
    if (entries.emptyHand !== null) return RoundKind.EMPTY_HAND;
    // A limit that only warns makes no false Yaniv: the call is compared as any other.
    if (entries.hands.get(entries.yaniv) > ruleset.yanivLimit && !ruleset.yanivLimitWarns) {
      return RoundKind.FALSE_YANIV;
    }
    if (ruleset.automaticAssaf && someoneHasSameOrFewer(entries)) return RoundKind.ASSAF;
    return RoundKind.YANIV;
  }

  // Game over (not under elimination): any total above the limit.
  function isOver(totals, ruleset) {
    return Array.from(totals.values()).some((total) => total > ruleset.endAbove);
  }

  // The players who have not been eliminated, seat order.
  function stillIn(players, out) {
    const gone = new Set(out);
    return players.filter((player) => !gone.has(player));
  }

  // Elimination: every player above the limit is out, seat order. If that is every player still
  // in, the lowest total stays in (and wins when alone); players tied for it all stay in.
  function playersGoingOut(playing, totals, ruleset) {
    const above = playing.filter((player) => totals.get(player) > ruleset.endAbove);
    if (above.length < playing.length) return above;
    const lowest = Math.min.apply(null, playing.map((player) => totals.get(player)));
    return above.filter((player) => totals.get(player) !== lowest);
  }

  // Elimination: one player left; otherwise a total above the limit.
  function isGameOver(totals, playing, ruleset) {
    if (ruleset.eliminates) return playing.length <= 1;
    return isOver(totals, ruleset);
  }

  // After `played` rounds every player has dealt dealsPerPlayer times: the game is over, whatever
  // the totals. The seated players count, also those out under elimination.
  function isDealtOut(played, players, ruleset) {
    const limit = ruleset.dealLimit(players.length);
    return limit !== null && played >= limit;
  }

  // --- scoring --------------------------------------------------------------------------------

  function roundPoints(kind, playing, entries, ruleset) {
    if (kind === RoundKind.YANIV) return yanivPoints(entries, ruleset);
    if (kind === RoundKind.ASSAF) return assafPoints(entries, ruleset);
    if (kind === RoundKind.FALSE_YANIV) return falseYanivPoints(playing, entries, ruleset);
    return emptyHandPoints(entries);
  }

  // Score one round on top of the totals before it (a Map). `out`: the players eliminated in
  // earlier rounds (elimination only); they have no hand and keep their total.
  function scoreRound(players, previousTotals, entries, number, ruleset, out) {
    ruleset = ruleset || BELGIAN;
    entries = asRound(entries);
    previousTotals = previousTotals instanceof Map ? previousTotals : toMap(previousTotals);
    const playing = stillIn(players, out || []);
    if (isGameOver(previousTotals, playing, ruleset) || isDealtOut(number - 1, players, ruleset)) {
      throw new GameError("game_over", "rounds", number);
    }
    checkRound(playing, entries, number, ruleset);
    const kind = roundKind(entries, ruleset);
    const points = roundPoints(kind, playing, entries, ruleset);
    const neighbour = kind === RoundKind.FALSE_YANIV ? leftNeighbour(playing, entries.yaniv) : null;
    const reductions = new Map();
    const totals = new Map(players.map((player) => [player, previousTotals.get(player) || 0]));
    for (const player of playing) {
      const reduction = reductionFor(totals.get(player), points.get(player), ruleset);
      if (reduction) reductions.set(player, reduction);
      totals.set(player, totals.get(player) + points.get(player) - reduction);
    }
    const eliminated = ruleset.eliminates ? playersGoingOut(playing, totals, ruleset) : [];
    return Object.freeze({
      number,
      kind,
      // Points and reductions of the players who played the round, seat order.
      points: new Map(playing.map((player) => [player, points.get(player)])),
      reductions,
      // Every player's total, seat order; an eliminated player keeps their last one.
      totals,
      // The player whose hand is added to a false Yaniv's penalty.
      neighbour,
      endsGame: isGameOver(totals, stillIn(playing, eliminated), ruleset) ||
        isDealtOut(number, players, ruleset),
      // Under elimination: who went out after this round, seat order.
      eliminated,
    });
  }

  // Lowest total first; equal totals share a rank (1, 1, 3), seat order within. Under
  // elimination (`outInRound`: player -> the round they went out) the players still in come
  // first, then the later a player went out the better, then by total.
  function rank(players, totals, outInRound) {
    totals = totals instanceof Map ? totals : toMap(totals);
    // `out_in_round or {}`
    let wentOut = outInRound || new Map();
    wentOut = wentOut instanceof Map ? wentOut : toMap(wentOut);
    // (-round went out, total): Infinity for a player still in, and tuples compare in order.
    const standing = (player) => [
      wentOut.has(player) ? -wentOut.get(player) : -Infinity,
      totals.get(player),
    ];
    const before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
    const order = (a, b) => {
      if (before(a.standing, b.standing)) return -1;
      return before(b.standing, a.standing) ? 1 : a.seat - b.seat;
    };
    const ordered = players
      .map((player, seat) => ({player, seat, standing: standing(player)}))
      .sort(order);
    return ordered.map((entry) => Object.freeze({
      player: entry.player,
      rank: 1 + players.filter((other) => before(standing(other), entry.standing)).length,
      total: totals.get(entry.player),
    }));
  }

  // Score a whole game from its raw entries.
  function scoreGame(players, rounds, ruleset) {
    ruleset = ruleset || BELGIAN;
    players = Array.from(players);
    checkPlayers(players, ruleset);
    let totals = new Map(players.map((player) => [player, 0]));
    const outInRound = new Map();
    const results = [];
    Array.from(rounds).forEach((entries, index) => {
      const number = index + 1;
      const out = Array.from(outInRound.keys());
      const result = scoreRound(players, totals, entries, number, ruleset, out);
      results.push(result);
      totals = result.totals;
      for (const player of result.eliminated) outInRound.set(player, number);
    });
    const finished = isGameOver(totals, stillIn(players, outInRound.keys()), ruleset) ||
      isDealtOut(results.length, players, ruleset);
    const ranking = rank(players, totals, ruleset.eliminates ? outInRound : null);
    const first = ranking.filter((placing) => placing.rank === 1);
    return Object.freeze({
      players,
      rounds: results,
      totals,
      finished,
      ranking,
      winners: finished ? first.map((placing) => placing.player) : [],
      // The ruleset eliminates players (each round's result then lists `eliminated`).
      elimination: ruleset.eliminates,
      // Under elimination: player -> the round after which they went out.
      outInRound,
    });
  }

  // --- the game record (scoring/records.py) ----------------------------------------------------

  const ROUND_FIELDS = ["hands", "yaniv", "along", "empty_hand"];

  function roundFromRecord(entry, number) {
    const error = (code, field, params) => new GameError(code, field, number, null, params);
    if (!isMapping(entry)) throw error("round_object", "round");
    const unknown = pairsOf(entry)
      .map((pair) => pair[0])
      .filter((field) => !ROUND_FIELDS.includes(field))
      .sort(byCodePoint);
    if (unknown.length) throw error("round_field_unknown", "round", {name: pyRepr(unknown[0])});
    const hands = get(entry, "hands", null);
    if (!isMapping(hands)) throw error("hands_object", "hands");
    const along = get(entry, "along", []);
    if (!Array.isArray(along) || !along.every(isStr)) throw error("along_list", "along");
    const yaniv = get(entry, "yaniv", null);
    const emptyHand = get(entry, "empty_hand", null);
    for (const [field, value] of [["yaniv", yaniv], ["empty_hand", emptyHand]]) {
      if (value !== null && !isStr(value)) throw error("name_a_player", field, {name: field});
    }
    return Round({hands, yaniv, along, emptyHand});
  }

  // Validate the record's shape and build the game: {players, rounds, ruleset}.
  function gameFromRecord(record) {
    if (!isMapping(record)) throw new GameError("record_object", "record");
    const name = get(record, "ruleset", "belgian");
    if (!isStr(name) || !RULESETS.has(name)) {
      throw new GameError("ruleset_unknown", "ruleset", null, null, {name});
    }
    const rules = RULESETS.get(name).withOptions(get(record, "options", new Map()));
    const players = get(record, "players", null);
    if (!Array.isArray(players)) throw new GameError("players_list", "players");
    checkPlayers(players, rules);
    const rounds = get(record, "rounds", []);
    if (!Array.isArray(rounds)) throw new GameError("rounds_list", "rounds");
    return Object.freeze({
      players: Object.freeze(players.slice()),
      rounds: Object.freeze(rounds.map((entry, index) => roundFromRecord(entry, index + 1))),
      ruleset: rules,
    });
  }

  // One scored round; under elimination with the players who went out after it.
  function roundResultToRecord(result, elimination) {
    const record = {
      number: result.number,
      kind: result.kind,
      points: toObject(result.points),
      reductions: toObject(result.reductions),
      totals: toObject(result.totals),
    };
    if (elimination) record.eliminated = result.eliminated.slice();
    return record;
  }

  // The scored result, in the shape of docs/game-record.md (and of the vectors).
  function resultToRecord(result) {
    return {
      rounds: result.rounds.map((round) => roundResultToRecord(round, result.elimination)),
      totals: toObject(result.totals),
      finished: result.finished,
      ranking: result.ranking.map((placing) => ({
        player: placing.player,
        rank: placing.rank,
        total: placing.total,
      })),
      winners: result.winners.slice(),
    };
  }

  // result_to_record(score_game(game_from_record(record))), or throws a GameError.
  function scoreRecord(record) {
    const game = gameFromRecord(record);
    return resultToRecord(scoreGame(game.players, game.rounds, game.ruleset));
  }

  // --- the sheet's marks (scoring/sheet.py) ------------------------------------------------------

  // What a referee writes beside a player's points (the values of scoring.sheet.Mark).
  const Mark = Object.freeze({
    CALLER: "caller",
    ALONG: "along",
    FALSE: "false",
    EMPTY: "empty",
    // Automatic Assaf: the caller who was caught, and the lowest hand(s) that caught them.
    ASSAF: "assaf",
    LOWEST: "lowest",
    // Elimination: the player went out after this round.
    OUT: "out",
  });

  // The marks a sheet under `ruleset` can show, in the order a legend lists them.
  function legend(ruleset) {
    const marks = [Mark.CALLER];
    if (ruleset.automaticAssaf) marks.push(Mark.ASSAF, Mark.LOWEST);
    else marks.push(Mark.ALONG);
    if (ruleset.scoresFalseYaniv) marks.push(Mark.FALSE);
    marks.push(Mark.EMPTY);
    if (ruleset.eliminates) marks.push(Mark.OUT);
    return marks;
  }

  // In an Assaf: the other players holding the lowest hand.
  function lowestChallengers(entries) {
    entries = asRound(entries);
    const others = Array.from(entries.hands).filter((pair) => pair[0] !== entries.yaniv);
    if (!others.length) return new Set();
    const lowest = Math.min.apply(null, others.map((pair) => pair[1]));
    return new Set(others.filter((pair) => pair[1] === lowest).map((pair) => pair[0]));
  }

  // The mark beside `player`'s points in a round that ended as `kind` (null: none).
  function handMark(entries, kind, player) {
    entries = asRound(entries);
    if (kind === RoundKind.EMPTY_HAND) return entries.emptyHand === player ? Mark.EMPTY : null;
    if (entries.yaniv === player) {
      if (kind === RoundKind.FALSE_YANIV) return Mark.FALSE;
      return kind === RoundKind.ASSAF ? Mark.ASSAF : Mark.CALLER;
    }
    if (kind === RoundKind.ASSAF) {
      return lowestChallengers(entries).has(player) ? Mark.LOWEST : null;
    }
    if (kind === RoundKind.YANIV && entries.along.includes(player)) return Mark.ALONG;
    return null;
  }

  return Object.freeze({
    // The game record: what the table page calls.
    scoreRecord,
    gameFromRecord,
    resultToRecord,
    parseJSON,
    pyRepr,
    pyStr,
    GameError,
    GameWarning,
    PyFloat,
    GAME_MESSAGES,
    WARNING_MESSAGES,
    // The rule sets.
    ruleset,
    Ruleset,
    RULESETS,
    BELGIAN,
    ISRAELI,
    WIKIPEDIA_EN,
    WIKIPEDIA_FR,
    OPTIONS: Object.freeze(Array.from(OPTIONS.keys())),
    FalseYaniv,
    Challenge,
    Assaf,
    AssafZero,
    End,
    RoundKind,
    checkRuleset,
    // The engine.
    Round,
    checkPlayers,
    isValidHand,
    checkRound,
    roundWarnings,
    leftNeighbour,
    yanivPoints: (entries, rules) => yanivPoints(asRound(entries), rules || BELGIAN),
    someoneHasSameOrFewer: (entries) => someoneHasSameOrFewer(asRound(entries)),
    assafPoints: (entries, rules) => assafPoints(asRound(entries), rules || BELGIAN),
    falseYanivPoints: (players, entries, rules) =>
      falseYanivPoints(players, asRound(entries), rules || BELGIAN),
    emptyHandPoints: (entries) => emptyHandPoints(asRound(entries)),
    reductionAt,
    reductionFor,
    roundKind,
    isOver,
    stillIn,
    playersGoingOut,
    isGameOver,
    isDealtOut,
    scoreRound,
    rank,
    scoreGame,
    // The sheet's marks.
    Mark,
    legend,
    lowestChallengers,
    handMark,
  });
});
