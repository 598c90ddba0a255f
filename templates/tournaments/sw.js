// Yaniv Club's service worker: pages opened once open again without a connection.
// Writes never go through here: the table page keeps its own outbox and sends it itself.
"use strict";
const VERSION = "{{ version }}";
const STATIC = "static-" + VERSION;
const PAGES = "pages";
const PRECACHE = {{ urls|safe }};
const OFFLINE = {{ offline|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC).then((cache) => cache.addAll([...PRECACHE, OFFLINE])).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("static-") && name !== STATIC).map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

// Pages a referee or follower may want back offline; never the admin or the login pages.
function keepsPage(url) {
  return !url.pathname.startsWith("/admin/") && !url.pathname.startsWith("/accounts/");
}

async function fromNetworkKeeping(request) {
  const response = await fetch(request);
  // A page that answered with another (a log-in page after a log-out) is not kept as it.
  if (response.ok && response.type === "basic" && !response.redirected) {
    const cache = await caches.open(PAGES);
    await cache.put(request.url, response.clone());
  }
  return response;
}

async function page(request) {
  try {
    return await fromNetworkKeeping(request);
  } catch (error) {
    const kept = await caches.match(request.url, { cacheName: PAGES });
    return kept || (await caches.match(OFFLINE)) || Response.error();
  }
}

// Static files: the kept copy at once, refreshed behind it (their names change with them in
// production; in development the refresh keeps them current).
async function staticFile(request, event) {
  const cache = await caches.open(STATIC);
  const kept = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request, event));
  } else if (request.mode === "navigate" && keepsPage(url)) {
    event.respondWith(page(request));
  }
  // Everything else (polls, fragments, downloads) goes to the network as it is: the pages
  // say when they are behind.
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "keep-page" && message.url) {
    // The page the phone is on, fetched before this worker was there: keep it now.
    const url = new URL(message.url, self.location.origin);
    if (url.origin === self.location.origin && keepsPage(url)) {
      event.waitUntil(fromNetworkKeeping(new Request(url.href, { credentials: "same-origin" })).catch(() => null));
    }
  } else if (message.type === "forget-pages") {
    // A log-out: the pages kept for that account go (the outbox of each table stays).
    event.waitUntil(caches.delete(PAGES));
  }
});

// --- Notifications (the notifications app): show each push, open its page on a tap. -------
{% load static %}
// A message sent twice (its sender died mid-send) carries the same tag: the phone shows one.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { title: "Yaniv Club", body: event.data ? event.data.text() : "" };
  }
  const stop = message.stop || {};
  event.waitUntil(self.registration.showNotification(message.title || "Yaniv Club", {
    body: message.body || "",
    tag: message.tag,
    icon: "{% static 'icons/icon-192.png' %}",
    data: { url: message.url || "/", stop: stop.url || "" },
    actions: stop.url ? [{ action: "stop", title: stop.label || "Stop" }] : [],
  }));
});

self.addEventListener("notificationclick", (event) => {
  const notification = event.notification;
  const data = notification.data || {};
  notification.close();
  if (event.action === "stop") {
    // "Stop these": the signed address ends the subscription this message came through.
    event.waitUntil(fetch(data.stop, { method: "POST", headers: { Accept: "application/json" } }).catch(() => null));
    return;
  }
  const url = new URL(data.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    })
  );
});
