// A dropped Wi-Fi or a database outage must never look like a saved round: when an htmx
// request that changes something fails, say so above the form and keep the entries on screen.
// The texts come translated from the page (the notice's data-* attributes).
(function () {
  function notice(kind, status) {
    var banner = document.getElementById("connection-notice");
    if (!banner) return;
    banner.textContent = (banner.dataset[kind] || "").replace("{status}", status || "");
    banner.hidden = false;
  }
  function isWrite(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    return verb && verb.toLowerCase() !== "get";
  }
  document.body.addEventListener("htmx:sendError", function (event) {
    if (isWrite(event)) notice("offline");
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    if (!isWrite(event)) return;
    var status = event.detail.xhr.status;
    if (status === 503) notice("busy");
    else if (status === 403) notice("forbidden");
    else notice("failed", String(status));
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && isWrite(event)) {
      var banner = document.getElementById("connection-notice");
      if (banner) banner.hidden = true;
    }
  });
})();

// Followers' pages poll for news: when a poll fails, say how old the page is, and stop saying
// it when a poll gets through again (htmx keeps polling by itself).
(function () {
  var notice = document.getElementById("behind-notice");
  var updated = new Date(document.body.dataset.rendered || Date.now());
  // The site's own clock, 24 hours as its pages write times ("H:i"), whatever the
  // browser's locale would say ("9:05 PM").
  function clock(moment) {
    function two(number) { return (number < 10 ? "0" : "") + number; }
    return two(moment.getHours()) + ":" + two(moment.getMinutes());
  }
  function isPoll(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    return verb && verb.toLowerCase() === "get";
  }
  document.body.addEventListener("htmx:sendError", function (event) {
    if (!notice || !isPoll(event)) return;
    notice.textContent = (notice.dataset.behind || "").replace("{time}", clock(updated));
    notice.hidden = false;
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event) || !event.detail.successful) return;
    updated = new Date();
    if (notice) notice.hidden = true;
  });
  // Back online: the polls go at once, not at their next turn (up to 15 s later), so that the
  // notice goes as soon as the page is up to date again. A poll failing still leaves it.
  window.addEventListener("online", function () {
    if (!notice || notice.hidden || !window.htmx) return;
    document.querySelectorAll("[data-hx-trigger*='every']").forEach(function (element) {
      var url = element.getAttribute("data-hx-get");
      // A poll on its way answers as well. (htmx would queue this one behind it and send it
      // later with a promise of its own that nobody holds: failing offline, it would escape
      // as the page's error "undefined".)
      if (!url || element.classList.contains("htmx-request")) return;
      Promise.resolve(window.htmx.ajax("GET", url, { source: element })).catch(function () { return null; });
    });
  });
})();

// The installable web app: a service worker keeps the pages opened here for offline use.
(function () {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  var script = document.body.dataset.serviceWorker;
  if (!script) return;
  navigator.serviceWorker.register(script).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    // This very page came before the worker: have it kept now.
    if (registration.active) registration.active.postMessage({ type: "keep-page", url: location.href });
  }).catch(function () { /* no offline copy: the site works as before */ });
  document.addEventListener("submit", function (event) {
    if (event.target.hasAttribute("data-forget-pages") && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
    }
  });
})();

// The Yaniv and Empty toggles of a round are checkboxes (a tab stop each: radios of every seat
// would form one group that arrowing checks on the way): one ending a round, so checking one
// unchecks the others. Without this script the server refuses two.
document.addEventListener("change", function (event) {
  var box = event.target;
  if (box.type !== "checkbox" || box.name !== "ending" || !box.checked || !box.form) return;
  Array.prototype.forEach.call(box.form.querySelectorAll('input[name="ending"]'), function (other) {
    if (other !== box) other.checked = false;
  });
});
