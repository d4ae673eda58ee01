// More contrast (contrast.css): the reader's choice on this device, else the device's own
// setting ("increase contrast", prefers-contrast: more). A button beside the theme's switches it
// and the choice is kept for the next page. Windows' contrast themes (forced colours) need
// nothing here: contrast.css follows them by itself.
(function () {
  var root = document.documentElement, theme = document.querySelector(".playbook-theme");
  if (!theme) { return; }
  var button = document.createElement("button");
  button.type = "button";
  button.className = "playbook-contrast";
  // A half-filled circle, and the word where there is room (phone.css hides it on a phone,
  // where the header keeps one row of buttons); its name is said in full either way.
  button.setAttribute("aria-label", window.playbookSay("contrast_label"));
  button.innerHTML = '<span aria-hidden="true">\u25D0</span><span class="playbook-contrast-word"></span>';
  button.querySelector(".playbook-contrast-word").textContent = "\u00A0" + window.playbookSay("contrast_word");
  button.title = window.playbookSay("contrast_title");
  theme.insertAdjacentElement("afterend", button);
  var asked = window.matchMedia ? window.matchMedia("(prefers-contrast: more)") : null;
  var choice = null;
  try { choice = window.localStorage.getItem("playbook-contrast"); } catch (e) { choice = null; }
  function apply() {
    var more = choice ? choice === "more" : Boolean(asked && asked.matches);
    if (more) { root.setAttribute("data-playbook-contrast", "more"); } else { root.removeAttribute("data-playbook-contrast"); }
    button.setAttribute("aria-pressed", more ? "true" : "false");
  }
  apply();
  if (asked && asked.addEventListener) { asked.addEventListener("change", apply); }
  button.addEventListener("click", function () {
    choice = root.getAttribute("data-playbook-contrast") === "more" ? "normal" : "more";
    try { window.localStorage.setItem("playbook-contrast", choice); } catch (e) { /* private mode: this page only */ }
    apply();
  });
})();
