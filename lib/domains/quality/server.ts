import "server-only";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError, notFound } from "@/lib/core/errors";
import { piece } from "@/lib/core/runtime";
import { getServer, listCapability } from "@/lib/domains/servers/server";
import type { DefinitionSet, LintReport } from "./index";
import { lintDefinitions } from "./lint";
import * as q from "./queries";
import { TOKENIZER, tokenCost, totalTokens } from "./tokens";

const HISTORY_LIMIT = 50;
const CACHE_LIMIT = 2_000;

const totals = () => piece("snapshotTokens", () => new Map<string, number>());

function parseData(data: string): DefinitionSet {
  const parsed = JSON.parse(data) as Partial<DefinitionSet>;
  return { tools: parsed.tools ?? [], prompts: parsed.prompts ?? [], resources: parsed.resources ?? [], templates: parsed.templates ?? [] };
}

function cachedTotal(row: { id: string; data: string }): number {
  const cache = totals();
  let total = cache.get(row.id);
  if (total === undefined) {
    total = totalTokens(parseData(row.data));
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(row.id, total);
  }
  return total;
}

/**
 * The lint of a server's latest capability snapshot (or of `snapshotId`): the rules' findings, the
 * definitions' token cost, and the total at each of its last 50 snapshots. An unknown server or
 * snapshot is 404; a server never snapshotted (never connected) is 409.
 */
export async function lintServer(principal: Principal, serverId: string, { snapshotId }: { snapshotId?: string } = {}): Promise<LintReport> {
  const server = await getServer(principal, serverId);
  const rows = await q.listSnapshots({ serverId: server.id, limit: HISTORY_LIMIT });
  const row = snapshotId ? (rows.find((r) => r.id === snapshotId) ?? (await q.findSnapshot({ serverId: server.id, id: snapshotId }))) : rows[0];
  if (!row && snapshotId) throw notFound("Snapshot");
  if (!row) throw new SwitchboardError("conflict", `Server "${server.name}" has no capability snapshot yet: connect it first (the lint reads the definitions listed at a connect)`);
  const data = parseData(row.data);
  const cost = tokenCost(data);
  totals().set(row.id, cost.total);
  return {
    snapshotId: row.id,
    takenAt: row.takenAt.toISOString(),
    findings: lintDefinitions(data),
    tokens: { total: cost.total, tokenizer: TOKENIZER, items: cost.items },
    history: rows.map((r) => ({ snapshotId: r.id, takenAt: r.takenAt.toISOString(), total: cachedTotal(r) })),
  };
}

type Json = Record<string, unknown>;
const byKey = (key: string) => (list: unknown[]) =>
  (list as Json[]).map((item) => [String(item[key] ?? ""), item] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);

/**
 * The lint of the definitions a server lists now, over its live connection (a collection step's
 * `lint` assertion): each list sorted by name (resources by URI) as a snapshot stores it, so the
 * findings and total agree with `lintServer` on a snapshot of the same definitions.
 */
export async function lintLive(principal: Principal, serverId: string): Promise<{ findings: LintReport["findings"]; tokens: number }> {
  const [tools, prompts, resources, templates] = await Promise.all((["tools", "prompts", "resources", "resource-templates"] as const).map((kind) => listCapability(principal, serverId, kind)));
  const data: DefinitionSet = { tools: byKey("name")(tools!), prompts: byKey("name")(prompts!), resources: byKey("uri")(resources!), templates: byKey("uriTemplate")(templates!) };
  return { findings: lintDefinitions(data), tokens: totalTokens(data) };
}
