// The header in the page's language, and the device's own language menu.
// - The header's words (data-pb-text, index.html.j2) are put in from the page's texts (texts.js).
// - The menu offers every shipped language by its own name. A choice is kept for this device
//   (the cookie `pb-lang`, read by the server: playbook.languages) and the page opens again in
//   it, on the same address: the same seat, the same place in the game (the table is in the
//   store). What was typed in its boxes and not yet used (a name half typed on the join page)
//   is kept for this tab and typed back once the page is up again.
(function () {
  var say = window.playbookSay, texts = window.playbookTexts || {};
  var header = document.querySelector(".playbook-header");
  if (!header) { return; }
  document.querySelectorAll("[data-pb-text]").forEach(function (node) {
    var key = node.getAttribute("data-pb-text");
    if (texts[key]) { node.textContent = say(key); }
  });
  document.querySelectorAll("[data-pb-title]").forEach(function (node) {
    var key = node.getAttribute("data-pb-title");
    if (texts[key]) { node.setAttribute("title", say(key)); }
  });
  document.querySelectorAll("[data-pb-label]").forEach(function (node) {
    var key = node.getAttribute("data-pb-label");
    if (texts[key]) { node.setAttribute("aria-label", say(key)); }
  });

  var KEPT = "playbook-typed", YEAR = 365 * 24 * 3600;
  var here = window.location.pathname + window.location.search;
  var base = header.getAttribute("data-base-url") || "/";
  // The boxes a reader types in (not the hidden ones the page's scripts fill), each known by its
  // widget's own pb- class and its place among the boxes of that class.
  function boxes() {
    var found = [], seen = {};
    document.querySelectorAll("#pb-main .widget-text input, #pb-main .widget-textarea textarea").forEach(function (input) {
      var widget = input.closest(".widget-text, .widget-textarea");
      var name = Array.prototype.filter.call(widget.classList, function (c) { return c.indexOf("pb-") === 0; })[0];
      if (!name || input.offsetParent === null) { return; }
      seen[name] = (seen[name] || 0) + 1;
      found.push({ name: name, at: seen[name] - 1, input: input });
    });
    return found;
  }
  function keepTyped() {
    var typed = boxes().filter(function (box) { return box.input.value; }).map(function (box) {
      return { name: box.name, at: box.at, value: box.input.value };
    });
    try { window.sessionStorage.setItem(KEPT, JSON.stringify({ page: here, at: Date.now(), typed: typed })); } catch (e) { /* private mode: the page comes back without them */ }
  }
  function typeBack() {
    var kept = null;
    try { kept = JSON.parse(window.sessionStorage.getItem(KEPT) || "null"); } catch (e) { kept = null; }
    if (!kept || kept.page !== here || Date.now() - kept.at > 600000 || !kept.typed.length) { return; }
    var tries = 0;
    (function look() {
      var left = kept.typed.filter(function (want) {
        var box = boxes().filter(function (b) { return b.name === want.name && b.at === want.at; })[0];
        if (!box) { return true; }
        if (!box.input.value) {
          box.input.value = want.value;
          // As if typed: the widget sends it to its kernel.
          box.input.dispatchEvent(new Event("input", { bubbles: true }));
          box.input.dispatchEvent(new Event("change", { bubbles: true }));
        }
        return false;
      });
      kept.typed = left;
      tries += 1;
      if (left.length && tries < 120) { setTimeout(look, 500); } else { try { window.sessionStorage.removeItem(KEPT); } catch (e) { /* gone with the tab */ } }
    })();
  }

  var names = texts.languages || {};
  var nav = header.querySelector(".playbook-nav");
  if (nav && Object.keys(names).length) {
    var menu = document.createElement("select");
    menu.className = "playbook-language";
    menu.setAttribute("aria-label", say("language"));
    menu.title = say("language_title");
    Object.keys(names).forEach(function (code) {
      var option = document.createElement("option");
      option.value = code;
      option.lang = code;
      option.textContent = names[code];
      menu.appendChild(option);
    });
    menu.value = names[texts.lang] ? texts.lang : "en";
    menu.addEventListener("change", function () {
      document.cookie = "pb-lang=" + encodeURIComponent(menu.value) + "; path=" + base + "; max-age=" + YEAR + "; SameSite=Lax";
      keepTyped();
      // Through the reconnect machinery: the page reloads once its server answers.
      if (window.playbookConnection) { window.playbookConnection.reopen(null, "language"); } else { window.location.reload(); }
    });
    header.insertBefore(menu, nav);  // on the first row, beside the page's title (header.css)
  }
  typeBack();
})();
