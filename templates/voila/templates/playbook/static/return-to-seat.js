// A join link opened again on the device that used it comes back to that device's own page.
(function () {
  // A join code opened on a device that already holds a seat (or a place in the class): its own.
  var query = new URLSearchParams(window.location.search), mine = null;
  var joining = query.get("table") && query.get("join"), classJoin = query.get("code") && !query.get("student") && !query.get("board") && !query.get("monitor");
  try {
    if (joining) { mine = window.localStorage.getItem("playbook-seat:" + query.get("table")); }
    if (classJoin) { mine = window.localStorage.getItem("playbook-class:" + query.get("code").toUpperCase()); }
  } catch (e) { mine = null; }
  if (mine) {
    var target = new URL(mine, window.location.href);
    if (target.origin === window.location.origin && target.href !== window.location.href) { window.location.replace(target.href); }
  }
})();
