// A live page: the heartbeat with its kernel, the reload when the kernel is gone (notices.js
// draws the line), the page's own link in the address bar, and what a student's page hides.
(function () {
  // The kernel and the page keep an eye on each other. Every few seconds this page presses
  // the dashboard's hidden heartbeat button and the kernel answers (.pb-alive). A kernel that
  // hears nothing knows its page is gone and goes quiet, so Voila culls it. A page whose
  // kernel died (its channel says so, or it stops answering) says so and reloads, which
  // reopens its table from the store (the link holds the table and the key). Clicks made
  // since the last answer did not reach the table: the message says how many.
  // The kernel's own word (a restart on its channel) ends it at once; the heartbeat is the
  // fallback, generous because a laptop starting twenty kernels answers slowly.
  var BEAT_MS = 4000, DEAD_MS = 45000;
  var lastAnswer = null, lastValue = null, gone = false, clicks = [], sent = [];
  function answer() {
    var mark = document.querySelector(".pb-alive [data-beat]");
    return mark ? mark.getAttribute("data-beat") : null;
  }
  function say(text) {
    window.playbookNotice("playbook-lost", "alert", text);
  }
  function beat() {
    if (gone) { return; }
    var button = document.querySelector("button.pb-heartbeat");
    if (!button) { return; }  // no table page here (yet)
    // A page drawn in part (a seat page just built inside a class page) beats once its own
    // link is drawn and in the address bar: its beat is what makes the seat this device's.
    var root = button.closest(".playbook-root");
    if (root && !root.querySelector(".pb-navigator")) { return; }
    var now = Date.now(), value = answer();
    if (value !== lastValue) {
      // The kernel answered (at least) the oldest heartbeat waiting: it handles messages in
      // order, so every click made before that heartbeat reached it.
      if (lastValue !== null && sent.length) {
        var acked = sent.shift();
        clicks = clicks.filter(function (t) { return t > acked; });
      }
      lastValue = value;
      lastAnswer = now;
    }
    if (lastAnswer === null) { lastAnswer = now; }
    if (window.__playbookKernelGone || now - lastAnswer > DEAD_MS) {
      gone = true;
      var lost = clicks.length ? " " + clicks.length + " click" + (clicks.length === 1 ? "" : "s") + " since then did not reach the table: check and press again." : "";
      say("This page lost its connection to the table. Reopening it\u2026" + lost);
      setTimeout(function () { window.location.reload(); }, 3000);
      return;
    }
    navigate();  // the address bar holds the page's own link before the kernel hears it is shown
    sent.push(Date.now());
    button.click();
  }
  setInterval(beat, BEAT_MS);
  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target.closest(".jupyter-button") : null;
    if (target && !target.classList.contains("pb-heartbeat") && event.isTrusted) { clicks.push(Date.now()); }
  }, true);
  // The dashboard can put a link of the table in the address bar (the facilitator's link of
  // a table just started, a seat just joined): a reload then reopens the same page.
  // A seat's own link is also kept on the device (data-seat-of): the join code opened again
  // here comes back to the seat; a released seat is forgotten (data-forget).
  function navigate() {
    var marks = document.querySelectorAll(".pb-navigator [data-href], .pb-navigator [data-forget], .pb-navigator [data-forget-class]");
    if (!marks.length) { return; }
    var mark = marks[marks.length - 1];
    var href = mark.getAttribute("data-href");
    var target = href ? new URL(href, window.location.href).href : null;
    try {
      var store = window.localStorage;
      if (mark.getAttribute("data-forget")) { store.removeItem("playbook-seat:" + mark.getAttribute("data-forget")); }
      if (mark.getAttribute("data-forget-class")) { store.removeItem("playbook-class:" + mark.getAttribute("data-forget-class")); }
      if (target && mark.getAttribute("data-seat-of")) { store.setItem("playbook-seat:" + mark.getAttribute("data-seat-of"), target); }
      if (target && mark.getAttribute("data-class-of")) { store.setItem("playbook-class:" + mark.getAttribute("data-class-of"), target); }
    } catch (e) { /* private mode: a reload still keeps the seat */ }
    if (target && target !== window.location.href) {
      window.history.replaceState(null, "", target);
    }
  }
  // A table opened from the lobby (whose Start button is far down) shows from its top.
  var lastRole = null;
  function roleOf() {
    var root = document.querySelector(".playbook-root[class*='playbook-']");
    var found = root ? / playbook-(lobby|index|facilitator|open|board|seat|join|denied)( |$)/.exec(" " + root.className + " ") : null;
    return found ? [root, found[1]] : [null, null];
  }
  // A student's page and a board lead nowhere else: no way to the tables, prints or lab.
  var STUDENT = ".playbook-seat, .playbook-join, .playbook-board, .playbook-class-code, .playbook-class-join, .playbook-class-student, .playbook-class-board";
  function forStudents() {
    if (!document.querySelector(STUDENT)) { return; }
    document.querySelectorAll(".playbook-nav-page").forEach(function (a) { a.parentNode.removeChild(a); });
    var brand = document.querySelector("a.playbook-brand");
    if (brand) { brand.removeAttribute("href"); }
  }
  function follow() {
    navigate();
    forStudents();
    var now = roleOf();
    if (lastRole !== null && now[1] !== lastRole && now[0]) {
      var scroller = document.getElementById("rendered_cells");  // Voila's page scrolls here
      if (scroller) { scroller.scrollTop = 0; }
      window.scrollTo(0, 0);
    }
    lastRole = now[1];
  }
  setInterval(follow, 500);  // a look twice a second: cheaper than watching every change
})();
