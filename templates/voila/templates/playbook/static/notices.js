// What the page says of itself (notices.css), one line of each kind, made when first said:
// starting.js says a page is on its way ("playbook-starting"), reconnect.js that it cannot
// reach its server or lost its table ("playbook-lost") and what happened meanwhile once it is
// back ("playbook-back"). The text is read out as it changes (the line's role: "alert" or
// "status"); `aside`, a detail that changes often (how long it has tried), is only shown, so a
// screen reader is not told it every second. A text of null takes the line away.
window.playbookNotice = function (kind, role, text, aside) {
  var box = document.getElementById(kind);
  if (text === null) {
    if (box) { box.parentNode.removeChild(box); }
    return;
  }
  if (!box) {
    box = document.createElement("div");
    box.id = kind;
    box.setAttribute("role", role);
    box.className = kind;
    box.appendChild(document.createElement("span"));
    document.body.appendChild(box);
  }
  var said = box.firstChild;
  if (said.textContent !== text) { said.textContent = text; }  // the same words are not read twice
  var detail = box.querySelector(".playbook-notice-aside");
  if (aside) {
    if (!detail) {
      detail = document.createElement("span");
      detail.className = "playbook-notice-aside";
      detail.setAttribute("aria-hidden", "true");
      box.appendChild(detail);
    }
    detail.textContent = aside;
  } else if (detail) {
    box.removeChild(detail);
  }
};
