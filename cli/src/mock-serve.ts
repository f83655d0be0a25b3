import fs from "node:fs";
import http from "node:http";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { MockFile } from "../../lib/domains/mocks/index";
import { buildMockServer } from "../../lib/domains/mocks/mcp";
import { MockFileSchema } from "../../lib/domains/mocks/schemas";
import { CliError, type Command } from "./args";

type Out = (text: string) => void;

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Reads and checks an exported mock file (GET /api/v1/mocks/:id/export). */
export function readMockFile(file: string): MockFile {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read ${file}: ${code}` : `${file} is not JSON: ${(err as Error).message}`);
  }
  const parsed = MockFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`${file} is not a mock file (export one with GET /api/v1/mocks/:id/export): ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data as MockFile;
}

/**
 * Serves a mock file with no console: over stdio, or Streamable HTTP (both protocol eras,
 * stateless) at http://<host>:<port>/ (any path). Runs until stdin closes or the process is stopped.
 */
export async function mockServeCommand(cmd: Extract<Command, { command: "mock-serve" }>, out: Out, err: Out): Promise<number> {
  const file = readMockFile(cmd.file);
  const factory = () => buildMockServer(file);
  const summary = `mock "${file.name}" (${file.recordings.length} recordings of ${file.source.serverName || file.serverInfo.name}, ${file.match} match)`;
  if (cmd.stdio) {
    const handle = serveStdio(factory, { onerror: () => undefined });
    err(`Serving ${summary} over stdio\n`);
    await new Promise<void>((resolve) => process.stdin.once("close", resolve).once("end", resolve));
    await handle.close();
    return 0;
  }
  const handler = createMcpHandler(factory, { onerror: () => undefined });
  const server = http.createServer((req, res) => void serve(handler, req, res, cmd).catch(() => {
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end();
  }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(new CliError(`cannot listen on ${cmd.host}:${cmd.port}: ${e.code ?? e.message}`)));
    server.listen(cmd.port, cmd.host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : cmd.port;
  out(`Serving ${summary} at http://${cmd.host.includes(":") ? `[${cmd.host}]` : cmd.host}:${port}/mcp\n`);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => resolve()));
  });
  return 0;
}

async function serve(handler: ReturnType<typeof createMcpHandler>, req: http.IncomingMessage, res: http.ServerResponse, cmd: { host: string; port: number }) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "The request body is too large" } }));
    }
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  const request = new Request(`http://${req.headers.host ?? `${cmd.host}:${cmd.port}`}${req.url ?? "/"}`, { method: req.method, headers, body, signal: aborted.signal });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}
