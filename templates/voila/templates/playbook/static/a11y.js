// What a screen reader hears and where a keyboard's focus goes (docs/keyboard.md).
//
// - The live region: one polite region (role=status) and one assertive (role=alert) for
//   refusals, made here once, outside every widget, so no redraw rebuilds them. The widgets mark
//   a message in their HTML with data-say (a number, new for each message: widgets.common.say_attrs)
//   and data-urgent; each number is said once, however often the page redraws it.
// - Focus after an action: a press rebuilds the panel it was in (the old button is gone and the
//   focus falls to the page's body). The focus goes to the first control of the rebuilt panel,
//   or its heading once no control comes.
// - Arrow keys move within a group of choices (colour buttons, toggle buttons, presets).
// - The skip link leads to the seat's own panel on a seat page; buttons whose label begins with
//   an icon are named without it.
(function () {

  // -- the live region -------------------------------------------------------------------
  var polite = null, urgent = null, seen = {};
  function region(role, live) {
    var node = document.createElement("div");
    node.className = "playbook-live playbook-live-" + live;
    node.setAttribute("role", role);
    node.setAttribute("aria-live", live);
    node.setAttribute("aria-atomic", "true");
    document.body.appendChild(node);
    return node;
  }
  function put(node, texts) {
    // A new paragraph each time: the same words said again are a change the reader hears.
    var line = document.createElement("p");
    line.textContent = texts.join(" ");
    node.replaceChildren(line);
  }
  function spoken(mark) {
    // The words without what is hidden from screen readers (a status line's icon).
    var copy = mark.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach(function (node) { node.remove(); });
    return (copy.textContent || "").replace(/\s+/g, " ").trim();
  }
  function listen() {
    if (!document.body) { return; }
    if (!polite) {
      polite = region("status", "polite");
      urgent = region("alert", "assertive");
    }
    var calm = [], now = [];
    document.querySelectorAll("[data-say]").forEach(function (mark) {
      var id = mark.getAttribute("data-say");
      if (!id || seen[id]) { return; }
      seen[id] = true;
      var text = spoken(mark);
      if (!text) { return; }
      (mark.getAttribute("data-urgent") === "1" ? now : calm).push(text);
    });
    if (calm.length) { put(polite, calm); }
    if (now.length) { put(urgent, now); }
  }

  // -- focus after an action ---------------------------------------------------------------
  var CONTROLS = "button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), a[href]";
  var last = null, pointer = false, lost = null;
  function shown(node) { return node.getClientRects().length > 0; }
  function firstControl(box) {
    var found = box.querySelectorAll(CONTROLS);
    for (var i = 0; i < found.length; i++) {
      if (shown(found[i]) && !found[i].closest(".pb-heartbeat")) { return found[i]; }
    }
    return null;
  }
  function heading(box) {
    var found = box.querySelectorAll("h1, h2, h3, h4");
    for (var i = 0; i < found.length; i++) { if (shown(found[i])) { return found[i]; } }
    return null;
  }
  // A press elsewhere ends the watch (a control pressed is watched again as it takes the focus):
  // a panel rebuilt later does not take the focus from wherever the reader went.
  document.addEventListener("pointerdown", function () { pointer = true; last = null; lost = null; }, true);
  document.addEventListener("keydown", function () { pointer = false; }, true);
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (!target || target === document.body || !target.closest) { return; }
    if (!target.closest(".playbook-root")) { last = null; return; }
    // The boxes around the control, nearest first: the panel it was in is the nearest still
    // on the page once the control is gone.
    var boxes = [], node = target.parentElement;
    while (node && node !== document.body) {
      if (node.classList.contains("widget-box") || node.classList.contains("playbook-root")) { boxes.push(node); }
      node = node.parentElement;
    }
    last = { control: target, boxes: boxes };
    lost = null;
  });
  function focusOn(node) {
    if (!node.matches(CONTROLS) && !node.hasAttribute("tabindex")) { node.setAttribute("tabindex", "-1"); }
    node.focus({ preventScroll: pointer });
  }
  function restore() {
    var active = document.activeElement;
    if (!last || (active && active !== document.body)) { lost = null; return; }
    if (last.control.isConnected) { return; }  // the reader left it on purpose
    var now = Date.now();
    if (!lost) { lost = { at: now, seen: null }; }
    var box = null;
    for (var i = 0; i < last.boxes.length; i++) {
      if (last.boxes[i].isConnected) { box = last.boxes[i]; break; }
    }
    if (!box) { last = null; lost = null; return; }
    var control = firstControl(box);
    if (control) {
      // Wait one look more: the rebuilt panel's controls arrive one by one.
      if (lost.seen !== control) { lost.seen = control; return; }
      last = null; lost = null;
      focusOn(control);
      return;
    }
    if (now - lost.at < 1500) { return; }  // its controls may be coming
    // None came: the panel's heading, else the first control of a box around it (a hidden
    // panel: the seat buttons above it), else the page's main.
    var title = heading(box);
    for (var k = last.boxes.indexOf(box) + 1; !title && k < last.boxes.length; k++) {
      if (last.boxes[k].isConnected) { title = firstControl(last.boxes[k]); }
    }
    title = title || document.getElementById("pb-main");
    last = null; lost = null;
    if (title) { focusOn(title); }
  }

  // -- arrow keys within a group of choices ------------------------------------------------
  var GROUPS = ".pb-choices, .pb-alloc-presets, .widget-toggle-buttons, .jupyter-widget-toggle-buttons";
  document.addEventListener("keydown", function (event) {
    var keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: "first", End: "last" };
    var step = keys[event.key];
    var target = event.target;
    if (step === undefined || !target || !target.closest || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (target.tagName !== "BUTTON") { return; }
    var group = target.closest(GROUPS);
    if (!group) { return; }
    var items = Array.prototype.filter.call(group.querySelectorAll("button"), function (b) { return !b.disabled && shown(b); });
    var at = items.indexOf(target);
    if (at < 0 || !items.length) { return; }
    var next = step === "first" ? 0 : step === "last" ? items.length - 1 : (at + step + items.length) % items.length;
    event.preventDefault();
    items[next].focus();
  });

  // -- landmarks, names, the skip link -------------------------------------------------------
  // A label's leading icon (an emoji or a symbol, with the space after it) is for the eye.
  var ICON = /^[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2900-\u297f\u2b00-\u2bff\u{1f000}-\u{1faff}\ufe0f\u200d]+\s*/u;
  var TRAILING = /\s*[\u25b6\u25ba\u2192\u21aa]+\ufe0f?$/u;
  // A symbol standing alone inside a label ("Take \u2665 red": the colour's mark) is for the eye too.
  var MIDDLE = /\s[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff]\ufe0f?(?=\s)/gu;
  function name() {
    document.querySelectorAll(".playbook-root button, .playbook-header button").forEach(function (button) {
      button.querySelectorAll("i.fa").forEach(function (icon) { icon.setAttribute("aria-hidden", "true"); });
      var text = (button.textContent || "").trim();
      if (button.getAttribute("data-pb-named") === text) { return; }
      button.setAttribute("data-pb-named", text);
      var bare = text.replace(ICON, "").replace(TRAILING, "").replace(MIDDLE, "").trim();
      if (bare && bare !== text) { button.setAttribute("aria-label", bare); }
      else if (button.hasAttribute("data-pb-labelled")) { button.removeAttribute("aria-label"); }
      if (bare && bare !== text) { button.setAttribute("data-pb-labelled", "1"); }
    });
    document.querySelectorAll(GROUPS).forEach(function (group) {
      if (!group.hasAttribute("role")) { group.setAttribute("role", "group"); }
    });
  }
  function seatPanel() {
    // The seat's own panel; a game with no private panel (Danger World) is the seat's page whole.
    return document.querySelector(".playbook-seat .pb-private-panel") || document.querySelector(".playbook-root.playbook-seat");
  }
  function skip() {
    var link = document.querySelector("a.playbook-skip");
    if (!link) { return; }
    var seat = seatPanel();
    var text = window.playbookSay(seat ? "skip_seat" : "skip_game");
    if (link.textContent !== text) { link.textContent = text; }
  }
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("a.playbook-skip") : null;
    if (!link) { return; }
    event.preventDefault();
    var target = seatPanel() || document.getElementById("pb-main");
    if (!target) { return; }
    target.setAttribute("tabindex", "-1");
    target.focus();
  });

  // One h1 a page: the header's title, unless the notebook's own title shows (a game's lobby,
  // the front page): then that one is the h1 and the header's is a line of text.
  function outline() {
    var title = document.querySelector(".playbook-header .playbook-title");
    if (!title) { return; }
    var own = Array.prototype.some.call(document.querySelectorAll("#pb-main h1"), shown);
    if (own && title.getAttribute("role") !== "none") { title.setAttribute("role", "none"); }
    if (!own && title.hasAttribute("role")) { title.removeAttribute("role"); }
  }

  // Each look runs once the page's changes settle (changes.js); while a focus waits for its
  // panel's controls (restore), the next look comes anyway, as the controls arrive or not.
  function look() {
    listen();
    restore();
    name();
    skip();
    outline();
    if (lost) { window.playbookLookSoon(); }
  }
  window.playbookOnChange(look);
})();
