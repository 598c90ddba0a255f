// A dropped Wi-Fi or a database outage must never look like a saved round: when an htmx
// request that changes something fails, say so above the form and keep the entries on screen.
(function () {
  function notice(text) {
    var banner = document.getElementById("connection-notice");
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = false;
  }
  function isWrite(event) {
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    return verb && verb.toLowerCase() !== "get";
  }
  document.body.addEventListener("htmx:sendError", function (event) {
    if (isWrite(event)) notice("No connection: not saved. Check the Wi-Fi and try again.");
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    if (!isWrite(event)) return;
    var status = event.detail.xhr.status;
    if (status === 503) notice("Not saved: the site is busy or restarting. Try again in a moment.");
    else if (status === 403) notice("Not saved: you may not change this table.");
    else notice("Not saved (error " + status + "). Try again.");
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && isWrite(event)) {
      var banner = document.getElementById("connection-notice");
      if (banner) banner.hidden = true;
    }
  });
})();
