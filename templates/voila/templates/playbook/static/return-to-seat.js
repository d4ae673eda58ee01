// A device comes back to its own place: the join address opened again goes to the page it last
// held, and every class page hears which device it is on (a key this browser keeps for itself).
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

  // The device's own key: made once, kept in local storage and in a cookie (either survives the
  // other being cleared). A class page's kernel knows its student by it, however the student
  // comes back: a seat link, the join address, the code typed again, the name pressed again.
  var NAME = "playbook-device", COOKIE = /(?:^|; )playbook_device=([A-Za-z0-9_-]{16,100})/;
  function fresh() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function stored() {
    var key = null;
    try { key = window.localStorage.getItem(NAME); } catch (e) { key = null; }
    if (!key) { var found = COOKIE.exec(document.cookie); key = found ? found[1] : null; }
    return key;
  }
  function device() {
    var key = stored() || fresh();
    try { window.localStorage.setItem(NAME, key); } catch (e) { /* private mode: the cookie keeps it */ }
    document.cookie = "playbook_device=" + key + "; max-age=31536000; path=/; samesite=strict";
    // Only a key the browser has kept is reported: the page says "You are in" on that word.
    return stored() === key ? key : null;
  }
  function report() {
    var box = document.querySelector(".pb-device input");
    if (!box) { return; }
    var key = device();
    if (!key) { return; }
    var value = key, mark = document.querySelector(".pb-navigator [data-keep]");
    if (mark) {
      try {
        var href = new URL(mark.getAttribute("data-href"), window.location.href).href;
        window.localStorage.setItem("playbook-class:" + mark.getAttribute("data-class-of"), href);
      } catch (e) { /* the device's key alone brings the student back */ }
      value += " kept:" + mark.getAttribute("data-keep");
    }
    if (box.value !== value) {
      box.value = value;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  window.playbookOnChange(report);  // as the class page draws its device box and marks (changes.js)
})();
