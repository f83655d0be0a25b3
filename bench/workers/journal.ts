// Child process of bench/journal.ts: the call journal alone against the database in DATABASE_URL.
// Run with `--conditions=react-server` (lib/domains/calls imports "server-only").
import crypto from "node:crypto";
import { recordCompletion, recordPending } from "@/lib/domains/calls/journal";
import { indexFinishedCalls, stopSearchIndexer } from "@/lib/domains/calls/search-index";
import { startScheduler } from "@/lib/core/scheduler";

const { WORKSPACE_ID: workspaceId, SERVER_ID: serverId, USER_ID: userId } = process.env as Record<string, string>;
const total = Number(process.env.CALLS ?? 20_000);
const inFlight = Number(process.env.IN_FLIGHT ?? 64);

async function oneCall(i: number): Promise<void> {
  const id = crypto.randomUUID();
  const startedAt = new Date();
  await recordPending({
    id, workspaceId, serverId, sessionId: null, userId, userName: "Bench", method: "tools/call", name: "echo",
    params: JSON.stringify({ name: "echo", arguments: { message: `bench ${i}` } }), paramsSecret: null,
    requestId: id, traceId: crypto.randomBytes(16).toString("hex"), rerunOfId: null, origin: "user", parentCallId: null, client: null,
    credentialMode: null, credentialUserId: null, credentialUserName: null, startedAt, requestSize: 60, instanceId: "bench", sentInvalid: false,
  });
  const result = JSON.stringify({ content: [{ type: "text", text: `Echo: bench ${i}` }] });
  await recordCompletion(id, { status: "ok", isError: false, result, error: null, finishedAt: new Date(), durationMs: 1, resultSize: result.length });
}

let next = 0;
await oneCall(next++); // opens the journal
// On SQLite the history search index is kept by this process, as by a console (lib/domains/calls/search-index.ts).
const jobs = /^postgres/.test(process.env.DATABASE_URL ?? "") ? null : startScheduler({ jobs: [{ name: "search.index", discipline: "each-instance", everyMs: 1000, variable: null, run: indexFinishedCalls }], instanceId: "bench", leaseMs: 15_000, pollMs: 5000 });
const t0 = performance.now();
const c0 = process.cpuUsage();
await Promise.all(Array.from({ length: inFlight }, async () => {
  while (next < total) await oneCall(next++);
}));
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(c0);
// What the indexer had not caught up with when the last call was recorded.
const t1 = performance.now();
await jobs?.stop();
await stopSearchIndexer();
const indexedAfterMs = performance.now() - t1;
const cpuIndexed = process.cpuUsage(c0);
console.log(JSON.stringify({ calls: total, seconds, rate: total / seconds, cpuMs: (cpu.user + cpu.system) / 1000, cpuIndexedMs: (cpuIndexed.user + cpuIndexed.system) / 1000, indexedAfterMs }));
process.exit(0);
