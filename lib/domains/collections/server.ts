import "server-only";
import crypto from "node:crypto";
import { assertOwnOrAdmin, type Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { isUniqueViolation } from "@/lib/core/db/client";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { getCall } from "@/lib/domains/calls/server";
import { listServers } from "@/lib/domains/servers/server";
import type { CollectionDto, CollectionFile, EnvironmentDto, Step } from "./index";
import type { CreateCollection, CreateEnvironment, StepInput, UpdateCollection, UpdateEnvironment } from "./schemas";
import { toCollectionDto, toEnvironmentDto } from "./dto";
import * as q from "./queries";

import { getRun } from "./runner";

export { startRun, startClaimedRun, getRun, listRuns, listMonitorRuns, getRunJUnit } from "./runner";
export { reapExpiredRuns, databaseInterruption, durably, holdLease, runLeaseMs } from "./lease";
export { snapshotDiff } from "./diff";
export { escapeXml } from "./junit";

const isPlaceholder = (serverId: string) => serverId.includes("{{");

/** Steps as stored: every step has an id; a step naming a server by id must name one of this workspace. */
async function normaliseSteps(principal: Principal, steps: StepInput[]): Promise<Step[]> {
  const real = steps.filter((s) => !isPlaceholder(s.serverId));
  if (real.length) {
    const known = new Set((await listServers(principal)).map((s) => s.id));
    const index = steps.findIndex((s) => !isPlaceholder(s.serverId) && !known.has(s.serverId));
    if (index >= 0) {
      throw new SwitchboardError("unprocessable", `steps.${index}.serverId: no server "${steps[index]!.serverId}" in this workspace (use "{{alias}}" for a server an environment names)`, {
        path: ["steps", index, "serverId"],
      });
    }
  }
  return steps.map((s) => ({ ...s, id: s.id ?? crypto.randomUUID().slice(0, 8) }));
}

async function requireCollection(principal: Principal, id: string): Promise<q.CollectionRow> {
  const row = await q.findCollection({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Collection");
  return row;
}

const nameTaken = (name: string) => new SwitchboardError("conflict", `A collection named "${name}" exists already`);

export async function listCollections(principal: Principal, { name }: { name?: string } = {}): Promise<CollectionDto[]> {
  return (await q.listCollections({ workspaceId: principal.workspaceId, name })).map(toCollectionDto);
}

export async function getCollection(principal: Principal, id: string): Promise<CollectionDto> {
  return toCollectionDto(await requireCollection(principal, id));
}

export async function createCollection(principal: Principal, input: CreateCollection, action = "collection.created"): Promise<CollectionDto> {
  const steps = await normaliseSteps(principal, input.steps);
  const row = await q
    .insertCollection({
      data: {
        workspaceId: principal.workspaceId,
        name: input.name,
        description: input.description ?? null,
        steps: JSON.stringify(steps),
        variables: JSON.stringify(input.variables),
        createdById: principal.userId,
        createdByName: principal.userName,
      },
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? nameTaken(input.name) : err;
    });
  await audit(principal, { action, target: { type: "collection", id: row.id, name: row.name }, details: { steps: steps.length } });
  return toCollectionDto(row);
}

/**
 * Imports an export file as a new collection (its server ids must be this workspace's, or
 * aliases), under `name` when given. A taken name is a conflict whose details suggest a free one.
 */
export async function importCollection(principal: Principal, file: CreateCollection, name?: string): Promise<CollectionDto> {
  const wanted = name ?? file.name;
  try {
    return await createCollection(principal, { ...file, name: wanted }, "collection.imported");
  } catch (err) {
    if (!(err instanceof SwitchboardError) || err.code !== "conflict") throw err;
    const taken = new Set((await q.listCollectionNames({ workspaceId: principal.workspaceId })).map((c) => c.name.toLowerCase()));
    let n = 2;
    while (taken.has(`${wanted} (${n})`.toLowerCase())) n++;
    throw new SwitchboardError("conflict", `${err.message}: import it under another name (?name=)`, { name: wanted, suggestion: `${wanted} (${n})` });
  }
}

export async function updateCollection(principal: Principal, id: string, input: UpdateCollection): Promise<CollectionDto> {
  const existing = await requireCollection(principal, id);
  assertOwnOrAdmin(principal, existing.createdById, "collection");
  const steps = input.steps ? await normaliseSteps(principal, input.steps) : undefined;
  const data = {
    name: input.name,
    description: input.description,
    steps: steps ? JSON.stringify(steps) : undefined,
    variables: input.variables ? JSON.stringify(input.variables) : undefined,
  };
  const row = await q.updateCollection({ id, data }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? nameTaken(input.name ?? "") : err;
  });
  const changed = Object.keys(input).filter((k) => input[k as keyof UpdateCollection] !== undefined);
  await audit(principal, { action: "collection.updated", target: { type: "collection", id, name: row.name }, details: { changed } });
  return toCollectionDto(row);
}

export async function deleteCollection(principal: Principal, id: string): Promise<void> {
  const existing = await requireCollection(principal, id);
  assertOwnOrAdmin(principal, existing.createdById, "collection");
  await q.deleteCollection({ id });
  await audit(principal, { action: "collection.deleted", target: { type: "collection", id, name: existing.name } });
}

/** The collection as one JSON file for a repository: its steps and variables, never an environment's secrets. */
export async function exportCollection(principal: Principal, id: string): Promise<CollectionFile> {
  const c = await getCollection(principal, id);
  return { switchboard: "collection", version: 1, name: c.name, description: c.description, variables: c.variables, steps: c.steps };
}

/**
 * Keeps the result of a run's step as its collection step's snapshot (the snapshot assertion's
 * `expected`; one is added when the step has none). The result is the recorded one, secrets masked.
 */
export async function acceptSnapshot(principal: Principal, runId: string, index: number): Promise<CollectionDto> {
  const run = await getRun(principal, runId);
  const ran = run.steps.find((s) => s.index === index);
  if (!ran) throw notFound("Run step");
  if (!ran.callId) throw new SwitchboardError("unprocessable", "This step recorded no call whose result could be kept");
  const existing = await requireCollection(principal, run.collectionId);
  assertOwnOrAdmin(principal, existing.createdById, "collection");
  const { result } = await getCall(principal, ran.callId);
  const steps = JSON.parse(existing.steps) as Step[];
  const step = steps.find((s) => s.id === ran.stepId);
  if (!step) throw new SwitchboardError("conflict", `Step "${ran.stepId}" is no longer in the collection`);
  const snapshot = step.assert?.find((a) => a.kind === "snapshot");
  if (snapshot) snapshot.expected = result;
  else step.assert = [...(step.assert ?? []), { kind: "snapshot", expected: result }];
  const row = await q.updateCollection({ id: existing.id, data: { steps: JSON.stringify(steps) } });
  await audit(principal, { action: "collection.snapshot_accepted", target: { type: "collection", id: existing.id, name: existing.name }, details: { runId, stepId: ran.stepId } });
  return toCollectionDto(row);
}

// Environments

async function checkServerMap(principal: Principal, servers: Record<string, string> | undefined): Promise<void> {
  if (!servers || !Object.keys(servers).length) return;
  const known = new Set((await listServers(principal)).map((s) => s.id));
  const bad = Object.entries(servers).find(([, id]) => !known.has(id));
  if (bad) throw new SwitchboardError("unprocessable", `servers.${bad[0]}: no server "${bad[1]}" in this workspace`, { path: ["servers", bad[0]] });
}

const envNameTaken = (name: string) => new SwitchboardError("conflict", `An environment named "${name}" exists already`);

function sealSecrets(secrets: Record<string, string>): { secrets: string | null; secretNames: string } {
  const names = Object.keys(secrets).sort();
  return { secrets: names.length ? encryptJson(secrets) : null, secretNames: JSON.stringify(names) };
}

export async function listEnvironments(principal: Principal): Promise<EnvironmentDto[]> {
  return (await q.listEnvironments({ workspaceId: principal.workspaceId })).map(toEnvironmentDto);
}

async function requireEnvironment(principal: Principal, id: string): Promise<q.EnvironmentRow> {
  const row = await q.findEnvironment({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Environment");
  return row;
}

export async function getEnvironment(principal: Principal, id: string): Promise<EnvironmentDto> {
  return toEnvironmentDto(await requireEnvironment(principal, id));
}

export async function createEnvironment(principal: Principal, input: CreateEnvironment): Promise<EnvironmentDto> {
  await checkServerMap(principal, input.servers);
  const data = { workspaceId: principal.workspaceId, name: input.name, values: JSON.stringify(input.values), servers: JSON.stringify(input.servers), ...sealSecrets(input.secrets) };
  const row = await q.insertEnvironment({ data }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? envNameTaken(input.name) : err;
  });
  await audit(principal, { action: "environment.created", target: { type: "environment", id: row.id, name: row.name }, details: { secretNames: Object.keys(input.secrets) } });
  return toEnvironmentDto(row);
}

export async function updateEnvironment(principal: Principal, id: string, input: UpdateEnvironment): Promise<EnvironmentDto> {
  const existing = await requireEnvironment(principal, id);
  await checkServerMap(principal, input.servers);
  let sealed = {};
  if (input.secrets) {
    const stored = await q.findEnvironmentSecrets({ id });
    const secrets: Record<string, string> = stored ? decryptJson<Record<string, string>>(stored) : {};
    for (const [name, value] of Object.entries(input.secrets)) {
      if (value === null) delete secrets[name];
      else secrets[name] = value;
    }
    sealed = sealSecrets(secrets);
  }
  const data = {
    name: input.name,
    values: input.values ? JSON.stringify(input.values) : undefined,
    servers: input.servers ? JSON.stringify(input.servers) : undefined,
    ...sealed,
  };
  const row = await q.updateEnvironment({ id, data }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? envNameTaken(input.name ?? existing.name) : err;
  });
  const changed = Object.keys(input).filter((k) => input[k as keyof UpdateEnvironment] !== undefined);
  await audit(principal, { action: "environment.updated", target: { type: "environment", id, name: row.name }, details: { changed, secretNames: Object.keys(input.secrets ?? {}) } });
  return toEnvironmentDto(row);
}

export async function deleteEnvironment(principal: Principal, id: string): Promise<void> {
  const existing = await requireEnvironment(principal, id);
  await q.deleteEnvironment({ id });
  await audit(principal, { action: "environment.deleted", target: { type: "environment", id, name: existing.name } });
}
