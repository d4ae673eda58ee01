// The header's links (index.html.j2's <header class="playbook-header">): where they may lead.
(function () {
  // One notebook served alone (`playbook serve --notebook`): there are no other pages to go to.
  if (window.location.pathname.indexOf("/voila/render/") === -1) {
    document.querySelectorAll(".playbook-nav-page").forEach(function (a) { a.hidden = true; });
  }
})();
(function () {
  // The tables list and the print studio's stored tables need the server's key: the header's
  // links keep it (for this tab only), so the list does not vanish on the way back. A seat's
  // link has a key of its own (with a table): that one never goes anywhere else.
  var query = new URLSearchParams(window.location.search), key = null;
  try {
    if (query.get("key") && !query.get("table") && !query.get("seat") && !query.get("code")) {
      key = query.get("key");
      window.sessionStorage.setItem("playbook-index-key", key);
    } else {
      key = window.sessionStorage.getItem("playbook-index-key");
    }
  } catch (e) { key = query.get("table") ? null : query.get("key"); }
  if (!key) { return; }
  document.querySelectorAll("a.playbook-brand, a.playbook-nav-page").forEach(function (a) {
    a.search = "?key=" + encodeURIComponent(key);
  });
})();
