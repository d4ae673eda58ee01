// Light or dark (dark.css): the reader's choice on this device, else the device's own
// setting. The header's button switches, and the choice is kept for the next page.
(function () {
  var root = document.documentElement, button = document.querySelector(".playbook-theme");
  function apply(theme) {
    root.setAttribute("data-playbook-theme", theme);
    button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
    button.textContent = window.playbookSay(theme === "dark" ? "light" : "dark");
  }
  var saved = null;
  try { saved = window.localStorage.getItem("playbook-theme"); } catch (e) { saved = null; }
  apply(saved || (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  button.addEventListener("click", function () {
    var next = root.getAttribute("data-playbook-theme") === "dark" ? "light" : "dark";
    apply(next);
    try { window.localStorage.setItem("playbook-theme", next); } catch (e) { /* private mode */ }
  });
})();
