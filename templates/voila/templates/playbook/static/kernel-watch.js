// In the page's head, before Voila opens the kernel's socket: the channel watched for the
// kernel's end (read by starting.js and live.js through window.__playbookKernelGone) and for
// the socket itself closing (a server stopped, a network gone: reconnect.js says so at once).
(function () {
  // Watch the kernel's channel for its own word that it died or was restarted (a restarted
  // kernel is a blank one: this page's widgets no longer live anywhere), and for its socket
  // opening and closing. Wrapped before Voila opens the socket; everything else about the
  // socket is left as it is. Each news is also an event, "playbook-channel" on window, whose
  // detail is "open", "closed" or "gone": a page need not wait for its next heartbeat.
  var Native = window.WebSocket;
  if (!Native) { return; }
  var restart = /"execution_state"\s*:\s*"(restarting|dead)"/;
  window.__playbookChannelsOpen = 0;
  function tell(news) {
    try { window.dispatchEvent(new CustomEvent("playbook-channel", { detail: news })); } catch (e) { /* an old browser: the heartbeat still tells */ }
  }
  function look(text) {
    if (text && restart.test(text) && !window.__playbookKernelGone) {
      window.__playbookKernelGone = true;
      tell("gone");
    }
  }
  function Watched(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).indexOf("/channels") !== -1) {
      var opened = false;
      socket.addEventListener("open", function () {
        opened = true;
        window.__playbookChannelsOpen += 1;
        tell("open");
      });
      // A socket that never opened (its server refused it) closes too: the same news.
      socket.addEventListener("close", function () {
        if (opened) { window.__playbookChannelsOpen -= 1; }
        opened = false;
        tell("closed");
      });
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
