// At the page's end, before Voila draws the outputs: the notebook's reference sections folded
// into panels below the table (reference.css).
(function () {
  // The table comes first; the rules, the text's examples, the odds and the rulings follow,
  // each `##` section of the notebook folded into a panel that opens with one click (the
  // header's Rules link opens the first). Done here, before Voila draws the outputs.
  var column = document.getElementById("pb-main") || document.querySelector("#rendered_cells > div");  // the cells are in the main landmark
  if (!column) { return; }
  var panel = null, first = null;
  Array.prototype.slice.call(column.children).forEach(function (cell) {
    if (!cell.hasAttribute("cell-index")) { return; }
    var heading = cell.querySelector(".jp-MarkdownCell h2");
    if (heading) {
      panel = document.createElement("details");
      panel.className = "playbook-more";
      var summary = document.createElement("summary");
      summary.textContent = heading.textContent.replace(/\u00b6\s*$/, "").trim();
      panel.appendChild(summary);
      column.insertBefore(panel, cell);
      heading.parentNode.removeChild(heading);
      if (!first) { first = panel; panel.id = "pb-rules"; }
    }
    if (panel) { panel.appendChild(cell); }
  });
  var link = document.querySelector(".playbook-nav-rules");
  if (first && link) {
    link.hidden = false;
    link.addEventListener("click", function () { first.open = true; });
  }
})();
