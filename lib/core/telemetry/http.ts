import type { IncomingMessage, ServerResponse } from "node:http";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { headerContext, tracer } from "./context";

/**
 * Runs one API or gateway request in an HTTP server span (`{method} {route}`, the HTTP conventions'
 * attributes) that continues the client's `traceparent`, ended when the response is done.
 * The query string is left out: tokens and search text travel there.
 */
export function serveTraced<T>(req: IncomingMessage, res: ServerResponse, route: string, fn: () => Promise<T>): Promise<T> {
  const parent = headerContext(req.headers);
  const method = req.method ?? "GET";
  const httpRoute = route.replace(/\[(\w+)\]/g, ":$1");
  const span = tracer().startSpan(`${method} ${httpRoute}`, {
    kind: SpanKind.SERVER,
    attributes: { "http.request.method": method, "http.route": httpRoute, "url.path": (req.url ?? "/").split("?")[0], "url.scheme": "http" },
  }, parent);
  res.once("close", () => {
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.setAttribute("error.type", "aborted");
    span.end();
  });
  return context.with(trace.setSpan(parent, span), fn);
}
