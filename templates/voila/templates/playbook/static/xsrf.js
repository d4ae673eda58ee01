// The page's own XSRF cookie, so that closing the page shuts its kernel down.
(function () {
  // When a page is closed or refreshed, Voila posts "shut my kernel down" with the XSRF
  // token from the _xsrf cookie. Nothing sets that cookie on a notebook page opened
  // straight from a link (voila-dashboards/voila#1458), so the server refused and the
  // kernel idled until culled. A random token of the page's own makes the request valid;
  // another site can neither read it nor set it for this origin's form field.
  if (/(^|;\s*)_xsrf=/.test(document.cookie) || !window.crypto) {
    return;
  }
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  var token = Array.prototype.map.call(bytes, function (b) {
    return ("0" + b.toString(16)).slice(-2);
  }).join("");
  document.cookie = "_xsrf=" + token + "; path=" + document.querySelector(".playbook-header").getAttribute("data-base-url") + "; SameSite=Strict";
})();
