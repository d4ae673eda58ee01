// What the page says of itself (notices.css), one line of each kind, made when first said:
// starting.js says a page is on its way ("playbook-starting"), live.js that it lost its table
// ("playbook-lost").
window.playbookNotice = function (kind, role, text) {
  var box = document.getElementById(kind);
  if (!box) {
    box = document.createElement("div");
    box.id = kind;
    box.setAttribute("role", role);
    box.className = kind;
    document.body.appendChild(box);
  }
  box.textContent = text;
};
