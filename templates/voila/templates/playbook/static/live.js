// A live page: the heartbeat with its kernel, the page's own link in the address bar, and what
// a student's page hides. A page that lost its kernel or its server: reconnect.js.
(function () {
  // The kernel and the page keep an eye on each other. Every few seconds this page presses
  // the dashboard's hidden heartbeat button and the kernel answers (.pb-alive). A kernel that
  // hears nothing knows its page is gone and goes quiet, so Voila culls it. A closed socket
  // or the kernel's own word that it died is said at once (reconnect.js, from kernel-watch.js);
  // the heartbeat is for a kernel that hangs behind an open socket, and for a network that
  // died without closing it: an answer late by SUSPECT_MS has the page ask whether its server
  // is there; none for DEAD_MS (generous: a laptop starting twenty kernels answers slowly)
  // reopens the page, which reopens its table from the store (the link holds the table and
  // the key). Each answer tells reconnect.js which presses reached the kernel.
  var BEAT_MS = 4000, SUSPECT_MS = 12000, DEAD_MS = 45000;
  var lastAnswer = null, lastValue = null, gone = false, sent = [];
  var connection = window.playbookConnection;
  function answer() {
    var mark = document.querySelector(".pb-alive [data-beat]");
    return mark ? mark.getAttribute("data-beat") : null;
  }
  // Back from a break in the connection: the beats sent before it may never be answered.
  window.addEventListener("playbook-back", function () {
    sent = [];
    lastAnswer = Date.now();
  });
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
      // order, so every press made before that heartbeat reached it.
      if (lastValue !== null && sent.length) { connection.confirmed(sent.shift()); }
      lastValue = value;
      lastAnswer = now;
    }
    if (lastAnswer === null) { lastAnswer = now; }
    if (connection.away()) { return; }  // no beats into a closed socket: they would pile up
    if (window.__playbookKernelGone || now - lastAnswer > DEAD_MS) {
      gone = true;
      connection.reopen(window.playbookSay("lost_table"), "lost");
      return;
    }
    if (now - lastAnswer > SUSPECT_MS) { connection.check(); }
    navigate();  // the address bar holds the page's own link before the kernel hears it is shown
    sent.push(Date.now());
    button.click();
  }
  setInterval(beat, BEAT_MS);
  // The dashboard can put a link of the table in the address bar (the facilitator's link of
  // a table just started, a seat just joined): a reload then reopens the same page.
  // A seat's own link is also kept on the device (data-seat-of): the join code opened again
  // here comes back to the seat; a released seat is forgotten (data-forget).
  // A room code typed wrong goes to the server's door (data-go), which counts and slows them.
  var went = false;
  function navigate() {
    var go = document.querySelector(".pb-navigator [data-go]");
    if (go) {
      if (!went) { went = true; window.location.assign(new URL(go.getAttribute("data-go"), window.location.href).href); }
      return;
    }
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
  window.playbookOnChange(follow);  // as the dashboard draws (changes.js)
})();
