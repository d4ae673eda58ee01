// The page's words in its language: the server puts them in a JSON block at the top of the page
// (playbook.page_texts, by playbook.doors.OwnPage); the scripts ask for them here by name.
// `playbookSay("offline")`, `playbookSay("setting_up", {title: "Leerdam"})`, and with a number
// `playbookSayN("presses", 3)`: the language's plural form for 3 (the browser's
// Intl.PluralRules picks the form; the block holds one per category of the language).
(function () {
  var block = document.getElementById("playbook-texts"), texts = {};
  try { texts = block ? JSON.parse(block.textContent) : {}; } catch (e) { texts = {}; }
  var lang = texts.lang || document.documentElement.lang || "en";
  // Numbers in the digits the server writes them in (Babel's: Latin digits in every shipped language).
  var numbers = null;
  try { numbers = new Intl.NumberFormat(lang === "qps" ? "en" : lang, { numberingSystem: "latn" }); } catch (e) { numbers = null; }
  function number(n) { return numbers ? numbers.format(n) : String(n); }
  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (whole, name) {
      if (!values || !(name in values)) { return whole; }
      var value = values[name];
      return typeof value === "number" ? number(value) : String(value);
    });
  }
  window.playbookTexts = texts;
  window.playbookSay = function (key, values) {
    var text = texts[key];
    return fill(typeof text === "string" ? text : key, values);
  };
  window.playbookSayN = function (key, n, values) {
    var forms = texts[key] || {}, category = "other";
    try { category = new Intl.PluralRules(lang === "qps" ? "en" : lang).select(n); } catch (e) { category = n === 1 ? "one" : "other"; }
    var text = forms[category] || forms.other || key;
    var all = { n: n };
    Object.keys(values || {}).forEach(function (name) { all[name] = values[name]; });
    return fill(text, all);
  };
})();
