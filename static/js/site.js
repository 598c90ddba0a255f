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
