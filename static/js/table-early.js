// The table page's entry form before its script (table.js, deferred) holds it: a tap on
// Record is held here, never posted past the phone's outbox (offline, a round posted in that
// moment would be lost), and handed over once table.js is ready, or to htmx if it will not be.
// Loaded before the form, not deferred; no inline script (the Content-Security-Policy).
(function () {
  "use strict";
  var held = null;

  function release() {
    var form = held;
    held = null;
    if (!form || !form.isConnected) return;
    if (form.requestSubmit) form.requestSubmit();
    else form.submit();
  }

  document.addEventListener("submit", function (event) {
    if (window.yanivTable === "ready" || window.yanivTable === "none") return;
    var form = event.target;
    if (!form || form.id !== "round-form") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held = form;
  }, true);

  // table.js says "ready" once it holds the form and its outbox, "none" if it never will
  // (no IndexedDB): the held tap goes on then.
  window.yanivTableReady = function (state) {
    window.yanivTable = state;
    setTimeout(release, 0);
  };

  document.addEventListener("DOMContentLoaded", function () {
    // The deferred scripts ran before this: table.js said it is coming, or it is not there.
    if (window.yanivTable === undefined) window.yanivTableReady("none");
  });
})();
