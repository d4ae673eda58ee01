// A page on its way: the line at the bottom (notices.js) while it opens, and a retry when
// it cannot come up. Runs from the page's first bytes, beside the header.
(function () {
  // From the first byte: a page whose dashboard has not appeared says so, and tries again by
  // itself. A class opening its links at once keeps the server busy for a while: the page
  // says it is on its way (it is: the kernels take turns). A page that can no longer come up
  // (its notebook ran without its dashboard, or its kernel died)
  // reloads after a short wait that grows with each try and differs from page to page, so
  // retries never arrive together.
  // What shows the page is up: the notebook's metadata "playbook_ready", else any dashboard.
  var READY = document.querySelector(".playbook-header").getAttribute("data-ready");
  var SAY_AFTER_MS = 6000, AFTER_FINISH_MS = 90000, STALLED_MS = 300000, ASK_EVERY_S = 5;
  var start = Date.now(), finishedAt = null, done = false, timer = null;
  // The page shows once its dashboard is drawn (page.css keeps the cells and the header's links
  // unseen until then): the intro, the outputs and the reference panels would otherwise jump as
  // the widgets arrive (a layout shift of 0.85 on a seat page). Drawn: the dashboard there and
  // no change for SETTLE_MS. A page that never draws one (its notebook failed, its kernel died)
  // shows what it has DRAWN_MOST_MS after its notebook ran, or when the watchdog gives up; the
  // watchdog's lines are outside the cells and show throughout.
  var SETTLE_MS = 150, DRAWN_MOST_MS = 30000, settling = null;
  function reveal() {
    window.clearTimeout(settling);
    drawing.disconnect();
    // On <html>: JupyterLab's start rewrites the body's classes, and a page drawn before it would lose the mark.
    document.documentElement.classList.add("playbook-drawn");
  }
  var drawing = new MutationObserver(function () {
    if (!document.querySelector(READY)) { return; }
    window.clearTimeout(settling);
    settling = window.setTimeout(reveal, SETTLE_MS);
  });
  drawing.observe(document.documentElement, { childList: true, subtree: true });
  var finish = window.voila_finish;
  window.voila_finish = function () {
    window.setTimeout(reveal, DRAWN_MOST_MS);
    finishedAt = Date.now();
    return finish ? finish.apply(this, arguments) : undefined;
  };
  var key = "playbook-tries:" + window.location.pathname + window.location.search;
  function tries() {
    try { return parseInt(window.sessionStorage.getItem(key) || "0", 10) || 0; } catch (e) { return 0; }
  }
  function remember(n) {
    try { if (n) { window.sessionStorage.setItem(key, String(n)); } else { window.sessionStorage.removeItem(key); } } catch (e) { /* private mode */ }
  }
  function banner(text) {
    window.playbookNotice("playbook-starting", "status", text);
  }
  function look() {
    if (done) { return; }
    if (document.querySelector(READY)) {
      done = true;
      // A dashboard the observer did not reveal (seen with a page drawn in its first second): shown now.
      if (!document.documentElement.classList.contains("playbook-drawn")) { reveal(); }
      window.clearInterval(timer);  // the page is up: nothing more to watch
      remember(0);
      var box = document.getElementById("playbook-starting");
      if (box) { box.parentNode.removeChild(box); }
      return;
    }
    var now = Date.now();
    // Only a page whose notebook has finished (or whose kernel died) is tried again: a page
    // still waiting for its turn is on its way, and a reload would only queue it again.
    if (window.__playbookKernelGone || (finishedAt !== null && now - finishedAt > AFTER_FINISH_MS) || now - start > STALLED_MS) {
      done = true;
      window.clearInterval(timer);
      reveal();
      var n = tries() + 1;
      remember(n);
      var wait = Math.min(30, 3 * n) + Math.random() * 4;
      banner(window.playbookSay("did_not_come", { seconds: Math.round(wait) }));
      // Reloaded once the server answers (reconnect.js): never into the browser's error page.
      setTimeout(function () { window.playbookConnection.reopen(null, "starting"); }, wait * 1000);
      return;
    }
    if (now - start > SAY_AFTER_MS) {
      var waited = Math.round((now - start) / 1000);
      // A page waiting long asks now and then whether its server is still there (a server
      // stopped while it was being built leaves it half drawn, with nothing to say so).
      if (waited % ASK_EVERY_S === 0) { window.playbookConnection.check(); }
      banner(window.playbookSay("opening", { seconds: waited }) + (tries() ? " " + window.playbookSay("try_n", { attempt: tries() + 1 }) : ""));
    }
  }
  timer = window.setInterval(look, 1000);
})();
