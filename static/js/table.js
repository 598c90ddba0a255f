// The table page, offline first: nothing a referee typed is ever lost, nothing is stored twice.
//
// Every round, correction and undo goes into an outbox on this device (IndexedDB, through the
// vendored idb-keyval), with an id of its own, in order. The outbox is sent to the server one
// change at a time (tables:sync) whenever there is a connection: at once, when the browser says it
// is online again, when the page gets the focus, every ten seconds and on "Sync now". The server
// applies each id once, so sending again is always safe. Until a change is stored, the sheet shows
// it as a pending row, scored on the device by the same rules as the server (yaniv-engine.js).
//
// A round whose number another device took with other entries, or a change made on an older
// sheet, is never stored as something else: the page shows both versions and the referee chooses.
//
// Without IndexedDB (or without this script) the page works as before: plain posts through htmx.
(function () {
  "use strict";

  var live = document.getElementById("live");
  var textsNode = document.getElementById("device-texts");
  // table-early.js holds a Record tap until this script holds the form (or never will).
  var handOver = window.yanivTableReady || function () {};
  if (!live || !(live.dataset.sync || live.dataset.closed) || !textsNode || !window.YanivEngine ||
      !window.idbKeyval || !window.indexedDB) {
    handOver("none");
    return;
  }
  window.yanivTable = "loading";

  var engine = window.YanivEngine;
  var idb = window.idbKeyval;
  var texts = JSON.parse(textsNode.textContent);
  var tableId = live.dataset.table;
  var syncUrl = live.dataset.sync;
  var sheetUrl = live.dataset.sheet;
  var store = idb.createStore("yaniv-club", "tables");
  var key = "table-" + tableId;
  var rendered = null; // the game as the server drew this page's sheet (#game-state)
  var server = null; // the game as stored now: the drawn one and what this device stored since
  var outbox = []; // the changes not stored yet, oldest first
  var mine = []; // this device's changes stored lately: {id, version} (the server leaves them out)
  var already = []; // rounds the server had already, from another phone: shown until answered
  var flushing = false;
  var offline = false;
  var closed = null; // the server no longer takes changes from this device: why

  // --- words --------------------------------------------------------------------------

  function t(template, params) {
    return String(template).replace(/%\((\w+)\)s/g, function (_, name) {
      return params && params[name] !== undefined ? String(params[name]) : "";
    });
  }

  function plural(forms, count) {
    var many = texts.language && texts.language.indexOf("fr") === 0 ? count > 1 : count !== 1;
    return forms[many ? 1 : 0];
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" }[c];
    });
  }

  // --- the device's copy of the game ---------------------------------------------------

  function readServer() {
    var node = document.getElementById("game-state");
    rendered = node ? JSON.parse(node.textContent) : null;
    // A poll sent before a sync's answer may come back after it: the device never goes back
    // to an older game than it knows.
    if (rendered && (!server || rendered.version >= server.version)) server = copyOf(rendered);
    originals = {};
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function load() {
    return idb.get(key, store).then(function (saved) {
      return saved || { outbox: [], sheet: null, known: null };
    });
  }

  function copyOf(state) {
    return JSON.parse(JSON.stringify(state));
  }

  // The game as this device last knew it stored (a page, a poll, a sync answer), kept with
  // the outbox in the same IndexedDB write: an offline reload starts from it, never from an
  // older page the service worker kept.
  function keepKnown(saved, state) {
    if (state && (!saved.known || saved.known.version <= state.version)) saved.known = copyOf(state);
  }

  // Read-modify-write in one IndexedDB transaction: two tabs never lose each other's changes.
  // The updater's result is what the transaction stored: no second one to read it back.
  function change(updater) {
    var written = null;
    return idb.update(key, function (saved) {
      saved = saved || { outbox: [], sheet: null };
      updater(saved);
      written = saved;
      return saved;
    }, store).then(function () {
      // Our copy, not the object IndexedDB cloned: later changes go through `change` again.
      var saved = copyOf(written);
      outbox = saved.outbox;
      mine = saved.mine || [];
      already = saved.already || [];
      return saved;
    });
  }

  // A change's form fields → the engine's entries (labels by seat position).
  function entriesOf(fields) {
    var labels = {};
    server.positions.forEach(function (position, index) {
      labels[position] = server.players[index];
    });
    var hands = {};
    var jokers = {};
    if (fields.join_name) {
      // A player joining before this round (house rules): their seat comes after the last.
      labels[fields.joinPosition] = fields.join_name;
      hands[fields.join_name] = parseInt(fields.join_hand, 10);
      if (parseInt(fields.join_jokers, 10)) jokers[fields.join_name] = parseInt(fields.join_jokers, 10);
    }
    Object.keys(fields).forEach(function (name) {
      var match = /^(hand|jokers)_(\d+)$/.exec(name);
      if (!match) return;
      var count = parseInt(fields[name], 10);
      if (match[1] === "hand") hands[labels[match[2]]] = count;
      else if (count) jokers[labels[match[2]]] = count;
    });
    var record = { hands: hands };
    if (Object.keys(jokers).length) record.jokers = jokers;
    if (fields.join_name) {
      var start = fields.join_start || "highest";
      record.joins = { name: fields.join_name, start: start === "number" ? parseInt(fields.join_total, 10) : start };
    }
    var ending = String(fields.ending || "").split(":");
    if (ending[0] === "yaniv") {
      record.yaniv = labels[ending[1]];
      if ((fields.along || []).length) {
        record.along = fields.along.map(function (position) { return labels[position]; });
      }
    } else {
      record.empty_hand = labels[ending[1]];
    }
    return record;
  }

  // The rounds as they will be once the outbox is stored, and which of them are pending.
  function deviceRounds() {
    var rounds = server.rounds.map(function (round) { return { record: round, pending: null }; });
    var serverKept = rounds.length;
    outbox.forEach(function (op) {
      if (op.action === "record" && op.problem && op.problem.status === "conflict") {
        // Shown beside the stored round (which has its number) until the referee chooses:
        // not a row of the sheet.
        return;
      }
      if (op.action === "record" && op.number <= server.rounds.length &&
          sameRecord(server.rounds[op.number - 1], entriesOf(op.fields))) {
        // Stored already, its answer lost (a drop mid-request): the server's sheet has it,
        // and sending it again is answered "replayed".
        return;
      }
      if (op.action === "record") {
        rounds.push({ record: entriesOf(op.fields), pending: op });
      } else if (op.action === "correct" && rounds[op.number - 1]) {
        rounds[op.number - 1] = { record: entriesOf(op.fields), pending: op };
      } else if (op.action === "undo" && rounds.length) {
        rounds.pop();
        serverKept = Math.min(serverKept, rounds.length);
      }
    });
    rounds.serverKept = serverKept;
    return rounds;
  }

  function score(records) {
    return engine.scoreRecord({
      ruleset: server.ruleset,
      options: server.options,
      players: server.starting_players || server.players,
      rounds: records,
    });
  }

  // The table's rule set as the engine takes it, made once per copy of the stored game (a
  // sheet row's cells ask it per player).
  var rulesetMade = { of: null, ruleset: null };
  function rulesetOf() {
    if (rulesetMade.of !== server) {
      rulesetMade = { of: server, ruleset: engine.ruleset(server.ruleset, server.options) };
    }
    return rulesetMade.ruleset;
  }

  // A game record's round as the engine's own functions take it.
  function engineEntries(record) {
    return {
      hands: record.hands,
      yaniv: record.yaniv || null,
      along: record.along || [],
      emptyHand: record.empty_hand || null,
    };
  }

  // --- the sheet: pending rows, totals, the next round's number --------------------------

  // The sheet as this device knows it: the rows the server rendered, corrected, struck through
  // or followed by the rounds stored since (by this device: no need to fetch the page again)
  // and by the pending ones, all scored by the engine on the device.
  function renderPending() {
    var table = document.querySelector("#sheet table.sheet");
    if (!table || !server || !rendered || !specimen) return;
    var body = table.tBodies[0];
    var rounds = deviceRounds();
    var result;
    try {
      result = score(rounds.map(function (round) { return round.record; }));
    } catch (error) {
      result = null; // the server's rounds moved under the outbox: the sync will say how
    }
    var last = Math.max(rounds.length, rendered.rounds.length);
    // A changed round changes the running totals of every row after it.
    var prefixAsRendered = true;
    for (var index = 0; index < last; index += 1) {
      var number = index + 1;
      var row = body.querySelector('tr[data-round="' + number + '"]');
      var round = rounds[index];
      if (!round) {
        // Undone (pending, or stored since the page was drawn): struck through.
        if (row) row.classList.add("undone");
        continue;
      }
      if (row && !row.dataset.device) row.classList.remove("undone");
      var asRendered = prefixAsRendered && index < rendered.rounds.length && !round.pending &&
        sameRecord(rendered.rounds[index], round.record);
      if (!asRendered) prefixAsRendered = false;
      if (asRendered) {
        if (row && row.dataset.device) restoreRow(row);
        continue;
      }
      if (!result) continue;
      var fresh = rowFor(number, round.record, result.rounds[index], !!round.pending, seatedIn(result, index));
      if (row) {
        if (!row.dataset.device) originals[number] = row;
        row.replaceWith(fresh);
      } else {
        body.appendChild(fresh);
      }
    }
    // Rows beyond the device's rounds that it drew itself go (e.g. a pending round discarded).
    Array.prototype.slice.call(body.querySelectorAll("tr[data-device]")).forEach(function (row) {
      if (parseInt(row.dataset.round, 10) > rounds.length) {
        if (originals[row.dataset.round]) restoreRow(row);
        else row.remove();
      }
    });
    table.hidden = rounds.length === 0;
    var none = document.querySelector("#sheet .no-rounds");
    if (none) none.hidden = rounds.length !== 0;
    if (result) updateSeats(result);
    drawChart(prefixAsRendered && rounds.length === rendered.rounds.length ? null : result);
    updateForm(rounds, result);
    updateTools(rounds);
    renderStatus();
  }

  // --- the score chart past the stored rounds ----------------------------------------------

  var chartTexts = (function () {
    var node = document.getElementById("chart-texts");
    return node ? JSON.parse(node.textContent) : null;
  })();
  // The players' lines: tournaments/chart.py's PALETTE.
  var PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B"];

  // The chart as the server draws it (tournaments/chart.py, progression_svg), from the
  // device's rounds: those stored and those waiting on this phone. `result` null: the
  // server's own chart is the device's (nothing saved or waiting since it was drawn).
  function drawChart(result) {
    var figure = document.querySelector("#sheet figure.chart");
    if (!figure || !chartTexts) return;
    if (figure.dataset.server === undefined) {
      figure.dataset.server = figure.hidden ? "" : "1";
      figure.serverChart = figure.innerHTML;
    }
    if (!result) {
      if (figure.dataset.device) {
        figure.innerHTML = figure.serverChart;
        figure.hidden = !figure.dataset.server;
        delete figure.dataset.device;
      }
      return;
    }
    figure.innerHTML = progressionSvg(result);
    figure.hidden = result.rounds.length === 0;
    figure.dataset.device = "1";
  }

  function progressionSvg(result) {
    var width = 320, fontSize = 11;
    var players = server.players;
    var ruleset = rulesetOf();
    var limit = ruleset.endAbove;
    var series = players.map(function (player) {
      var line = [0];
      result.rounds.forEach(function (round) {
        var total = round.totals && player in round.totals ? round.totals[player] : line[line.length - 1];
        line.push(total);
      });
      return line;
    });
    var last = result.rounds.length;
    var highest = 0;
    series.forEach(function (line) { line.forEach(function (total) { highest = Math.max(highest, total); }); });
    var top = Math.max(limit + 50, Math.ceil((highest + 1) / 50) * 50);
    var lineHeight = fontSize + 6;
    var left = fontSize * 3, right = 8, plotTop = 8, plotHeight = 170;
    var axis = plotTop + plotHeight;
    var height = axis + fontSize * 3 + (players.length + 1) * lineHeight;
    var plotWidth = width - left - right;
    function x(number) { return (left + plotWidth * number / Math.max(1, last)).toFixed(1); }
    function y(total) { return (axis - plotHeight * total / top).toFixed(1); }
    var parts = [];
    for (var total = 0; total <= top; total += 50) {
      parts.push('<line x1="' + left + '" y1="' + y(total) + '" x2="' + (width - right) + '" y2="' + y(total) +
        '" stroke="#dddddd" stroke-width="0.5"/><text x="' + (left - 4) + '" y="' + (axis - plotHeight * total / top + fontSize / 3).toFixed(1) +
        '" text-anchor="end" font-size="' + fontSize + '" fill="#666666">' + total + "</text>");
    }
    var most = Math.max(4, Math.floor(plotWidth / 28));
    var step = [1, 2, 5, 10, 20, 50, 100].filter(function (each) { return last / each <= most; })[0] || 100;
    for (var number = 0; number <= last; number += step) {
      parts.push('<text x="' + x(number) + '" y="' + (axis + fontSize + 3) + '" text-anchor="middle" font-size="' +
        fontSize + '" fill="#666666">' + number + "</text>");
    }
    parts.push('<text x="' + (width - right) + '" y="' + (axis + 2 * fontSize + 5) + '" text-anchor="end" font-size="' +
      fontSize + '" fill="#666666">' + escapeHtml(chartTexts.axis) + "</text>");
    parts.push('<line x1="' + left + '" y1="' + y(limit) + '" x2="' + (width - right) + '" y2="' + y(limit) +
      '" stroke="#c62828" stroke-width="1" stroke-dasharray="4 3"/>');
    series.forEach(function (line, index) {
      var points = line.map(function (each, n) { return x(n) + "," + y(each); }).join(" ");
      parts.push('<polyline points="' + points + '" fill="none" stroke="' + PALETTE[index % PALETTE.length] +
        '" stroke-width="2" stroke-linejoin="round"/>');
    });
    var legendTop = axis + fontSize * 3;
    players.concat([chartTexts.limit]).forEach(function (label, index) {
      var yText = legendTop + index * lineHeight + fontSize;
      var limitLine = index === players.length;
      var colour = limitLine ? "#c62828" : PALETTE[index % PALETTE.length];
      var mid = (yText - fontSize / 3).toFixed(1);
      parts.push('<line x1="' + left + '" y1="' + mid + '" x2="' + (left + 22) + '" y2="' + mid + '" stroke="' + colour +
        '" stroke-width="2"' + (limitLine ? ' stroke-dasharray="4 3"' : "") + '/><text x="' + (left + 28) + '" y="' + yText +
        '" font-size="' + fontSize + '" fill="#1d2330">' + escapeHtml(label) + "</text>");
    });
    return '<svg width="100%" viewBox="0 0 ' + width + " " + height + '" role="img" aria-label="' + escapeHtml(chartTexts.label) +
      '" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" class="progression device">' +
      "<title>" + escapeHtml(chartTexts.title) + "</title>" + parts.join("") + "</svg>";
  }

  // The parts outside the sheet that follow it: the undo panel (its round), the rounds a
  // "Something's wrong?" question may be about (the stored ones).
  function updateTools(rounds) {
    var tools = document.getElementById("undo-tools");
    var undoForm = document.getElementById("undo-form");
    if (tools && undoForm) {
      var count = rounds.length;
      var showsUndo = count > 0;
      undoForm.hidden = !showsUndo;
      if (!tools.querySelector("form:not([hidden])")) tools.hidden = true;
      else tools.hidden = false;
      var undoButton = undoForm.querySelector("button[type=submit]");
      if (undoButton && count) undoButton.textContent = t(texts.undo_round, { number: count });
      var reasonInput = undoForm.querySelector('input[name="reason"]');
      if (reasonInput && count) reasonInput.placeholder = t(texts.undo_why, { number: count });
    }
    var select = document.querySelector(".something-wrong select[name=round]");
    if (select && server) {
      var stored = server.rounds.length;
      var options = select.querySelectorAll("option[value]:not([value=''])");
      for (var n = options.length + 1; n <= stored; n += 1) {
        var option = document.createElement("option");
        option.value = n;
        option.textContent = n;
        select.appendChild(option);
      }
      Array.prototype.forEach.call(options, function (option) {
        if (parseInt(option.value, 10) > stored) option.remove();
      });
    }
  }

  // Who has a column in round `index` (0 on): the players the game began with and those who
  // joined by then (the others' cells are empty, "not seated", as the server draws them).
  function seatedIn(result, index) {
    var seated = (server.starting_players || server.players).slice();
    result.rounds.slice(0, index + 1).forEach(function (round) {
      if (round.joined) seated.push(round.joined.name);
    });
    return seated;
  }

  // The rows the server drew (their elements), kept while the device draws its own in their place.
  var originals = {};

  function restoreRow(row) {
    var original = originals[row.dataset.round];
    if (!original) return;
    row.replaceWith(original);
    delete originals[row.dataset.round];
  }

  function sameRecord(a, b) {
    return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
  }

  function normalised(record) {
    var hands = {};
    Object.keys(record.hands).sort().forEach(function (player) { hands[player] = record.hands[player]; });
    var jokers = {};
    Object.keys(record.jokers || {}).sort().forEach(function (player) {
      if (record.jokers[player]) jokers[player] = record.jokers[player];
    });
    return [hands, record.yaniv || null, (record.along || []).slice().sort(), record.empty_hand || null, jokers];
  }

  // A round's row as the server draws it: the page's <template id="sheet-row"> (the sheet's
  // own row template, with a stand-in round number and one cell of each kind), cloned and
  // filled in. No markup is written here.
  var specimen = document.getElementById("sheet-row");
  var FLAGS = {
    false_yaniv: ["false", "false_yaniv_word"],
    assaf: ["assaf", "assaf"],
    empty_hand: ["empty", "emptied_hand"],
  };

  // A node with the space before it (the template writes " <span…>").
  // The space the template put before `node`, if any.
  function spaceBefore(node) {
    var before = node.previousSibling;
    return before && before.nodeType === Node.TEXT_NODE && !before.textContent.trim() ? before : null;
  }

  function dropSpaced(node) {
    if (!node) return;
    var space = spaceBefore(node);
    if (space) space.remove();
    node.remove();
  }

  function rowFor(number, record, scored, pending, seated) {
    var row = specimen.content.firstElementChild.cloneNode(true);
    var standIn = row.dataset.round;
    row.className = (pending ? "pending-row " : "device-row ") + scored.kind;
    row.dataset.round = number;
    row.dataset.device = "1";
    if (!pending) row.removeAttribute("aria-label");
    fillHead(row.cells[0], number, standIn, scored.kind, pending);
    var kinds = {
      notSeated: row.querySelector("td.not-seated"),
      out: row.querySelector("td.out"),
      played: row.querySelector("td:not(.not-seated):not(.out)"),
    };
    Array.prototype.slice.call(row.cells, 1).forEach(function (cell) { cell.remove(); });
    server.players.forEach(function (player) {
      var cell;
      if (player in scored.points) cell = playedCell(kinds.played, record, scored, player);
      else cell = (seated.indexOf(player) >= 0 ? kinds.out : kinds.notSeated).cloneNode(true);
      row.appendChild(cell);
    });
    return row;
  }

  // The round's number (a link to its correction), its kind's flag, "not sent yet".
  function fillHead(head, number, standIn, kind, pending) {
    var link = head.querySelector("a");
    if (link) {
      ["href", "data-hx-get", "title", "aria-label"].forEach(function (name) {
        var value = link.getAttribute(name);
        if (value !== null) link.setAttribute(name, value.split(standIn).join(String(number)));
      });
      link.textContent = number + "\u00a0✎";
    }
    var flag = head.querySelector(".flag");
    var kindFlag = FLAGS[kind];
    if (kindFlag && flag) {
      flag.title = texts[kindFlag[1]];
      flag.textContent = texts.marks[kindFlag[0]];
    } else {
      dropSpaced(flag);
    }
    if (!pending) dropSpaced(head.querySelector(".pending-mark"));
  }

  function playedCell(specimenCell, record, scored, player) {
    var cell = specimenCell.cloneNode(true);
    var mark = engine.handMark(engineEntries(record), scored.kind, player);
    if (mark) cell.className = mark;
    else cell.removeAttribute("class");
    var reduction = scored.reductions[player] || 0;
    var total = scored.totals[player];
    // As the server's cells: the total before the reduction, before a streak bonus too.
    var arrived = total + reduction - ((scored.bonuses || {})[player] || 0);
    cell.querySelector(".points").textContent = (mark ? texts.marks[mark] + " " : "") + "+" + scored.points[player];
    cell.querySelector(".running").textContent = reduction ? arrived + " → " + total : String(total);
    if (!(scored.eliminated && scored.eliminated.indexOf(player) >= 0)) dropSpaced(cell.querySelector(".went-out"));
    var note = cell.querySelector(".cell-note");
    // Each note goes before the specimen's own space, which leaves with it: one space before
    // each note, as the server draws them.
    var gap = spaceBefore(note) || note;
    cellNotes(scored, record, player).forEach(function (text) {
      var each = note.cloneNode(false);
      each.textContent = text;
      cell.insertBefore(document.createTextNode(" "), gap);
      cell.insertBefore(each, gap);
    });
    dropSpaced(note);
    return cell;
  }

  function updateSeats(result) {
    var totals = result.totals;
    document.querySelectorAll("#round-form .seat-entry").forEach(function (fieldset, index) {
      var now = fieldset.querySelector(".seat-total");
      if (now && server.players[index] in totals) now.textContent = totals[server.players[index]];
    });
  }

  function formIsPristine(form) {
    return !Array.prototype.some.call(form.elements, function (element) {
      if (element.type === "radio" || element.type === "checkbox") return element.checked;
      return element.classList.contains("hand") && element.value !== "";
    });
  }

  function updateForm(rounds, result) {
    var form = document.getElementById("round-form");
    if (!form) return;
    var next = rounds.length + 1;
    var number = form.querySelector('input[name="number"]');
    // A form being typed keeps its number: if another device took that round, it is a
    // conflict, never a round nobody played.
    if (formIsPristine(form) || !number.dataset.typed) {
      number.value = next;
      number.dataset.typed = "";
    }
    var shown = parseInt(number.value, 10);
    var title = document.getElementById("round-title");
    if (title) title.textContent = t(texts.round, { number: shown });
    var button = document.getElementById("record-button");
    if (button) button.textContent = t(texts.record, { number: shown });
    var finished = result && result.finished;
    form.classList.toggle("game-over", !!finished);
    form.querySelectorAll(".seat-entries, #preview").forEach(function (part) {
      part.hidden = !!finished;
    });
    if (button) button.hidden = !!finished;
    // Elimination: who went out in a pending round gets no hand in the next one.
    if (result) {
      var out = {};
      result.rounds.forEach(function (round) {
        (round.eliminated || []).forEach(function (player) { out[player] = true; });
      });
      form.querySelectorAll(".seat-entry").forEach(function (fieldset, index) {
        var isOut = !!out[server.players[index]];
        if (fieldset.classList.contains("out")) return; // the server's own
        fieldset.disabled = isOut;
        fieldset.classList.toggle("device-out", isOut);
        var note = fieldset.querySelector(".out-note");
        if (isOut && !note) {
          note = document.createElement("p");
          note.className = "out-note";
          note.textContent = texts.out_of_game;
          fieldset.appendChild(note);
        } else if (!isOut && note) {
          note.remove();
        }
      });
    }
  }

  // --- the form's entries ----------------------------------------------------------------

  // The fields a referee types: a seat's hand and jokers, and a player joining before the
  // round (their name, start, hand and jokers: house rules).
  var TYPED_FIELD = /^(?:(?:hand|jokers)_\d+|join_(?:name|start|total|hand|jokers))$/;

  function fieldsOf(form) {
    var fields = { along: [] };
    var joining = form.querySelector(".seat-entry.joining");
    if (joining) fields.joinPosition = joining.dataset.position;
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!element.name || element.disabled) return;
      if (TYPED_FIELD.test(element.name)) {
        fields[element.name] = element.value.trim();
      } else if (element.name === "ending" && element.checked) fields.ending = element.value;
      else if (element.name === "along" && element.checked) fields.along.push(element.value);
      else if (element.name === "number") fields.number = parseInt(element.value, 10);
      else if (element.name === "reason") fields.reason = element.value.trim();
    });
    return fields;
  }

  // The referee's entries checked as the server checks them: a message per wrong field.
  function problems(fields, number) {
    var found = [];
    var rounds = deviceRounds().slice(0, number - 1).map(function (round) { return round.record; });
    var ruleset = rulesetOf();
    var maxHand = ruleset.maxHand;
    server.positions.forEach(function (position, index) {
      var name = "hand_" + position;
      if (!(name in fields)) return; // out of the game
      var value = fields[name];
      var player = server.players[index];
      if (value === "") found.push({ field: name, message: t(texts.enter_hand, { player: player }) });
      else if (!/^\d+$/.test(value) || parseInt(value, 10) > maxHand) {
        found.push({ field: name, message: t(texts.hand_range, { player: player, max: maxHand }) });
      }
    });
    if (fields.join_name && !/^\d+$/.test(fields.join_hand || "")) {
      found.push({ field: "join_hand", message: t(texts.enter_hand, { player: fields.join_name }) });
    }
    if (!fields.ending) found.push({ field: "ending", message: texts.ending_missing });
    if (found.length) return { missing: true, list: found };
    try {
      var result = score(rounds.concat([entriesOf(fields)]));
      return { list: [], result: result };
    } catch (error) {
      var message = texts.errors[error.code] ? t(texts.errors[error.code], error.params || {}) : error.text;
      message = message.charAt(0).toUpperCase() + message.slice(1) + ".";
      var field = error.field === "hands" && error.player ? handField(error.player)
        : error.field === "joins" ? "join_start"
        : (["ending", "yaniv", "empty_hand"].indexOf(error.field) >= 0 ? "ending" : error.field);
      return { list: [{ field: field, message: message }] };
    }
  }

  function positionOf(player) {
    return server.positions[server.players.indexOf(player)];
  }

  // The input of a player's hand: a seat's, or the joining player's.
  function handField(player) {
    return server.players.indexOf(player) >= 0 ? "hand_" + positionOf(player) : "join_hand";
  }

  function showProblems(form, found) {
    form.querySelectorAll(".device-error").forEach(function (node) { node.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (node) { node.removeAttribute("aria-invalid"); });
    var first = null;
    found.forEach(function (problem) {
      var input = form.querySelector('[name="' + problem.field + '"]');
      var note = document.createElement("div");
      note.className = "field-error device-error";
      note.dataset.field = problem.field;
      note.setAttribute("role", "alert");
      note.textContent = problem.message;
      if (input && TYPED_FIELD.test(problem.field)) {
        input.setAttribute("aria-invalid", "true");
        input.closest(".seat-entry").appendChild(note);
        first = first || input;
      } else {
        var entries = form.querySelector(".seat-entries");
        entries.parentNode.insertBefore(note, entries.nextSibling);
        first = first || form.querySelector('[name="ending"]');
      }
    });
    if (first) first.focus();
  }

  // An error shown on Record goes as soon as what it was about is put right.
  function clearSolved(form, found) {
    var still = {};
    found.forEach(function (problem) { still[problem.field] = true; });
    form.querySelectorAll(".device-error").forEach(function (note) {
      if (!still[note.dataset.field]) note.remove();
    });
    form.querySelectorAll("[aria-invalid]").forEach(function (node) {
      if (!still[node.name]) node.removeAttribute("aria-invalid");
    });
  }

  // What the house rules did to a player in a round, as the sheet's cells say it.
  function cellNotes(scored, record, player) {
    var notes = [];
    var signed = function (amount) { return (amount < 0 ? "" : "+") + amount; };
    if (scored.joined && scored.joined.name === player) notes.push(t(texts.notes.joined, { amount: scored.joined.start }));
    // As scoring.sheet.joker_points: held by one who did not call, plus each joker's value.
    var held = (record.jokers || {})[player] || 0;
    var ruleset = rulesetOf();
    var jokerPoints = (player === record.yaniv ? 0 : held * ruleset.jokerHeld) + held * ruleset.jokerValue;
    if (jokerPoints) notes.push(t(texts.notes.jokers, { amount: signed(jokerPoints) }));
    if ((scored.bonuses || {})[player]) notes.push(t(texts.notes.streak_bonus, { amount: signed(scored.bonuses[player]) }));
    if ((scored.resets || []).indexOf(player) >= 0) notes.push(texts.notes.reset);
    return notes;
  }

  // The previewed round's notes of a player, in one line.
  function previewNotes(scored, record, player) {
    var notes = cellNotes(scored, record, player);
    return notes.length ? ' <span class="cell-note">' + escapeHtml(notes.join(" · ")) + "</span>" : "";
  }

  function renderPreview(form) {
    var box = document.getElementById("preview");
    if (!box) return;
    var fields = fieldsOf(form);
    var number = fields.number;
    var checked = problems(fields, number);
    clearSolved(form, checked.list);
    if (checked.missing) {
      box.innerHTML = '<p class="hint">' + escapeHtml(texts.preview_waits) + "</p>";
      return;
    }
    if (checked.list.length) {
      box.innerHTML = '<div class="errors">' + checked.list.map(function (p) { return escapeHtml(p.message); }).join("<br>") + "</div>";
      return;
    }
    var result = checked.result;
    var scored = result.rounds[result.rounds.length - 1];
    var ruleset = rulesetOf();
    var record = entriesOf(fields);
    var html = "<div class=\"preview\"><p><strong>" + escapeHtml(t(texts.preview, { number: number })) + "</strong>";
    if (scored.kind === "empty_hand") html += " · " + escapeHtml(texts.emptied_hand);
    else if (scored.kind === "assaf") html += " · " + escapeHtml(texts.assaf);
    html += "</p>";
    // A calling limit that only warns: the call is scored, the referee is told.
    if (ruleset.yanivLimitWarns && record.yaniv && record.hands[record.yaniv] > ruleset.yanivLimit) {
      var warned = t(texts.warnings.call_above_limit, {
        player: record.yaniv, hand: record.hands[record.yaniv], limit: ruleset.yanivLimit,
      });
      html += '<p class="warn" role="alert">' + escapeHtml(warned.charAt(0).toUpperCase() + warned.slice(1) + ".") + "</p>";
    }
    if (scored.kind === "false_yaniv") {
      var playing = server.players.filter(function (p) { return p in scored.points; });
      var neighbour = playing[(playing.indexOf(record.yaniv) + 1) % playing.length];
      html += '<p class="warn">' + escapeHtml(t(texts.false_yaniv, {
        caller: record.yaniv, penalty: ruleset.falseYanivPenalty, neighbour: neighbour,
        hand: record.hands[neighbour], points: scored.points[record.yaniv],
      })) + "</p>";
    }
    html += "<ul>";
    server.players.concat(record.joins ? [record.joins.name] : []).forEach(function (player) {
      if (!(player in scored.points)) return;
      var reduction = scored.reductions[player] || 0;
      var total = scored.totals[player];
      // The line is a sentence of the page's language (texts.preview_line: its markup is
      // ours), the name escaped into it.
      html += "<li>" + t(reduction ? texts.preview_line_reduced : texts.preview_line, {
        player: escapeHtml(player), points: scored.points[player], arrived: total + reduction,
        total: total, reduction: reduction,
      }) + previewNotes(scored, record, player) + "</li>";
    });
    html += "</ul>";
    if (scored.eliminated && scored.eliminated.length) {
      html += '<p class="warn">' + escapeHtml(t(texts.eliminated, { players: scored.eliminated.join(", ") })) + "</p>";
    }
    if (result.finished) {
      var over = server.players.filter(function (p) { return scored.totals[p] > ruleset.endAbove; });
      var ends;
      if (ruleset.eliminates) ends = texts.ends_game;
      else if (!over.length) ends = t(plural(texts.dealt_out, ruleset.dealsPerPlayer), { counter: ruleset.dealsPerPlayer });
      else if (ruleset.endAbove === 150) ends = t(plural(texts.over_150, over.length), { over: over.join(", ") });
      else ends = t(plural(texts.over_limit, over.length), { over: over.join(", "), limit: ruleset.endAbove });
      html += '<p class="warn">' + escapeHtml(ends) + " " +
        escapeHtml(t(plural(texts.winners, result.winners.length), { winners: result.winners.join(", ") })) + "</p>";
    }
    box.innerHTML = html + "</div>";
  }

  // --- the outbox ----------------------------------------------------------------------------

  function queue(op, taken) {
    // A correction or undo carries the version of the sheet it was made on: the server's, plus
    // one for every change of this device that will be stored before it.
    op.id = uuid();
    op.version = server.version + outbox.length;
    // The stored sheet it was typed on, whatever later choices renumber: the server compares
    // a round with the rounds other phones stored since (docs/game-record.md).
    op.known = server.version;
    // When it was typed, on this device's clock: sent as "how long ago", so that a round typed
    // before the session's time limit counts as played before it, however late it is sent.
    op.typedAt = Date.now();
    // Resolved once the change is written on the device and drawn (`taken` first: the form
    // cleared, say), once; the sending goes on behind it.
    return change(function (saved) {
      saved.outbox.push(op);
    }).then(function () {
      if (taken) taken();
      renderPending();
      flush();
    });
  }

  function csrfToken() {
    var match = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    if (match) return decodeURIComponent(match[1]);
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function bodyOf(op) {
    var body = new URLSearchParams();
    body.set("action", op.action);
    body.set("client_id", op.id);
    if (op.typedAt) body.set("typed_ago_ms", Math.max(0, Date.now() - op.typedAt));
    if (op.action !== "undo") {
      body.set("number", op.number);
      Object.keys(op.fields).forEach(function (name) {
        if (name === "along") op.fields.along.forEach(function (p) { body.append("along", p); });
        else if (name === "ending" || TYPED_FIELD.test(name)) {
          body.set(name, op.fields[name]);
        }
      });
    }
    if (op.action !== "record") body.set("reason", op.reason);
    // The version of the sheet it was typed on: for a round, the server tells "I have this
    // round already" from "another device took this number" by it.
    body.set("version", op.version);
    var typedOn = op.known === undefined ? op.version : op.known;
    body.set("known", typedOn);
    mine.forEach(function (own) { if (own.version > typedOn) body.append("mine", own.id); });
    if (op.another) body.set("another", "1");
    return body;
  }

  function send(op) {
    return fetch(syncUrl, {
      method: "POST",
      body: bodyOf(op),
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") < 0) {
        // A proxy's page, or the site restarting: try again later.
        throw new Error("no answer");
      }
      return response.json();
    });
  }

  function withLock(work) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("yaniv-sync-" + tableId, work);
    }
    return work();
  }

  function flush() {
    if (flushing) return Promise.resolve();
    flushing = true;
    renderStatus();
    var storedAny = false;
    var waited = outbox.length > 0;
    function next() {
      return load().then(function (saved) {
        outbox = saved.outbox;
        var op = outbox[0];
        if (!op || op.problem || closed) return null;
        if (notDisplaced(op)) {
          // Its move is moot: dropped, never stored a second time; the rounds after it take
          // their numbers after the stored sheet again.
          var moved = [];
          return change(function (saved) {
            saved.outbox = saved.outbox.filter(function (other) { return other.id !== op.id; });
            moved = renumber(saved.outbox);
          }).then(function () {
            if (moved.length) {
              showMoved(moved.map(function (move) { return t(texts.moved, move); }).join(" "));
            }
            return next();
          });
        }
        return send(op).then(function (answer) {
          offline = false;
          return settle(op, answer).then(function (done) {
            if (done) {
              storedAny = true;
              return next();
            }
            return null;
          });
        });
      });
    }
    return withLock(next).catch(function () {
      offline = true;
    }).then(function () {
      flushing = false;
      // Another tab of this phone sent what waited here (it held the lock first): stored all
      // the same, so the status says so instead of staying at "Sending…".
      if (waited && !storedAny && !outbox.length) announce(texts.all_saved);
      renderPending();
      renderStatus();
      // The device drew what it stored; the server's page comes back when the game is over
      // (the result, the sign-off) and otherwise with the next poll.
      if (storedAny && !outbox.length && (deviceFinished() || outChanged() || seatsChanged())) {
        return refreshSheet();
      }
      // The server answered: a poll that failed offline need not wait for its next turn to
      // take "Offline — last updated …" away from beside "Round 7 saved.".
      // The sheet alone: the entry form may be being typed in this very moment.
      var behind = document.getElementById("behind-notice");
      if (!offline && behind && !behind.hidden && window.htmx) {
        return fetchPart("?part=sheet", "#sheet");
      }
      return null;
    });
  }

  // The server's page part, swapped in by htmx. htmx rejects its promise with nothing when the
  // request fails (the network dropped meanwhile): the next poll or sync fetches it again, and
  // no "undefined" escapes as an error of the page.
  // One at a time: htmx queues a second behind the first and sends it later with a promise of
  // its own that nobody holds (offline, the same "undefined"); the first brings the news too.
  function fetchPart(query, target) {
    if (!window.htmx || document.body.classList.contains("htmx-request")) return Promise.resolve();
    return Promise.resolve(window.htmx.ajax("GET", sheetUrl + query, { target: target, swap: "outerHTML" }))
      .catch(function () { return null; });
  }

  // "Mine came first" moves the stored rounds after the phone's: each is sent as another round
  // (or corrects a later one) once the phone's round took its place. If it did not (refused as
  // a round another phone stored meanwhile, or discarded), the stored round is still there
  // under another number: the move would store it twice.
  function notDisplaced(op) {
    if (!op.moves || !server) return false;
    var entries = entriesOf(op.fields);
    return server.rounds.some(function (round, index) {
      return index + 1 !== op.number && sameRecord(round, entries);
    });
  }

  // A change the server stored, into a copy of the stored game.
  function fold(state, op) {
    if (op.action === "record" && state.rounds.length < op.number) {
      if (op.fields.join_name && state.players.indexOf(op.fields.join_name) < 0) {
        // The joiner's seat, after the last: the engine still starts from the first players.
        state.starting_players = state.starting_players || state.players.slice();
        state.players = state.players.concat([op.fields.join_name]);
        state.positions = state.positions.concat([parseInt(op.fields.joinPosition, 10)]);
      }
      state.rounds.push(entriesOf(op.fields));
    } else if (op.action === "correct" && state.rounds[op.number - 1]) {
      state.rounds[op.number - 1] = entriesOf(op.fields);
    } else if (op.action === "undo") {
      state.rounds.pop();
    }
  }

  // The stored game after the server's answer: the server's own copy when it sent one (the
  // device was behind), else the device's with the change folded in.
  function afterAnswer(op, answer) {
    if (answer.state) return answer.state;
    var state = copyOf(server);
    fold(state, op);
    state.version = answer.version;
    return state;
  }

  // What the server said of one change; true when it is done with (the next may go).
  function settle(op, answer) {
    var status = answer.status;
    if (status === "stored" || status === "replayed" || status === "same") {
      var known = afterAnswer(op, answer);
      // The kept copy takes the stored change in the same write that takes it out of the
      // outbox: an offline reload right after this answer knows the round.
      return change(function (saved) {
        saved.outbox = saved.outbox.filter(function (other) { return other.id !== op.id; });
        if (status === "same") {
          // Already there: it changed nothing, so the later changes saw one version less.
          saved.outbox.forEach(function (other) { other.version -= 1; });
        } else {
          // This device's own: never compared with its later rounds (the last few will do).
          saved.mine = (saved.mine || []).concat([{ id: op.id, version: answer.version }]).slice(-30);
        }
        keepKnown(saved, known);
      }).then(function () {
        server = known;
        if (op.action === "record") announce(t(texts.saved, { number: op.number }));
        else if (op.action === "correct") announce(t(texts.corrected, { number: op.number }));
        else announce(texts.undone);
        return true;
      });
    }
    if (status === "closed") {
      close(answer.message);
      return Promise.resolve(false);
    }
    if (status === "already") {
      // Stored by another phone since this one had the sheet: out of the outbox, never sent
      // again, and shown with the way to say "this is another round".
      return change(function (saved) {
        saved.outbox = saved.outbox.filter(function (other) { return other.id !== op.id; });
        saved.outbox.forEach(function (other) { other.version -= 1; });
        saved.already = (saved.already || []).concat([{ id: op.id, action: op.action, number: op.number, stored: answer.number, fields: op.fields, html: answer.html || "" }]);
        if (answer.state) keepKnown(saved, answer.state);
      }).then(function () {
        if (answer.state && answer.state.version >= server.version) server = answer.state;
        announce(t(texts.already, { from: op.number, number: answer.number }));
        renderAlready();
        return true;
      });
    }
    return change(function (saved) {
      saved.outbox.forEach(function (other) {
        if (other.id === op.id) other.problem = { status: status, html: answer.html || "", message: answer.message || "", version: answer.version, since: answer.since || [] };
      });
      // The stored game the conflict is about, as the server has it now.
      if (answer.state) keepKnown(saved, answer.state);
    }).then(function () {
      if (answer.state && answer.state.version >= server.version) server = answer.state;
      return false;
    });
  }

  // Elimination: someone went out, so the next round's form has one hand fewer (the server's).
  function outChanged() {
    var form = document.getElementById("round-form");
    if (!form) return false;
    var drawn = form.querySelectorAll(".seat-entry.out").length;
    return form.querySelectorAll(".seat-entry.device-out").length !== 0 || drawn !== outCount();
  }

  // A player joined (house rules): the sheet and the form need the server's new seat.
  function seatsChanged() {
    var form = document.getElementById("round-form");
    return !!form && form.querySelectorAll(".seat-entry:not(.joining)").length !== server.players.length;
  }

  function outCount() {
    try {
      var result = score(deviceRounds().map(function (round) { return round.record; }));
      var out = {};
      result.rounds.forEach(function (round) {
        (round.eliminated || []).forEach(function (player) { out[player] = true; });
      });
      return Object.keys(out).length;
    } catch (error) {
      return 0;
    }
  }

  function deviceFinished() {
    try {
      return score(deviceRounds().map(function (round) { return round.record; })).finished;
    } catch (error) {
      return false;
    }
  }

  // The server's sheet after this device's changes are stored: the whole page part when the
  // entry form is untouched (the server knows best who plays the next round), else the sheet
  // alone, so that what is being typed stays.
  function refreshSheet() {
    var form = document.getElementById("round-form");
    if (!form || formIsPristine(form)) return fetchPart("", "#live");
    return fetchPart("?part=sheet", "#sheet");
  }

  // --- the save status, always beside the Record button -------------------------------------

  // What the status says once nothing waits: the last thing this page stored, else "Saved."
  function announce(message, done) {
    var status = document.getElementById("save-status");
    if (!status) return;
    status.dataset.announce = done === false ? "" : message;
  }

  function renderStatus() {
    var status = document.getElementById("save-status");
    renderProblem();
    renderAlready();
    if (!status) return;
    var state = status.querySelector(".state");
    var syncNow = status.querySelector(".sync-now");
    var problem = outbox.filter(function (op) { return op.problem; })[0];
    var text;
    var kind;
    if (closed) {
      text = t(texts.closed, { count: outbox.length });
      kind = "closed";
    } else if (problem) {
      text = problem.problem.status === "conflict" ? texts.conflict
        : (problem.problem.status === "stale" ? t(texts.stale, { number: problem.number || "" }) : t(texts.refused, { reason: problem.problem.message }));
      kind = "conflict";
    } else if (flushing && outbox.length) {
      text = texts.syncing;
      kind = "syncing";
    } else if (outbox.length && (offline || !navigator.onLine)) {
      text = texts.offline + " " + t(plural(texts.waiting, outbox.length), { count: outbox.length });
      kind = "offline";
    } else if (outbox.length) {
      text = t(plural(texts.waiting, outbox.length), { count: outbox.length });
      kind = "waiting";
    } else if (status.dataset.announce) {
      text = status.dataset.announce;
      kind = "saved";
    } else {
      // Nothing typed on this page yet: nothing to say.
      status.hidden = true;
      return;
    }
    status.hidden = false;
    status.className = "save-status " + kind;
    state.textContent = text;
    syncNow.hidden = !outbox.length || flushing || !!problem || !!closed;
  }

  // A change the server would not take as it is: the choice, in place of the entry form.
  function renderProblem() {
    var slot = document.getElementById("device-problem");
    if (!slot) {
      slot = document.createElement("div");
      slot.id = "device-problem";
      live.insertBefore(slot, live.firstChild);
    }
    var op = outbox.filter(function (other) { return other.problem; })[0];
    if (!op) {
      slot.innerHTML = "";
      return;
    }
    if (slot.dataset.op === op.id) return;
    slot.dataset.op = op.id;
    if (op.problem.status === "conflict" && op.problem.html) {
      slot.innerHTML = op.problem.html;
      // What waits behind the round in question: nothing goes before the choice.
      var behind = outbox.slice(outbox.indexOf(op) + 1);
      if (behind.length) {
        var note = document.createElement("p");
        note.className = "waiting-behind";
        note.textContent = t(texts.waiting_behind, {
          count: behind.length,
          changes: behind.map(function (other) {
            var twin = storedTwin(other, op.problem.since);
            return describeLine(other) + (twin ? " " + t(texts.already_there, { number: twin.number }) : "");
          }).join("; "),
        });
        var section = slot.querySelector("section") || slot;
        section.insertBefore(note, section.querySelector(".choices"));
      }
      if (cameFirst(op)) offerFirst(slot);
    } else {
      var message = op.problem.status === "stale" ? t(texts.stale, { number: op.number || "" }) : t(texts.refused, { reason: op.problem.message });
      slot.innerHTML = '<section class="conflict" role="alert"><p>' + escapeHtml(message) + '</p><div class="choices">' +
        (op.problem.status === "stale" ? '<button type="button" class="primary" data-choice="anyway">' + escapeHtml(texts.apply_anyway) + "</button>" : "") +
        '<button type="button" data-choice="discard">' + escapeHtml(texts.discard_mine) + "</button></div></section>";
    }
    slot.setAttribute("data-op", op.id);
    var focus = slot.querySelector("h2, p");
    if (focus) {
      focus.tabIndex = -1;
      focus.focus();
    }
  }

  // The round stored since this phone's version with the same entries as a waiting round
  // (same hands, same caller or emptied hand, same players along), if any.
  function storedTwin(op, since) {
    if (op.action !== "record" || op.another || !since) return null;
    var entries = entriesOf(op.fields);
    return since.filter(function (stored) { return sameRecord(stored.record, entries); })[0] || null;
  }

  // The rounds the server had already from another phone: each shown with the stored one
  // until the referee says "it is that round" or "this is another round" (sent again then).
  function renderAlready() {
    var slot = document.getElementById("device-already");
    if (!slot) {
      slot = document.createElement("div");
      slot.id = "device-already";
      var problem = document.getElementById("device-problem");
      if (problem) problem.after(slot);
      else live.insertBefore(slot, live.firstChild);
    }
    var shown = already.map(function (entry) { return entry.id; }).join(",");
    if (slot.dataset.shown === shown) return;
    slot.dataset.shown = shown;
    slot.innerHTML = "";
    already.forEach(function (entry) {
      var holder = document.createElement("div");
      holder.dataset.already = entry.id;
      holder.innerHTML = entry.html;
      holder.querySelectorAll("[id]").forEach(function (node) { node.removeAttribute("id"); });
      if (entry.action === "correct") {
        // A round replaced with entries stored since as another round: "record it as another
        // round" is not what the referee asked; correcting the round again is.
        holder.querySelectorAll('[data-choice="another"]').forEach(function (node) { node.remove(); });
      }
      slot.appendChild(holder);
    });
  }

  function answerAlready(id, another) {
    var entry = already.filter(function (other) { return other.id === id; })[0];
    var kept = change(function (saved) {
      saved.already = (saved.already || []).filter(function (other) { return other.id !== id; });
    });
    return kept.then(function () {
      renderAlready();
      if (!entry || !another) return null;
      // The referee's word: another round, with the same entries, after everything else.
      return queue({ action: "record", number: deviceRounds().length + 1, fields: entry.fields, another: true });
    });
  }

  // Case 2 of two phones: the other phone, behind, numbered its rounds among this phone's
  // waiting ones. None of those is among the rounds stored since, every stored round from the
  // conflict on was stored since, and only rounds wait: "mine came first" is then the choice
  // that keeps every round, in the order played, and is offered first.
  function cameFirst(op) {
    var since = op.problem.since || [];
    if (!since.length || op.action !== "record") return false;
    var waiting = outbox.slice(outbox.indexOf(op));
    if (waiting.some(function (other) { return other.action !== "record" || storedTwin(other, since); })) return false;
    var numbers = since.map(function (stored) { return stored.number; });
    for (var number = op.number; number <= server.rounds.length; number += 1) {
      if (numbers.indexOf(number) < 0) return false;
    }
    return op.number <= server.rounds.length;
  }

  function offerFirst(slot) {
    var choices = slot.querySelector(".choices");
    if (!choices) return;
    var hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = texts.first_hint;
    choices.before(hint);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "primary";
    button.dataset.choice = "first";
    button.textContent = texts.first;
    choices.insertBefore(button, choices.firstChild);
    choices.querySelectorAll(".primary").forEach(function (other) {
      if (other !== button) other.classList.remove("primary");
    });
  }

  // A round's entries → a change's form fields (the inverse of `entriesOf`).
  function fieldsOfRecord(record) {
    var positions = {};
    server.players.forEach(function (player, index) { positions[player] = String(server.positions[index]); });
    var fields = { along: (record.along || []).map(function (player) { return positions[player]; }) };
    if (record.joins && !(record.joins.name in positions)) {
      // Its joiner not seated on this sheet yet: the join's own fields, on the next seat.
      var joined = record.joins.name;
      positions[joined] = String(Math.max.apply(null, server.positions) + 1);
      fields.joinPosition = positions[joined];
      fields.join_name = joined;
      fields.join_start = typeof record.joins.start === "number" ? "number" : record.joins.start;
      if (typeof record.joins.start === "number") fields.join_total = String(record.joins.start);
      fields.join_hand = String(record.hands[joined]);
      if ((record.jokers || {})[joined]) fields.join_jokers = String(record.jokers[joined]);
    }
    Object.keys(record.hands).forEach(function (player) {
      if (player === fields.join_name) return;
      fields["hand_" + positions[player]] = String(record.hands[player]);
      if ((record.jokers || {})[player]) fields["jokers_" + positions[player]] = String(record.jokers[player]);
    });
    fields.ending = record.yaniv ? "yaniv:" + positions[record.yaniv] : "empty:" + positions[record.empty_hand];
    return fields;
  }

  // "Mine came first": this phone's waiting rounds take the numbers from the conflict on, and
  // the rounds stored meanwhile follow them, in their order: corrections where a number is
  // stored, records after. Returns what moved, in words.
  function putMineFirst(saved, op) {
    var at = saved.outbox.map(function (other) { return other.id; }).indexOf(op.id);
    var waiting = saved.outbox.slice(at);
    var theirs = server.rounds.slice(op.number - 1);
    var wanted = waiting.map(function (other) { return other.fields; }).concat(theirs.map(fieldsOfRecord));
    var ops = [];
    var words = [];
    wanted.forEach(function (fields, index) {
      var number = op.number + index;
      var stored = server.rounds[number - 1];
      var moved = index >= waiting.length;
      if (moved) {
        words.push(t(texts.stored_moved, { from: op.number + index - waiting.length, to: number }));
      }
      if (stored && sameRecord(stored, entriesOf(fields))) return;
      // Mine keep the sheet they were typed on (a round another phone stores meanwhile is
      // still that round); the stored ones moving after them are another round by choice.
      var change = { id: uuid(), action: stored ? "correct" : "record", number: number, fields: fields, typedAt: Date.now(),
        known: moved ? server.version : waiting[index].known, another: moved, moves: moved };
      if (stored) change.reason = texts.first_reason;
      ops.push(change);
    });
    saved.outbox = saved.outbox.slice(0, at).concat(ops);
    return words;
  }

  // The referee's choice on a change the server would not take as it is. The changes queued
  // behind it waited; they follow the stored sheet now, renumbered where the stored rounds
  // moved them, and the status says which moved. Nothing goes without being shown.
  function resolve(choice, reason) {
    var op = outbox.filter(function (other) { return other.problem; })[0];
    if (!op) return;
    var moved = [];
    var dropped = null;
    var twins = [];
    // A round replaced with mine is no longer what it was: no waiting round is that one.
    var since = (op.problem.since || []).filter(function (stored) {
      return !(choice === "replace" && stored.number === op.number);
    });
    var first = [];
    return change(function (saved) {
      if (choice === "first") {
        first = putMineFirst(saved, op);
        moved = renumber(saved.outbox);
        return;
      }
      saved.outbox = saved.outbox.filter(function (other) {
        if (other.id !== op.id) {
          // A waiting round another phone stored since: that round, never sent under a new
          // number (the server would refuse it all the same).
          var twin = storedTwin(other, since);
          if (twin) twins.push({ from: other.number, number: twin.number });
          return !twin;
        }
        if (choice === "keep" || choice === "discard") {
          dropped = other;
          return false;
        }
        if (choice === "replace") {
          other.action = "correct";
          other.reason = reason;
          other.id = uuid();
        } else if (choice === "after") {
          // Mine is another round: recorded after the stored ones, under a new id.
          other.id = uuid();
        }
        delete other.problem;
        return true;
      });
      moved = renumber(saved.outbox);
    }).then(function () {
      var slot = document.getElementById("device-problem");
      if (slot) {
        slot.innerHTML = "";
        slot.dataset.op = "";
      }
      var words = [];
      if (dropped && dropped.action === "record") {
        words.push(t(texts.discarded, { number: dropped.number, entries: describe(dropped) }));
      }
      twins.forEach(function (twin) { words.push(t(texts.already, twin)); });
      words = words.concat(first);
      moved.forEach(function (move) { words.push(t(texts.moved, move)); });
      showMoved(words.join(" "));
      renderPending();
      return flush();
    });
  }

  // What a choice did to the referee's own rounds, beside the status until the next round is
  // typed: the "saved" of the rounds sent after it must not hide it.
  function showMoved(text) {
    var note = document.getElementById("device-moved");
    if (!text) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = "device-moved";
      note.className = "notice";
      note.setAttribute("role", "status");
      var status = document.getElementById("save-status");
      if (status) status.after(note);
      else live.insertBefore(note, live.firstChild);
    }
    note.textContent = text;
  }

  // The outbox after a choice: each round numbered after the stored sheet and the changes
  // before it, each change on the version it will meet. Returns the rounds that moved.
  function renumber(ops) {
    var count = server.rounds.length;
    var version = server.version;
    var moved = [];
    ops.forEach(function (op) {
      if (op.action === "record") {
        count += 1;
        if (op.number !== count) {
          moved.push({ from: op.number, to: count });
          op.number = count;
        }
      } else if (op.action === "undo") {
        count -= 1;
      }
      // A correction keeps the number of the round it corrects.
      op.version = version;
      version += 1;
    });
    return moved;
  }

  // A change as words anyone can read and copy: "Round 4: Ann 0 (Yaniv), Bart 12".
  function describe(op) {
    var entries = "";
    if (op.fields) {
      var labels = {};
      if (server) {
        server.positions.forEach(function (position, index) { labels[position] = server.players[index]; });
      }
      var ending = String(op.fields.ending || "").split(":");
      entries = Object.keys(op.fields).filter(function (name) { return /^hand_\d+$/.test(name); }).map(function (name) {
        var position = name.slice(5);
        var player = labels[position] || "#" + position;
        var note = "";
        if (ending[1] === position) note = " " + (ending[0] === "yaniv" ? texts.yaniv_note : texts.emptied_note);
        else if ((op.fields.along || []).indexOf(position) >= 0) note = " " + texts.along_note;
        return player + " " + op.fields[name] + note;
      }).join(", ");
    }
    if (op.action === "record") return entries;
    if (op.action === "correct") return entries + (op.reason ? " — " + op.reason : "");
    return op.reason || "";
  }

  function describeLine(op) {
    var template = op.action === "record" ? texts.line_record : (op.action === "correct" ? texts.line_correct : texts.line_undo);
    return t(template, { number: op.number || "", entries: describe(op) });
  }

  // --- when this device may no longer record here -------------------------------------------

  // The page stays, says why, and shows what this phone still holds, as text to read out,
  // copy or send; nothing goes until it is stored or the person deletes it.
  function close(reason) {
    closed = reason;
    var form = document.getElementById("round-form");
    if (form) form.hidden = true;
    var slot = document.getElementById("device-closed");
    if (!slot) {
      slot = document.createElement("div");
      slot.id = "device-closed";
      var page = document.getElementById("closed-page");
      if (page) page.after(slot);
      else live.insertBefore(slot, live.firstChild);
    }
    // The closed code's own page says why already; the table page says it here.
    var why = document.getElementById("closed-page") ? "" : "<p>" + escapeHtml(t(texts.closed_why, { reason: String(reason).replace(/\.$/, "") })) + "</p>";
    var html = '<section class="closed conflict" role="alert" aria-labelledby="closed-title"><h2 id="closed-title" tabindex="-1">' +
      escapeHtml(texts.closed_title) + "</h2>" + why;
    if (outbox.length) {
      var text = outbox.map(describeLine).join("\n");
      html += "<p>" + escapeHtml(t(texts.closed_kept, { count: outbox.length })) + "</p>" +
        '<label for="pending-text">' + escapeHtml(texts.pending_text) + '</label><textarea id="pending-text" readonly rows="' +
        Math.min(8, outbox.length + 1) + '">' + escapeHtml(text) + "</textarea>" +
        '<div class="choices"><button type="button" class="primary" data-closed="copy">' + escapeHtml(texts.copy) + "</button>" +
        '<button type="button" data-closed="delete">' + escapeHtml(texts.delete_kept) + "</button></div>";
    } else {
      html += "<p>" + escapeHtml(texts.closed_nothing) + "</p>";
    }
    slot.innerHTML = html + "</section>";
    renderStatus();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#device-closed [data-closed]") : null;
    if (!button) return;
    if (button.dataset.closed === "copy") {
      var area = document.getElementById("pending-text");
      area.select();
      var done = function () { button.textContent = texts.copied; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(area.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    } else if (button.dataset.closed === "delete" && window.confirm(t(texts.delete_confirm, { count: outbox.length }))) {
      change(function (saved) { saved.outbox = []; }).then(function () { close(closed); });
    }
  });

  // --- corrections and undo, offline too --------------------------------------------------

  function openCorrection(number) {
    var form = document.getElementById("round-form");
    var panel = document.getElementById("correction-panel");
    if (!form || !panel) return false;
    var rounds = deviceRounds();
    var round = rounds[number - 1];
    if (!round) return false;
    var copy = form.cloneNode(true);
    copy.id = "device-correction";
    copy.className = "round-form correction";
    copy.removeAttribute("data-hx-post");
    copy.querySelectorAll("[id]").forEach(function (node) { node.id = "c_" + node.id; });
    copy.querySelectorAll("label[for]").forEach(function (node) { node.htmlFor = "c_" + node.htmlFor; });
    copy.querySelectorAll(".device-error, .sticky-submit, #c_preview, #c_save-status").forEach(function (node) { node.remove(); });
    copy.querySelector("h2").textContent = texts.correct_round ? t(texts.correct_round, { number: number }) : "✎ " + number;
    copy.querySelector('input[name="number"]').value = number;
    var record = round.record;
    var out = {};
    var before = {};
    try {
      var earlier = score(rounds.slice(0, number - 1).map(function (r) { return r.record; }));
      earlier.rounds.forEach(function (r) {
        (r.eliminated || []).forEach(function (p) { out[p] = true; });
      });
      before = earlier.totals || {};
    } catch (error) { /* shown when sent */ }
    copy.querySelectorAll(".seat-entry").forEach(function (fieldset, index) {
      var player = server.players[index];
      var position = server.positions[index];
      fieldset.disabled = !!out[player];
      // The legend shows the totals before the corrected round, not today's.
      var total = fieldset.querySelector(".seat-total");
      if (total) total.textContent = number === 1 ? 0 : (player in before ? before[player] : total.textContent);
      var hand = fieldset.querySelector('input[name="hand_' + position + '"]');
      if (hand) hand.value = player in record.hands ? record.hands[player] : "";
      fieldset.querySelectorAll('input[name="ending"]').forEach(function (radio) {
        radio.checked = radio.value === "yaniv:" + position ? record.yaniv === player : (radio.value === "empty:" + position && record.empty_hand === player);
      });
      fieldset.querySelectorAll('input[name="along"]').forEach(function (box) {
        box.checked = (record.along || []).indexOf(player) >= 0;
      });
    });
    var reason = document.createElement("label");
    reason.innerHTML = escapeHtml(texts.reason || "Reason") + ' <input type="text" name="reason" required maxlength="500">';
    var save = document.createElement("button");
    save.type = "submit";
    save.className = "primary big";
    save.textContent = texts.save_correction || "OK";
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.textContent = texts.cancel || "×";
    cancel.addEventListener("click", function () { panel.innerHTML = ""; });
    copy.appendChild(reason);
    copy.appendChild(save);
    copy.appendChild(cancel);
    panel.innerHTML = "";
    panel.appendChild(copy);
    copy.querySelector("input.hand, input").focus();
    copy.addEventListener("submit", function (event) {
      event.preventDefault();
      var fields = fieldsOf(copy);
      if (!fields.reason) {
        copy.querySelector('input[name="reason"]').focus();
        return;
      }
      var checked = problems(fields, number);
      if (checked.list.length) {
        showProblems(copy, checked.list);
        return;
      }
      panel.innerHTML = "";
      if (round.pending && round.pending.action === "record") {
        // Not sent yet: the pending round itself changes.
        change(function (saved) {
          saved.outbox.forEach(function (op) {
            if (op.id === round.pending.id) op.fields = stripFields(fields);
          });
        }).then(renderPending).then(flush);
      } else {
        queue({ action: "correct", number: number, fields: stripFields(fields), reason: fields.reason });
      }
    });
    return true;
  }

  function stripFields(fields) {
    var kept = { along: fields.along || [] };
    Object.keys(fields).forEach(function (name) {
      if (name === "ending" || name === "joinPosition" || TYPED_FIELD.test(name)) {
        kept[name] = fields[name];
      }
    });
    return kept;
  }

  function undo(reason) {
    var last = outbox[outbox.length - 1];
    if (last && last.action === "record") {
      // Never sent: it simply goes.
      return change(function (saved) { saved.outbox.pop(); }).then(renderPending);
    }
    return queue({ action: "undo", reason: reason });
  }

  // --- wiring -------------------------------------------------------------------------------

  // The server's preview and posts give way to the device's (htmx would send them too).
  document.body.addEventListener("htmx:confirm", function (event) {
    var source = event.detail.elt;
    if (source && (source.id === "preview" || source.id === "round-form" || source.id === "undo-form")) {
      event.preventDefault();
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "round-form") {
      event.preventDefault();
      event.stopImmediatePropagation();
      var fields = fieldsOf(form);
      var checked = problems(fields, fields.number);
      if (checked.list.length) {
        showProblems(form, checked.list);
        return;
      }
      showProblems(form, []);
      var number = fields.number;
      // The form clears once the round is written on the phone, never before: a reload or a
      // closed tab right after the tap keeps it. Meanwhile the button takes no second tap.
      var recordButton = document.getElementById("record-button");
      if (recordButton) recordButton.disabled = true;
      queue({ action: "record", number: number, fields: stripFields(fields) }, function () {
        form.reset();
        form.querySelector('input[name="number"]').dataset.typed = "";
        // The thumb goes on with the next round's first hand: focused before the sheet is
        // redrawn, so that the focus lays out nothing the redraw changes again.
        var first = form.querySelector("input.hand:not([disabled])");
        if (first) first.focus();
        var preview = document.getElementById("preview");
        if (preview) preview.innerHTML = "";
        announce(t(texts.saved_here, { number: number }), false);
        showMoved("");
      }).then(function () {
        // Someone went out in that round: their hand is no longer the first.
        var focused = document.activeElement;
        if (focused && focused.form === form && focused.disabled) {
          var next = form.querySelector("input.hand:not([disabled])");
          if (next) requestAnimationFrame(function () { next.focus(); });
        }
      }).then(function () {
        if (recordButton) recordButton.disabled = false;
      }, function () {
        if (recordButton) recordButton.disabled = false;
      });
    } else if (form.id === "undo-form") {
      event.preventDefault();
      event.stopImmediatePropagation();
      var reason = form.querySelector('input[name="reason"]').value.trim();
      if (!reason) return;
      form.reset();
      undo(reason);
    } else if (form.closest && form.closest("#device-already") && form.dataset.choice === "another") {
      event.preventDefault();
      event.stopImmediatePropagation();
      answerAlready(form.closest("[data-already]").dataset.already, true);
    } else if (form.closest && form.closest("#device-problem") && form.dataset.choice === "replace") {
      event.preventDefault();
      event.stopImmediatePropagation();
      resolve("replace", form.querySelector('input[name="reason"]').value.trim());
    }
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-choice], .sync-now, a[href*='/correct/']") : null;
    if (!target) return;
    if (target.classList.contains("sync-now")) {
      event.preventDefault();
      offline = false;
      flush();
    } else if (target.closest("#device-already") && target.dataset.choice === "same") {
      event.preventDefault();
      answerAlready(target.closest("[data-already]").dataset.already, false);
    } else if (target.closest("#device-problem") && target.dataset.choice && target.dataset.choice !== "replace") {
      event.preventDefault();
      resolve(target.dataset.choice);
    } else if (/\/correct\/$/.test(target.getAttribute("href") || "")) {
      var number = parseInt(/rounds\/(\d+)\/correct/.exec(target.getAttribute("href"))[1], 10);
      if (openCorrection(number)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }
  }, true);

  // The preview scores the whole game: once a frame, not once an event (a toggle's tap fires
  // both "input" and "change").
  var previewFrame = 0;
  function typedIn(event) {
    var form = event.target.form;
    if (!form || form.id !== "round-form") return;
    form.querySelector('input[name="number"]').dataset.typed = "1";
    if (previewFrame) return;
    previewFrame = requestAnimationFrame(function () {
      previewFrame = 0;
      renderPreview(form);
    });
  }
  document.addEventListener("input", typedIn);
  document.addEventListener("change", typedIn);

  // A fresh sheet from the server (a poll, or after a sync): keep it for an offline reload.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || (target.id !== "sheet" && target.id !== "live")) return;
    live = document.getElementById("live") || live;
    if (!document.getElementById("game-state")) {
      // The server drew the follower's sheet (signed off, or this device may no longer record
      // here): with changes still on the phone, ask why.
      if (outbox.length) probeAccess();
      return;
    }
    var wasFinished = server && server.finished;
    readServer();
    remember();
    if (server && server.finished && !wasFinished && !outbox.length && target.id === "sheet") {
      fetchPart("", "#live");
      return;
    }
    renderPending();
    if (document.activeElement === document.body || !document.activeElement) {
      // After a save the referee's thumb goes on with the next round's first hand.
      var first = document.querySelector("#round-form input.hand:not([disabled])");
      if (first) first.focus();
    }
  });

  // The game as last known stored, at every fresh sheet (small: an offline reload redraws
  // the sheet from it); the sheet's HTML (17 KB at 22 rounds) only when the page goes away.
  function remember() {
    if (!server) return;
    var state = server;
    return change(function (saved) { keepKnown(saved, state); });
  }

  function keepSheet() {
    var sheet = document.getElementById("sheet");
    if (!sheet || !rendered || closed) return;
    var drawn = rendered;
    var html = sheet.outerHTML;
    change(function (saved) {
      if (!saved.sheet || saved.sheet.version < drawn.version) {
        saved.sheet = { version: drawn.version, html: html };
      }
    });
  }
  window.addEventListener("pagehide", keepSheet);

  window.addEventListener("online", function () { offline = false; flush(); });
  window.addEventListener("offline", function () { offline = true; renderStatus(); });
  window.addEventListener("focus", function () { if (outbox.length) flush(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") keepSheet();
    else if (outbox.length) flush();
  });
  setInterval(function () { if (outbox.length && !flushing) flush(); }, 10000);

  // A poll answered "no such table" or "not yours": ask the sync why, in words (it writes
  // nothing for a change it cannot read).
  function probeAccess() {
    if (closed) return;
    var body = new URLSearchParams();
    body.set("action", "check");
    fetch(syncUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (answer.status === "closed") close(answer.message);
    }).catch(function () { /* offline: the next sync tells */ });
  }

  document.body.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status === 403 || status === 404 || status === 410) probeAccess();
  });
  // A page whose access ended polls no more (and is never swapped for an error page).
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (closed) event.preventDefault();
  });

  // On a page reloaded offline the kept page may be older than what this device saw: the
  // sheet is the newest of the page, the kept sheet and the kept game, plus the outbox.
  readServer();
  var ready = load().then(function (saved) {
    outbox = saved.outbox;
    mine = saved.mine || [];
    already = saved.already || [];
    var sheet = document.getElementById("sheet");
    if (saved.sheet && server && saved.sheet.version > server.version && sheet) {
      sheet.outerHTML = saved.sheet.html;
      if (window.htmx) window.htmx.process(document.getElementById("sheet"));
      readServer();
    }
    if (saved.known && (!server || saved.known.version > server.version)) server = copyOf(saved.known);
    if (live.dataset.closed) {
      close(live.dataset.closed);
      handOver("ready");
      return;
    }
    remember();
    renderPending();
    renderAlready();
    handOver("ready");
    if (outbox.length) flush();
  }).catch(function () {
    // IndexedDB refused (a private window, say): the page posts as before.
    handOver("none");
  });

  // For the benchmark: the page is ready once the outbox is read and drawn.
  window.yanivReady = ready;
  // For the tests: the device's outbox, as it is stored.
  window.yanivOutbox = function () { return load().then(function (saved) { return saved.outbox; }); };
})();
