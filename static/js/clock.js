// The session clock (templates/tournaments/_clock.html): counts down in the browser from the
// end the server gave (data-ends-at, ms since the epoch), so the page shows 0:00 at the limit
// without asking, and says what the tournament's rule says then (data-over-text, in a polite
// live region). Each poll that brings a new clock element (htmx swaps it in place) re-syncs it.
// A paused or waiting clock shows the time left it was given (data-remaining).
//
// The phone's clock may be off: the server's time comes with every page (data-now of a clock
// drawn with the page) and every poll's answer (its Date header); beyond 1.5 s of difference
// the countdown follows the server.
(function () {
  "use strict";
  if (window.yanivClock) return;

  var SKEW_IGNORED_MS = 1500;
  // Server time minus this device's time, in ms (0 while they agree closely enough).
  var offset = 0;

  function adopt(sample) {
    if (!isFinite(sample)) return;
    offset = Math.abs(sample) > SKEW_IGNORED_MS ? sample : 0;
  }

  function clocks() {
    return document.querySelectorAll(".session-clock[data-phase]");
  }

  function shown(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function reachLimit(clock) {
    clock.dataset.phase = "over";
    clock.classList.remove("running");
    clock.classList.add("over");
    var label = clock.querySelector(".clock-label");
    if (label && clock.dataset.overLabel) label.textContent = clock.dataset.overLabel;
    var rule = clock.querySelector(".clock-rule");
    // The live region announces the rule once, politely.
    if (rule && !rule.textContent.trim() && clock.dataset.overText) {
      rule.textContent = clock.dataset.overText;
    }
  }

  // A table given more time, listed on the session's clock: its own countdown.
  function tickTable(line, now) {
    var time = line.querySelector(".table-time");
    if (!time) return;
    var text;
    if (line.dataset.phase === "running" && line.dataset.endsAt) {
      var left = Number(line.dataset.endsAt) - now;
      text = shown(left);
      if (left <= 0) {
        line.dataset.phase = "over";
        line.classList.add("over");
        var running = line.querySelector(".table-left");
        var over = line.querySelector(".table-over");
        if (running) running.hidden = true;
        if (over) over.hidden = false;
      }
    } else if (line.dataset.remaining) {
      text = shown(Number(line.dataset.remaining));
    }
    if (text !== undefined && time.textContent !== text) time.textContent = text;
  }

  function tick() {
    var now = Date.now() + offset;
    Array.prototype.forEach.call(document.querySelectorAll(".table-clock[data-phase]"), function (line) {
      tickTable(line, now);
    });
    Array.prototype.forEach.call(clocks(), function (clock) {
      var time = clock.querySelector(".clock-time");
      if (!time) return;
      var text;
      if (clock.dataset.phase === "running" && clock.dataset.endsAt) {
        var left = Number(clock.dataset.endsAt) - now;
        text = shown(left);
        if (left <= 0) reachLimit(clock);
      } else if (clock.dataset.phase === "over") {
        text = "0:00";
      } else if (clock.dataset.remaining) {
        text = shown(Number(clock.dataset.remaining));
      }
      if (text !== undefined && time.textContent !== text) time.textContent = text;
    });
  }

  // A clock drawn with the page (never a kept fragment) carries the server's time of drawing.
  var first = document.querySelector(".session-clock[data-now]");
  if (first && first.dataset.now) adopt(Number(first.dataset.now) - Date.now());

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var date = xhr && xhr.getResponseHeader && xhr.getResponseHeader("Date");
    // The header has whole seconds: the server's time is half a second later on average.
    if (date) adopt(Date.parse(date) + 500 - Date.now());
  });
  document.body.addEventListener("htmx:afterSettle", tick);

  window.yanivClock = { tick: tick, offset: function () { return offset; } };
  tick();
  setInterval(tick, 250);
})();
