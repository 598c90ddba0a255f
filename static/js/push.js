// "Notify me on this phone": subscribe this browser through the Push API with the site's
// VAPID key and tell the site which player it follows (forms in templates/notifications/).
"use strict";
(function () {
  const forms = document.querySelectorAll("form.push-form");
  if (!forms.length) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!supported) return;
  document.querySelectorAll("[data-push-unsupported]").forEach((note) => { note.hidden = true; });

  function keyBytes(base64url) {
    const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }

  // Which forms this phone subscribed through: the page shows "Stop these" for them.
  function remembered(form) { return localStorage.getItem("push:" + form.action) === "1"; }
  function remember(form, on) {
    if (on) localStorage.setItem("push:" + form.action, "1");
    else localStorage.removeItem("push:" + form.action);
  }

  function show(form, on, message) {
    form.querySelector("[data-push-on]").hidden = on;
    form.querySelector("[data-push-off]").hidden = !on;
    if (message !== undefined) form.querySelector(".push-status").textContent = message;
  }

  async function post(url, form, fields) {
    const body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const response = await fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.message || response.statusText);
    return answer;
  }

  // What the section says when the browser cannot (its words are the page's language).
  function said(form, name) { return form.closest(".push").dataset[name] || ""; }

  // A browser without a push service (some Chromium builds, a private window) refuses the
  // subscription, or never gets its service worker ready: the button says so either way.
  class Unavailable extends Error {}

  async function subscription(form) {
    const waited = new Promise((resolve, reject) => setTimeout(() => reject(new Unavailable()), 10000));
    try {
      const registration = await Promise.race([navigator.serviceWorker.ready, waited]);
      const existing = await registration.pushManager.getSubscription();
      if (existing) return existing;
      return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(form.dataset.pushKey) });
    } catch (error) {
      throw new Unavailable(String(error && error.message));
    }
  }

  forms.forEach((form) => {
    form.hidden = false;
    show(form, remembered(form));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        if ((await Notification.requestPermission()) !== "granted") {
          show(form, false, said(form, "pushDenied"));
          return;
        }
        const json = (await subscription(form)).toJSON();
        const announcements = form.querySelector("[name=announcements]");
        const answer = await post(form.action, form, {
          endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth,
          announcements: announcements && announcements.checked ? "1" : "",
        });
        remember(form, true);
        show(form, true, answer.message || "");
      } catch (error) {
        show(form, false, error instanceof Unavailable ? said(form, "pushUnavailable") : String(error.message || error));
      }
    });
    form.querySelector("[data-push-off]").addEventListener("click", async () => {
      try {
        const registration = await navigator.serviceWorker.ready;
        const existing = await registration.pushManager.getSubscription();
        let message = "";
        if (existing) message = (await post(form.dataset.pushStop, form, { endpoint: existing.endpoint })).message || "";
        remember(form, false);
        show(form, false, message);
      } catch (error) {
        form.querySelector(".push-status").textContent = String(error.message || error);
      }
    });
  });
})();
