// Voila's loading message, in the table's words: "Setting up New Rule... (2 of 5)".
(function () {
  var title = document.querySelector(".playbook-header").getAttribute("data-title");
  function say(text) {
    var box = document.getElementById("loading");
    if (box && box.style.display === "none") {
      box.style.display = "flex";
    }
    var line = document.getElementById("loading_text");
    if (line) {
      line.textContent = text;
    }
  }
  say(window.playbookSay("setting_up", { title: title }));
  window.voila_process = function (index, count) {
    say(window.playbookSay("setting_up_of", { title: title, index: index, count: count }));
  };
})();
