// A page that cannot reach its server says so within seconds, tries again by itself, and is
// back on its seat once the server answers, in any browser: it never reloads into the
// browser's error page. live.js and starting.js reopen a page through it.
(function () {
  // How the page learns the server is gone: the kernel's socket closes (kernel-watch.js tells
  // at once), the browser says it is offline, or the heartbeat goes unanswered (live.js asks
  // `check`). Then every RETRY_MS the page asks its server for its kernel (a few bytes, never
  // from a cache, given up after ASK_MS):
  // - no answer: it says it is trying again, and does;
  // - its kernel is there (the network came back): the kernel's socket is opened again at
  //   once, and the presses made meanwhile, which the kernel's connection kept, are sent;
  // - the server answers but the kernel is gone (a server restarted): the page reloads, which
  //   reopens its seat from the store (the address holds the table, the seat and its key),
  //   and the page that opens says which presses were not sent.
  // A page reloads only once its server has answered, so however long the outage it stays on
  // its own address.
  // A page that has not lost anything yet (a heartbeat late, a page still opening) gives its
  // server longer to answer (CHECK_MS): a laptop opening thirty pages at once is slow, not gone.
  var RETRY_MS = 1500, ASK_MS = 2500, CHECK_MS = 8000, BACK_SAID_MS = 6000, UNSENT_SAID_MS = 90000, NOTE_KEPT_MS = 600000;
  var NOTE = "playbook-reopened";
  // A file of this server to ask for while the page has no kernel yet: this script.
  var me = document.currentScript ? document.currentScript.src : null;
  var header = document.querySelector(".playbook-header");
  var base = header.getAttribute("data-base-url") || "/";
  var READY = header.getAttribute("data-ready");
  // "here", "away" (the server or the kernel's socket cannot be reached) or "reopening" (the
  // page reloads once the server answers).
  var state = "here", since = 0, tries = 0, timer = null, leaving = false, asking = false;
  var reconnects = 0, lastAnswer = null, reopenText = null, reason = null, channelSeen = false;
  // The presses on a live page (one with a heartbeat) its kernel has not answered yet, oldest
  // first: {at, label, away}. `away`: made while the page could not reach its server.
  var presses = [];

  function ready() { return Boolean(document.querySelector(READY)); }
  function kernelId() {
    var config = document.getElementById("jupyter-config-data");
    if (!config) { return null; }
    try { return JSON.parse(config.textContent).kernelId || null; } catch (e) { return null; }
  }
  // The kernel's connection (@jupyterlab/services' KernelConnection) of Voila's widget manager.
  function connection() {
    var app = window.jupyterapp, manager = app && app.widgetManager;
    return manager && manager.kernel && !manager.kernel.isDisposed ? manager.kernel : null;
  }
  // "down" (no answer), "kernel" (the server answers and this page's kernel is there) or
  // "server" (the server answers; the page's kernel is not there, or the page has none yet).
  function ask(patience) {
    var id = kernelId(), url = id ? base + "api/kernels/" + encodeURIComponent(id) : me;
    var stop = window.AbortController ? new window.AbortController() : null, timeout = null;
    return new Promise(function (done) {
      timeout = setTimeout(function () { if (stop) { stop.abort(); } done("down"); }, patience || ASK_MS);
      fetch(url, { cache: "no-store", credentials: "same-origin", signal: stop ? stop.signal : undefined }).then(function (response) {
        // A proxy in front of a stopped server answers for it: 502, 503, 504.
        if (response.status >= 502 && response.status <= 504) { done("down"); }
        else if (id && response.ok) { done("kernel"); }
        else { done("server"); }
      }, function () { done("down"); });
    }).then(function (answer) {
      clearTimeout(timeout);
      lastAnswer = answer;
      return answer;
    });
  }

  var say = window.playbookSay, sayN = window.playbookSayN;
  function count(n) { return sayN("presses", n); }
  function labels(list) {
    var names = [];
    list.forEach(function (p) { if (p.label && names.indexOf(p.label) === -1) { names.push(p.label); } });
    return names.length ? names.slice(0, 3).map(function (name) { return "\u201c" + name + "\u201d"; }).join(", ") + (names.length > 3 ? "\u2026" : "") : "";
  }
  // "“Pledge in secret” (1 press)", or "2 presses" for buttons without words.
  function what(names) {
    var said = labels(names.map(function (name) { return { label: name }; }));
    return said ? say("named_presses", { names: said, presses: count(names.length) }) : count(names.length);
  }
  function pressedAway() { return presses.filter(function (p) { return p.away; }); }

  // The line at the top while the page is away: what is wrong, and what is waiting.
  function tell() {
    var text;
    if (navigator.onLine === false) { text = say("offline"); }
    else if (state === "reopening" && lastAnswer !== "down") {
      if (!reopenText) { return; }
      text = reopenText;
    } else { text = say("cannot_reach"); }
    var waiting = pressedAway().length;
    if (waiting) { text += " " + sayN("not_sent_yet", waiting); }
    var aside = tries ? sayN("tried", tries, { seconds: Math.round((Date.now() - since) / 1000) }) : "";
    window.playbookNotice("playbook-lost", "alert", text, aside);
  }
  var backTimer = null;
  function unsayBack() { window.playbookNotice("playbook-back", "status", null); }
  // Said until read: a tap on it, the next press, or `ms` take it away.
  function sayBack(text, ms) {
    window.playbookNotice("playbook-back", "status", text);
    document.getElementById("playbook-back").onclick = unsayBack;
    clearTimeout(backTimer);
    backTimer = setTimeout(unsayBack, ms);
  }

  function next(ms) {
    clearTimeout(timer);
    timer = setTimeout(round, ms);
  }
  function lose() {
    if (leaving || state !== "here") { return; }  // already away or reopening: the rounds run
    state = "away";
    since = Date.now();
    tries = 0;
    reconnects = 0;
    document.documentElement.classList.add("playbook-away");
    unsayBack();  // one line at the top at a time
    tell();
    next(0);
  }
  function reopen(text, why) {
    if (leaving) { return; }
    if (state === "here") {
      since = Date.now();
      tries = 0;
    }
    state = "reopening";
    reopenText = text;
    reason = why;
    document.documentElement.classList.add("playbook-away");
    unsayBack();
    tell();
    next(0);
  }
  function round() {
    if (state === "here" || leaving) { return; }
    tries += 1;
    ask().then(function (answer) {
      if (state === "here" || leaving) { return; }
      if (answer === "down") {
        tell();
        next(RETRY_MS);
      } else if (state === "reopening" || answer === "server") {
        if (state === "away") { reason = "away"; }
        reload();
      } else if (window.__playbookChannelsOpen > 0 || !channelSeen) {
        back();  // its socket never closed (or Voila has not opened it yet)
      } else if (connection() && reconnects < 3) {
        // Open the socket now: the connection's own retries wait longer and longer.
        reconnects += 1;
        try { connection().reconnect().catch(function () { /* the next round looks again */ }); } catch (e) { /* disposed meanwhile */ }
        tell();
        next(RETRY_MS * 2);
      } else {
        reason = "away";
        reload();  // a connection that cannot open again: a fresh page can
      }
    });
  }
  function back() {
    var sent = pressedAway();
    presses.forEach(function (p) { p.away = false; });  // sent now: the next heartbeat confirms them
    state = "here";
    clearTimeout(timer);
    document.documentElement.classList.remove("playbook-away");
    window.playbookNotice("playbook-lost", "alert", null);
    sayBack(sent.length ? say("connected_sent", { presses: what(sent.map(function (p) { return p.label; })) }) : say("connected"), BACK_SAID_MS);
    try { window.dispatchEvent(new CustomEvent("playbook-back")); } catch (e) { /* live.js's clock waits for the next answer */ }
  }
  function reload() {
    if (leaving) { return; }
    leaving = true;
    var label = function (p) { return p.label; };
    var unsent = presses.filter(function (p) { return p.away; }), unsure = presses.filter(function (p) { return !p.away; });
    try {
      window.sessionStorage.setItem(NOTE, JSON.stringify({
        at: Date.now(), why: reason, unsent: unsent.map(label), unsure: unsure.map(label),
        page: window.location.pathname + window.location.search,
      }));
    } catch (e) { /* private mode: the page still comes back, without the note */ }
    window.location.reload();
  }
  function check() {
    if (state !== "here" || leaving || asking) { return; }
    asking = true;
    ask(CHECK_MS).then(function (answer) {
      asking = false;
      if (state !== "here" || leaving) { return; }
      if (answer === "down") { lose(); }
      else if (answer === "server" && kernelId()) {
        // Its kernel is gone. A page not up yet is tried again by starting.js, after a pause
        // of its own (pages that arrived together do not reload together).
        if (ready()) { reopen(say("lost_table"), "lost"); } else { window.__playbookKernelGone = true; }
      }
    });
  }

  // A trusted press on a widget's button of a live page: counted until its kernel answers.
  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target.closest(".jupyter-button") : null;
    if (!target || !event.isTrusted || target.classList.contains("pb-heartbeat") || !document.querySelector("button.pb-heartbeat")) { return; }
    presses.push({ at: Date.now(), label: (target.textContent || target.getAttribute("title") || "").trim().slice(0, 60), away: state !== "here" });
    if (state !== "here") { tell(); } else { unsayBack(); }
  }, true);

  window.addEventListener("playbook-channel", function (event) {
    var news = event.detail;
    if (news === "open") {
      channelSeen = true;
      if (state === "away") { back(); }
    } else if (news === "closed") {
      if (window.__playbookChannelsOpen === 0 && channelSeen) { lose(); }
    } else if (news === "gone" && ready()) {
      // Before its dashboard is up, starting.js tries a page again (with a pause of its own).
      reopen(say("lost_table"), "lost");
    }
  });
  window.addEventListener("offline", function () {
    if (state === "here") { lose(); } else { tell(); }
  });
  window.addEventListener("online", function () {
    if (state !== "here") { next(0); } else { check(); }
  });
  // A phone woken up, a page back from the browser's cache: its socket may have died meanwhile.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { check(); }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      leaving = false;
      check();
    }
  });
  // A page on its way out closes its socket: that is no news. (A page that stays after all,
  // its leaving cancelled, listens again a moment later.)
  window.addEventListener("beforeunload", function () {
    if (leaving) { return; }
    leaving = true;
    setTimeout(function () { leaving = false; }, 5000);
  });
  window.addEventListener("pagehide", function () { leaving = true; });

  // What the page before a reload left to say: which presses were not sent.
  function notes() {
    var note = null;
    try {
      note = JSON.parse(window.sessionStorage.getItem(NOTE) || "null");
      window.sessionStorage.removeItem(NOTE);
    } catch (e) { note = null; }
    // Said by the page that was reloaded, not by another page opened later in the same tab.
    if (!note || Date.now() - note.at > NOTE_KEPT_MS || note.page !== window.location.pathname + window.location.search) { return; }
    // A page that did not come up (starting.js said so), or reopened in the language its reader chose.
    if (note.why === "starting" || note.why === "language") { return; }
    var unsent = note.unsent || [], unsure = note.unsure || [];
    var text = say(note.why === "away" ? "back_after" : "reopened");
    if (unsent.length) { text += " " + say("not_sent", { presses: what(unsent) }); }
    if (unsure.length) { text += " " + say("unsure", { presses: what(unsure) }); }
    if (!unsent.length && !unsure.length) { text += " " + say("nothing_lost"); }
    var shown = function () {
      if (!ready()) { setTimeout(shown, 500); return; }
      sayBack(text, unsent.length || unsure.length ? UNSENT_SAID_MS : BACK_SAID_MS);
    };
    shown();
  }
  notes();

  window.playbookConnection = {
    // True while the page cannot reach its server (or is about to reload).
    away: function () { return state !== "here"; },
    // Ask the server now (a heartbeat late, a page woken up): say so if it does not answer.
    check: check,
    // Reload once the server answers, saying `text` meanwhile (null: say nothing until the
    // server fails to answer); `why` is kept for the page that opens ("lost", "starting").
    reopen: reopen,
    // The kernel answered a heartbeat sent at `sentAt`: every press before it reached it.
    confirmed: function (sentAt) { presses = presses.filter(function (p) { return p.at > sentAt; }); },
  };
})();
