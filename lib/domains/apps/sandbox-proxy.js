// The MCP Apps sandbox proxy: runs on the sandbox origin (never the console's), inside the
// console's outer iframe. It loads the app's HTML into an inner iframe with sandbox="allow-scripts"
// (an opaque origin) that inherits this page's Content-Security-Policy, and relays JSON-RPC
// messages between the console and the app. Spec: ext-apps specification, "Sandbox proxy".
(function () {
  "use strict";
  var PREFIX = "ui/notifications/sandbox-";
  var hostOrigin;
  try {
    hostOrigin = new URL(new URLSearchParams(location.search).get("host") || "").origin;
  } catch (e) {
    return;
  }
  if (window.parent === window) return;
  var ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length && ancestors[0] !== hostOrigin) return;

  var inner = null;
  var isSandboxMethod = function (data) {
    return typeof data.method === "string" && data.method.indexOf(PREFIX) === 0;
  };
  var toHost = function (message) {
    window.parent.postMessage(message, hostOrigin);
  };

  function load(params) {
    if (inner || !params || typeof params.html !== "string") return;
    inner = document.createElement("iframe");
    // Never widened: the host's `sandbox` override, if any, is ignored.
    inner.setAttribute("sandbox", "allow-scripts");
    inner.setAttribute("title", "MCP App");
    inner.srcdoc = params.html;
    document.body.appendChild(inner);
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || data.jsonrpc !== "2.0") return;
    if (event.source === window.parent && event.origin === hostOrigin) {
      if (data.method === PREFIX + "resource-ready") load(data.params);
      else if (!isSandboxMethod(data) && inner && inner.contentWindow) inner.contentWindow.postMessage(data, "*");
      return;
    }
    if (inner && event.source === inner.contentWindow && !isSandboxMethod(data)) toHost(data);
  });

  toHost({ jsonrpc: "2.0", method: PREFIX + "proxy-ready", params: {} });
})();
