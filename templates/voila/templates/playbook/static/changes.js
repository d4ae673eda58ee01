// One watcher of the page for the scripts that follow what the dashboard draws (a11y.js,
// live.js, return-to-seat.js, countdown.js): a MutationObserver calls each script's look once a
// burst of changes has settled, instead of each looking on a timer of its own (an idle page
// looked eleven times a second: about 6 % of a core, more on a phone). A page where nothing
// changes runs nothing. Attributes the looks set themselves (aria-label, role, tabindex, data-pb-*)
// are not watched, so a look does not call the next one.
(function () {
  var SETTLE_MS = 200;
  var WATCHED = ["class", "style", "hidden", "disabled", "value", "data-say", "data-deadline", "data-now", "data-beat", "data-href", "data-go"];
  var looks = [], timer = null;
  function run() {
    timer = null;
    looks.forEach(function (look) {
      try { look(); } catch (error) { window.console.error(error); }
    });
  }
  // Also for a look that waits for something still coming (a11y.js: a rebuilt panel's controls).
  function soon() {
    if (timer === null) { timer = window.setTimeout(run, SETTLE_MS); }
  }
  window.playbookOnChange = function (look) {
    looks.push(look);
    soon();
  };
  window.playbookLookSoon = soon;
  new MutationObserver(soon).observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: WATCHED });
  document.addEventListener("DOMContentLoaded", soon);
})();
