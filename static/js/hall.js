// The hall screen: one view at a time, long lists in pages that fit the screen, the next page
// or view every few seconds. The director's settings come with each poll's fresh #screen
// (data-seconds, data-pinned, data-paused); the screen keeps its place across polls, so a
// change of the standings does not send it back to the first view.
(function () {
  "use strict";
  var state = { view: null, page: 0, timer: null };

  function screen() { return document.getElementById("screen"); }

  function views() {
    var root = screen();
    if (!root) return [];
    var all = Array.prototype.slice.call(root.querySelectorAll(".view"));
    var pinned = root.dataset.pinned;
    var only = pinned ? all.filter(function (view) { return view.dataset.view === pinned; }) : [];
    // A pinned view with nothing to show (no message yet): the cycle goes on.
    return only.length ? only : all;
  }

  // Split a view's list into pages that fit: items are shown one by one until the list
  // overflows its box. Done again after each poll and when the window changes size.
  function paginate(view) {
    var list = view.querySelector(".pages");
    if (!list) { view.pages = 1; return; }
    var items = Array.prototype.slice.call(list.children);
    // Measured alone on the screen, as it will be shown.
    var others = screen().querySelectorAll(".view");
    var hiddenBefore = Array.prototype.map.call(others, function (other) { return other.hidden; });
    Array.prototype.forEach.call(others, function (other) { other.hidden = other !== view; });
    // With its own title above it (a long one wraps on a phone and takes a line).
    head(view, "88/88");
    items.forEach(function (item) { item.hidden = true; delete item.dataset.page; });
    var page = 0;
    var onPage = 0;
    items.forEach(function (item) {
      item.hidden = false;
      // Lists in columns overflow sideways, the others downwards.
      var over = list.scrollHeight > list.clientHeight + 1 || list.scrollWidth > list.clientWidth + 1;
      if (onPage > 0 && over) {
        // This one starts the next page.
        list.querySelectorAll('li[data-page="' + page + '"]').forEach(function (done) { done.hidden = true; });
        page += 1;
        onPage = 0;
      }
      item.dataset.page = String(page);
      onPage += 1;
    });
    view.pages = page + 1;
    Array.prototype.forEach.call(others, function (other, index) { other.hidden = hiddenBefore[index]; });
  }

  function show(view, page) {
    views().forEach(function (other) { other.hidden = other !== view; });
    screen().querySelectorAll(".view").forEach(function (other) {
      if (views().indexOf(other) < 0) other.hidden = true;
    });
    var list = view.querySelector(".pages");
    if (list) {
      Array.prototype.forEach.call(list.children, function (item) {
        item.hidden = item.dataset.page !== String(page);
      });
    }
    state.view = view.dataset.view;
    state.page = page;
    head(view, view.pages > 1 ? (page + 1) + "/" + view.pages : "");
  }

  function head(view, count) {
    var header = screen().querySelector(".hall-head");
    if (!header) return;
    header.querySelector(".view-title").textContent = view.dataset.title || "";
    header.querySelector(".page-count").textContent = count;
  }

  function current() {
    var all = views();
    for (var i = 0; i < all.length; i++) {
      if (all[i].dataset.view === state.view) return i;
    }
    return -1;
  }

  function advance() {
    var all = views();
    if (!all.length) return;
    var index = current();
    if (index < 0) { show(all[0], 0); return; }
    var view = all[index];
    if (state.page + 1 < view.pages) show(view, state.page + 1);
    else show(all[(index + 1) % all.length], 0);
  }

  function schedule() {
    clearInterval(state.timer);
    var root = screen();
    if (!root || root.dataset.paused) return;
    var seconds = Math.max(5, parseInt(root.dataset.seconds, 10) || 15);
    state.timer = setInterval(advance, seconds * 1000);
  }

  function layout() {
    var root = screen();
    if (!root) return;
    shown = root.dataset.version;
    root.classList.add("cycling");
    root.querySelectorAll(".view").forEach(paginate);
    var all = views();
    if (!all.length) return;
    var index = current();
    if (index < 0) show(all[0], 0);
    else show(all[index], Math.min(state.page, all[index].pages - 1));
    schedule();
  }

  // A fresh #screen from a poll: same view and page where they still exist.
  var shown = null;
  document.body.addEventListener("htmx:afterSettle", function () {
    var root = screen();
    if (!root || root.dataset.version === shown) return;
    layout();
    // A reload without network gets this screen back, not the one first loaded.
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep-page", url: location.href });
  });
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(layout, 200);
  });
  // Exposed for the browser tests and for a keyboard at the laptop: → shows the next view.
  window.yanivHall = { advance: advance, state: state };
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === " ") { advance(); schedule(); }
  });
  layout();
})();
