// The countdown of a decision (widgets/pace.py, class pb-countdown-box): the kernel sends the
// deadline once, as data attributes; this script counts it down on the page, and says the last
// seconds to screen readers (at the seconds data-announce lists: 30, 10 and 0) through the
// page's live region (a11y.js: the box's pb-countdown-say gets the words and a new data-say). The server's clock (data-now) against this device's, when the box
// arrives, corrects a phone whose clock is off.
(function () {
  var seen = new WeakMap(), said = 0;

  function clock(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var s = whole % 60;
    return Math.floor(whole / 60) + ":" + (s < 10 ? "0" : "") + s;
  }

  function words(second, mine) {
    if (second === 0) { return window.playbookSay("time_up"); }
    return window.playbookSayN(mine ? "your_seconds_left" : "seconds_left", second);
  }

  // The clock ticks only while a countdown runs or has a second still to say: a page without
  // one runs nothing (changes.js starts it again when a box comes or its deadline changes).
  var timer = null;
  function tick() {
    var now = Date.now(), running = false;
    document.querySelectorAll(".pb-countdown-box[data-deadline]").forEach(function (box) {
      var key = box.getAttribute("data-deadline") + "/" + box.getAttribute("data-now");
      var state = seen.get(box);
      if (!state || state.key !== key) {
        var deadline = Number(box.getAttribute("data-deadline")), serverNow = Number(box.getAttribute("data-now"));
        var at = now + (deadline - serverNow);
        var marks = (box.getAttribute("data-announce") || "").split(",").filter(Boolean).map(Number);
        var left = (at - now) / 1000;
        // A mark already passed when the box came is not said late (a page opened mid-decision).
        state = { key: key, at: at, marks: marks.filter(function (m) { return m < left; }) };
        seen.set(box, state);
      }
      var secondsLeft = (state.at - now) / 1000;
      var time = box.querySelector(".pb-countdown-time");
      if (time) {
        var text = clock(secondsLeft);
        if (time.textContent !== text) { time.textContent = text; }
      }
      box.classList.toggle("pb-countdown-low", secondsLeft <= 10);
      running = running || secondsLeft > 0 || state.marks.length > 0;
      var due = state.marks.filter(function (m) { return secondsLeft <= m; });
      if (due.length) {
        state.marks = state.marks.filter(function (m) { return secondsLeft > m; });
        var say = box.querySelector(".pb-countdown-say");
        // A seat's own countdown is labelled "Your time" (widgets/pace.py), in the page's language
        // once that label is translated, in English until then.
        var label = (box.querySelector(".pb-countdown-label") || {}).textContent;
        var mine = label === window.playbookSay("your_time") || label === "Your time";
        if (say) {
          say.textContent = words(Math.min.apply(null, due), mine);
          said += 1;
          say.setAttribute("data-say", "countdown-" + said);
        }
      }
    });
    if (!running && timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    return running;
  }
  function start() {
    if (tick() && timer === null) { timer = window.setInterval(tick, 250); }
  }

  window.playbookOnChange(start);
  document.addEventListener("visibilitychange", start);
})();
