import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { piece } from "@/lib/core/runtime";
import { buildAppCsp, type AppCsp } from "./index";

/** The port the sandbox listens on in this process (null when it is not running): Next's graph reads it. */
export const sandboxPort = () => piece("appSandbox", () => ({ port: null as number | null }));

// Read once at start-up: the proxy page is static and ours; nothing else is ever served here.
const PROXY_JS = fs.readFileSync(new URL("./sandbox-proxy.js", import.meta.url), "utf8");
const PROXY_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>MCP App sandbox</title>' +
  "<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}" +
  "iframe{display:block;border:0;width:100%;height:100%}</style></head>" +
  '<body><script src="/sandbox-proxy.js"></script></body></html>';
const MAX_CSP_PARAM = 16_384;

const COMMON_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

function parseOrigin(value: string | null): string | null {
  try {
    const url = new URL(value ?? "");
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

function parseCsp(value: string | null): AppCsp | null {
  if (!value) return {};
  if (value.length > MAX_CSP_PARAM) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as AppCsp) : null;
  } catch {
    return null;
  }
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...COMMON_HEADERS, allow: "GET, HEAD" }).end();
    return;
  }
  const url = new URL(req.url ?? "/", "http://sandbox");
  if (url.pathname === "/sandbox-proxy.js") {
    res.writeHead(200, { ...COMMON_HEADERS, "content-type": "text/javascript; charset=utf-8" }).end(req.method === "HEAD" ? undefined : PROXY_JS);
    return;
  }
  if (url.pathname !== "/sandbox") {
    res.writeHead(404, { ...COMMON_HEADERS, "content-type": "text/plain" }).end("Not found");
    return;
  }
  // The page may be framed only by the origin it will talk to, and it inherits its policy to the
  // app: the policy is the app's declared domains and nothing more.
  const host = parseOrigin(url.searchParams.get("host"));
  const csp = parseCsp(url.searchParams.get("csp"));
  if (!host || !csp) {
    res.writeHead(400, { ...COMMON_HEADERS, "content-type": "text/plain" }).end("Bad sandbox parameters");
    return;
  }
  res
    .writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `${buildAppCsp(csp)}; frame-ancestors ${host}`,
    })
    .end(req.method === "HEAD" ? undefined : PROXY_HTML);
}

interface SandboxServer {
  port: number;
  close(): void;
}

/**
 * Starts the sandbox origin's HTTP server (the MCP Apps proxy page, nothing else). When the
 * default port is taken and no port was configured, an ephemeral one is used instead; a failure
 * to listen leaves the console running without apps (null).
 */
export function startSandboxServer(opts: { host: string; port: number; fixed: boolean }): Promise<SandboxServer | null> {
  const server = http.createServer(handle);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, opts.host, () => {
        server.off("error", reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  return listen(opts.port)
    .catch((err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE" && !opts.fixed) return listen(0);
      throw err;
    })
    .then((port) => {
      sandboxPort().port = port;
      return { port, close: () => ((sandboxPort().port = null), server.close()) };
    })
    .catch((err: Error) => {
      console.error(`MCP Apps sandbox could not listen: ${err.message}; apps will not load`);
      return null;
    });
}
