import type { CollectionDto, CollectionFile, RunDto } from "../../lib/domains/collections";
import type { LintReport } from "../../lib/domains/quality";
import { CliError, type Connection } from "./args";

/** Calls the console's API with the token; any failure but a 404 or an `answered` status becomes a one-line CliError (exit 2). */
export async function request<T>(conn: Connection, method: string, route: string, body?: unknown, answered: number[] = []): Promise<{ status: number; body: T }> {
  let res: Response;
  try {
    res = await fetch(`${conn.console}${route}`, {
      method,
      headers: { authorization: `Bearer ${conn.token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach the console at ${conn.console}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new CliError(`${conn.console} did not answer ${method} ${route} as a Switchboard console (HTTP ${res.status}, ${res.headers.get("content-type") ?? "no content type"})`);
  }
  if (res.ok || res.status === 404 || answered.includes(res.status)) return { status: res.status, body: parsed as T };
  const message = (parsed as { error?: { message?: string } } | null)?.error?.message ?? res.statusText;
  if (res.status === 401) throw new CliError(`the console refused the API token (401): ${message}`);
  if (res.status === 403) throw new CliError(`the API token may not do this (403): ${message}`);
  throw new CliError(`${method} ${route} failed (${res.status}): ${message}`);
}

/** Finds a collection by exact name, else by id. */
export async function findCollection(conn: Connection, ref: string): Promise<CollectionDto> {
  const byName = await request<{ items?: CollectionDto[] }>(conn, "GET", `/api/v1/collections?name=${encodeURIComponent(ref)}`);
  const named = (byName.body?.items ?? []).filter((c) => c.name === ref);
  if (named.length === 1) return named[0]!;
  const byId = await request<{ collection?: CollectionDto }>(conn, "GET", `/api/v1/collections/${encodeURIComponent(ref)}`);
  if (byId.status === 200 && byId.body?.collection) return byId.body.collection;
  throw new CliError(`no collection "${ref}" in this workspace (give its exact name or its id)`);
}

export async function startRun(conn: Connection, collectionId: string, body: { environment?: string; variables: Record<string, unknown>; stopOnFailure: boolean }): Promise<RunDto> {
  const res = await request<{ run?: RunDto; error?: { message?: string } }>(conn, "POST", `/api/v1/collections/${encodeURIComponent(collectionId)}/runs`, { ...body, origin: "cli" });
  if (!res.body?.run) throw new CliError(`could not start the run: ${res.body?.error?.message ?? `HTTP ${res.status}`}`);
  return res.body.run;
}

export async function getRun(conn: Connection, runId: string): Promise<RunDto> {
  const res = await request<{ run?: RunDto }>(conn, "GET", `/api/v1/runs/${encodeURIComponent(runId)}`);
  if (!res.body?.run) throw new CliError(`run ${runId} not found`);
  return res.body.run;
}

export async function exportCollection(conn: Connection, collectionId: string): Promise<CollectionFile> {
  const res = await request<CollectionFile>(conn, "GET", `/api/v1/collections/${encodeURIComponent(collectionId)}/export`);
  if (res.status !== 200) throw new CliError(`collection ${collectionId} not found`);
  return res.body;
}

export async function importCollection(conn: Connection, file: unknown, name?: string): Promise<CollectionDto> {
  const path = `/api/v1/collections/import${name === undefined ? "" : `?name=${encodeURIComponent(name)}`}`;
  const res = await request<{ collection: CollectionDto; error?: { message?: string; details?: { name?: string; suggestion?: string } } }>(conn, "POST", path, file, [409]);
  const taken = res.status === 409 ? res.body?.error?.details : undefined;
  if (taken?.suggestion) throw new CliError(`a collection named "${taken.name}" exists already: import it under another name with --name "${taken.suggestion}"`);
  if (res.status !== 201 && res.status !== 200) throw new CliError(`import failed: ${res.body?.error?.message ?? `HTTP ${res.status}`}`);
  return res.body.collection;
}

/** Finds a server by exact name among the workspace's active servers, else by id. */
export async function findServer(conn: Connection, ref: string): Promise<{ id: string; name: string }> {
  const list = await request<{ items?: { id: string; name: string }[] }>(conn, "GET", "/api/v1/servers");
  const named = (list.body?.items ?? []).filter((s) => s.name === ref || s.id === ref);
  if (named.length === 1) return named[0]!;
  throw new CliError(named.length ? `${named.length} servers are named "${ref}": give its id` : `no server "${ref}" in this workspace (give its exact name or its id)`);
}

/** The lint of a server's latest capability snapshot; 409 (never connected) becomes a one-line CliError. */
export async function getLint(conn: Connection, serverId: string): Promise<LintReport> {
  const res = await request<LintReport & { error?: { message?: string } }>(conn, "GET", `/api/v1/servers/${encodeURIComponent(serverId)}/lint`, undefined, [409]);
  if (res.status !== 200) throw new CliError(`cannot lint: ${res.body?.error?.message ?? `HTTP ${res.status}`}`);
  return res.body;
}
