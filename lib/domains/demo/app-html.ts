/**
 * The demo's MCP App: one self-contained page (the sandbox allows inline script and style, nothing
 * from the network). It speaks the few JSON-RPC messages of the ext-apps protocol by hand over
 * postMessage instead of loading the 540 KB App bundle, which every resource read would record.
 */
export const DEMO_APP_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8" />
<title>Dice app</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 12px; color: #14161c; background: #f5f7fb; }
  body.dark { color: #e8eaf0; background: #1a1e29; }
  h2 { margin: 0 0 6px; font-size: 16px; }
  .dice { display: flex; gap: 8px; margin: 8px 0; }
  .die { width: 40px; height: 40px; border-radius: 8px; display: flex; align-items: center; justify-content: center;
         font-size: 20px; font-weight: 600; background: #fff; color: #14161c; border: 1px solid #c9cfdb; }
  body.dark .die { background: #262b38; color: #e8eaf0; border-color: #444b5c; }
  button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #8a93a6; background: transparent; color: inherit; cursor: pointer; }
  p { margin: 4px 0; }
</style>
</head>
<body>
<h2 id="title">Waiting for the tool…</h2>
<div class="dice" id="dice" aria-label="Dice"></div>
<p id="total"></p>
<button id="again" type="button">Roll again from the app</button>
<p id="theme"></p>
<script>
  const $ = (id) => document.getElementById(id);
  let nextId = 1;
  const waiting = new Map();
  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const showTheme = (theme) => {
    $("theme").textContent = "Theme: " + (theme || "unknown");
    document.body.classList.toggle("dark", theme === "dark");
  };
  const showDice = (result) => {
    const rolls = (result && result.structuredContent && result.structuredContent.rolls) || [];
    $("dice").replaceChildren(...rolls.map((n) => { const d = document.createElement("span"); d.className = "die"; d.textContent = n; return d; }));
    $("total").textContent = rolls.length ? "Total: " + rolls.reduce((a, b) => a + b, 0) : (result && result.content && result.content[0] && result.content[0].text) || "";
  };
  const resize = () => send({ method: "ui/notifications/size-changed", params: { height: document.documentElement.scrollHeight } });
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (w) m.error ? w.reject(new Error(m.error.message)) : w.resolve(m.result);
      return;
    }
    if (m.method === "ui/notifications/tool-input") $("title").textContent = "Rolling " + JSON.stringify((m.params && m.params.arguments) || {});
    if (m.method === "ui/notifications/tool-result") { $("title").textContent = "Dice app"; showDice(m.params); resize(); }
    if (m.method === "ui/notifications/tool-cancelled") $("title").textContent = "Cancelled: " + ((m.params && m.params.reason) || "no reason");
    if (m.method === "ui/notifications/host-context-changed" && m.params && m.params.theme) showTheme(m.params.theme);
    if (m.method === "ui/resource-teardown" && m.id !== undefined) send({ id: m.id, result: {} });
    if (m.method === "ping" && m.id !== undefined) send({ id: m.id, result: {} });
  });
  $("again").onclick = async () => {
    try {
      showDice(await request("tools/call", { name: "roll-dice", arguments: { count: 3, sides: 6 } }));
      $("title").textContent = "Rolled from the app";
    } catch (err) {
      $("total").textContent = "Error: " + err.message;
    }
  };
  request("ui/initialize", { appInfo: { name: "switchboard-demo-dice", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" }).then((result) => {
    showTheme(result && result.hostContext && result.hostContext.theme);
    send({ method: "ui/notifications/initialized", params: {} });
    resize();
  });
</script>
</body>
</html>
`;
