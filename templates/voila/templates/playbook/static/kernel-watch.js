// In the page's head, before Voila opens the kernel's socket: the channel watched for the
// kernel's end (read by starting.js and live.js through window.__playbookKernelGone).
(function () {
  // Watch the kernel's channel for its own word that it died or was restarted (a restarted
  // kernel is a blank one: this page's widgets no longer live anywhere). Wrapped before Voila
  // opens the socket; everything else about the socket is left as it is.
  var Native = window.WebSocket;
  if (!Native) { return; }
  var restart = /"execution_state"\s*:\s*"(restarting|dead)"/;
  function look(text) {
    if (text && restart.test(text)) { window.__playbookKernelGone = true; }
  }
  function Watched(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).indexOf("/channels") !== -1) {
      socket.addEventListener("message", function (event) {
        var data = event.data;
        if (typeof data === "string") { look(data); }
        else if (data instanceof ArrayBuffer) { look(new TextDecoder().decode(data)); }
        else if (data && data.text) { data.text().then(look); }
      });
    }
    return socket;
  }
  Watched.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Watched[name] = Native[name]; });
  window.WebSocket = Watched;
})();
