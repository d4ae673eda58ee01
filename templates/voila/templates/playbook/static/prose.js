// The notebook's prose in the page's language: each Markdown cell the server said in it
// (playbook.prose: the page's texts' "cells", HTML by the cell's number) takes its place,
// before reference.js folds the `##` sections into panels and before the page is shown
// (starting.js). An English page has only the front page's cards here.
(function () {
  var cells = (window.playbookTexts || {}).cells || {};
  Object.keys(cells).forEach(function (number) {
    var cell = document.querySelector('#pb-main > div[cell-index="' + number + '"] .jp-MarkdownOutput');
    if (cell) { cell.innerHTML = cells[number]; }
  });
})();
