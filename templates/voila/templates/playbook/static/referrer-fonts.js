// In the page's head, before Voila's styles are added: fonts fetched without the page's address.
// Every page's address carries its key, and the page says "no-referrer" (its header and meta),
// but Chromium fetches the fonts of a style element added by script with its default policy:
// the font's request named the page's address, key and all. A font of a constructed style sheet
// is fetched under the page's policy, so the font faces of every style element move to one.
(function () {
  if (!window.CSSStyleSheet || !("adoptedStyleSheets" in document) || !window.MutationObserver) { return; }
  function move(style) {
    var sheet = style.sheet, faces = [];
    if (!sheet) { return; }
    try {
      for (var i = sheet.cssRules.length - 1; i >= 0; i--) {
        if (sheet.cssRules[i] instanceof CSSFontFaceRule) {
          faces.unshift(sheet.cssRules[i].cssText);
          sheet.deleteRule(i);
        }
      }
    } catch (error) { return; }  // a sheet that cannot be read stays as it is
    if (!faces.length) { return; }
    var moved = new CSSStyleSheet();
    moved.replaceSync(faces.join("\n"));
    document.adoptedStyleSheets = document.adoptedStyleSheets.concat([moved]);
  }
  // Before any layout: an observer's answer comes before the page is drawn, and a font is
  // fetched only once drawn text asks for it. The style libraries add their elements to the
  // head; the body, where the widgets redraw all the time, is not watched.
  new MutationObserver(function (changes) {
    var seen = [];
    changes.forEach(function (change) {
      var nodes = [change.target].concat(Array.prototype.slice.call(change.addedNodes));
      nodes.forEach(function (node) {
        var style = node.nodeName === "STYLE" ? node : node.parentNode && node.parentNode.nodeName === "STYLE" ? node.parentNode : null;
        if (style && seen.indexOf(style) === -1) { seen.push(style); }
      });
    });
    seen.forEach(move);
  }).observe(document.head, { childList: true, subtree: true });
})();
