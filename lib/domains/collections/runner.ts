import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { listOffered, refusedCallId, runCall } from "@/lib/domains/calls/server";
import type { CallDto } from "@/lib/domains/calls";
import { decryptJson } from "@/lib/core/crypto";
import { isOwnDatabaseOutage } from "@/lib/core/db/client";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { instanceId } from "@/lib/core/instances";
import { classifyFailure, toCallError } from "@/lib/mcp/server";
import { redact, secretValues, type SecretValues } from "@/lib/core/redaction";
import { getServerForCall } from "@/lib/domains/servers/server";
import { getConnection } from "@/lib/domains/sessions/server";
import { lintLive } from "@/lib/domains/quality/server";
import { evaluate, type CallUnderTest, type LintUnderTest } from "./assertions";
import { toCollectionDto, toRunDto, toRunSummary } from "./dto";
import { AUTOMATIC_RUN_ORIGINS, fillVariables, RUN_ORIGINS, stepCallOrigin, stepLabel, type Assertion, type AssertionOutcome, type RunDto, type RunOrigin, type RunStatus, type RunSummary, type Step, type StepRunStatus } from "./index";
import { toJUnit } from "./junit";
import { databaseInterruption, durably, holdLease, interruptRun, runLeaseMs } from "./lease";
import * as q from "./queries";
import { interpolate, resolveServerId, type VariableScope } from "./variables";
import { startWorkSpan } from "@/lib/core/telemetry";

export interface StartRunInput {
  principal: Principal;
  collectionId: string;
  /** An environment's name or id. */
  environment?: string;
  variables?: Record<string, unknown>;
  stopOnFailure?: boolean;
  origin: RunOrigin;
  /** The monitor whose tick starts the run (lib/watch/monitors). */
  monitorId?: string;
}

type Started = { run: RunDto; finished: Promise<RunDto> };

/**
 * Starts a run of a collection in this process and answers at once with the run (status
 * `running`) and a promise of the finished run. Steps run one after the other through `runCall`
 * (origin "collection", a monitor's "monitor"); each step's outcome is written and announced on the event bus as it ends.
 * Needs no HTTP request: monitors start runs with a workspace principal of their own.
 */
export async function startRun(input: StartRunInput): Promise<Started> {
  return (await startClaimedRun({ ...input, claim: undefined }))!;
}

/**
 * `startRun`, with `claim` run in the transaction that inserts the run (lib/watch/monitors claims its
 * tick there, so a tick and its run are written together or not at all): null, and nothing
 * written, when `claim` answers false.
 */
export async function startClaimedRun({ principal, collectionId, environment, variables = {}, stopOnFailure = true, origin, monitorId, claim }: StartRunInput & { claim: q.InsertRunClaim | undefined }): Promise<Started | null> {
  const collection = toCollectionDto((await q.findCollection({ workspaceId: principal.workspaceId, id: collectionId })) ?? throwNotFound("Collection"));
  let env: { name: string; values: Record<string, unknown>; secrets: Record<string, unknown>; servers: Record<string, string> } | null = null;
  if (environment) {
    const row = await q.findEnvironmentByNameOrId({ workspaceId: principal.workspaceId, ref: environment });
    if (!row) throw new SwitchboardError("unprocessable", `environment: no environment "${environment}" in this workspace`);
    const sealed = await q.findEnvironmentSecrets({ id: row.id });
    env = { name: row.name, values: JSON.parse(row.values), secrets: sealed ? decryptJson(sealed) : {}, servers: JSON.parse(row.servers) };
  }
  const shown = redact(variables).value;
  const row = await q.insertRun({
    data: {
      workspaceId: principal.workspaceId,
      collectionId: collection.id,
      collectionName: collection.name,
      environmentName: env?.name ?? null,
      origin,
      stopOnFailure,
      startedById: principal.userId,
      startedByName: principal.userName,
      instanceId: instanceId(),
      variables: JSON.stringify(shown),
      total: collection.steps.length,
      monitorId: monitorId ?? null,
    },
    // Labels read with the run's values filled in; secrets stay `{{name}}`, as in every record.
    steps: collection.steps.map((s, index) => ({ index, stepId: s.id, label: fillVariables(stepLabel(s), { ...collection.variables, ...env?.values, ...shown }) })),
    leaseMs: runLeaseMs(),
    claim,
  });
  if (!row) return null;
  // The run exists from here on: a failure to audit it must not leave it unstarted.
  await durably(() => audit(principal, { action: "collection.run", target: { type: "collection", id: collection.id, name: collection.name }, details: { runId: row.id, environment: env?.name ?? null, origin } })).catch((err: unknown) =>
    console.error(`[collections] run ${row.id} could not be audited`, err),
  );
  announce(principal.workspaceId, row, null);
  const scope: VariableScope = {
    variables: { ...collection.variables, ...env?.values, ...env?.secrets, ...variables },
    steps: [],
    servers: env?.servers ?? {},
  };
  // The environment's secrets are masked in the steps' recorded calls, as a server's stored headers are.
  const secrets = secretValues(Object.values(env?.secrets ?? {}).map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
  const lease = holdLease({ runId: row.id });
  // One trace per run: the run's span, a span per step, the step's call under it.
  const span = startWorkSpan(`${monitorId ? "monitor" : "collection"} run ${collection.name}`, { "switchboard.run.id": row.id, "switchboard.collection.id": collection.id, ...(monitorId ? { "switchboard.monitor.id": monitorId } : {}) });
  const finished = span
    .run(() => execute({ principal, run: row, steps: collection.steps, scope, stopOnFailure, calls: { secrets, origin: stepCallOrigin(origin) }, lease }))
    .then((done) => (span.end(done.status, done.status !== "passed"), done))
    .catch(async (err: unknown) => {
      span.end("interrupted", true);
      // Its writes failed past their retries (or a bug): interrupted, or reaped by its lease if even that fails.
      console.error(`[collections] run ${row.id} failed`, err);
      await interruptRun({ runId: row.id, reason: databaseInterruption(err) ?? (err instanceof Error ? err.message : String(err)) }).catch(() => undefined);
      return durably(() => getRun(principal, row.id)).catch(() => ({ ...toRunDto(row), status: "interrupted" as const }));
    })
    .finally(() => lease.release());
  return { run: toRunDto(row), finished };
}

function throwNotFound(what: string): never {
  throw notFound(what);
}

function announce(workspaceId: string, run: { id: string; collectionId: string; status: string }, stepIndex: number | null): void {
  publish(workspaceId, { type: "collection_run", runId: run.id, collectionId: run.collectionId, status: run.status, stepIndex });
}

interface StepOutcome {
  status: StepRunStatus;
  /** The console's own database failed the step (lib/core/db/outage.ts): the run is interrupted, not failed. */
  interrupted?: boolean;
  callId: string | null;
  durationMs: number | null;
  error: string | null;
  assertions: AssertionOutcome[];
  result: unknown;
}

/** How a run's steps record their calls: the secrets to mask, and the origin. */
type StepCalls = { secrets: SecretValues; origin: "collection" | "monitor" };

async function execute({ principal, run, steps, scope, stopOnFailure, calls, lease }: { principal: Principal; run: { id: string; collectionId: string }; steps: Step[]; scope: VariableScope; stopOnFailure: boolean; calls: StepCalls; lease: { lost(): boolean } }): Promise<RunDto> {
  const runId = run.id;
  const counts = { passed: 0, failed: 0, errors: 0 };
  // The run as stored. A write that changed nothing means the run was reaped (its lease ran out): it is no longer ours.
  const stored = () => durably(() => getRun(principal, runId));
  for (const [index, step] of steps.entries()) {
    if (lease.lost() || !(await durably(() => q.updateRunStep({ runId, index, data: { status: "running" } })))) return stored();
    const stepSpan = startWorkSpan(`step ${index + 1} ${step.method}`, { "switchboard.run.id": runId, "switchboard.step.index": index, "mcp.method.name": step.method });
    const outcome = await stepSpan.run(() => runStep(principal, step, scope, calls));
    stepSpan.end(outcome.status, outcome.status !== "passed");
    if (outcome.interrupted) {
      await interruptRun({ runId, reason: outcome.error! });
      announce(principal.workspaceId, { ...run, status: "interrupted" }, null);
      return stored();
    }
    scope.steps.push({ id: step.id, result: outcome.result });
    const stepData = { status: outcome.status, callId: outcome.callId, durationMs: outcome.durationMs, error: outcome.error, assertions: JSON.stringify(outcome.assertions) };
    if (!(await durably(() => q.updateRunStep({ runId, index, data: stepData })))) return stored();
    if (outcome.status === "passed") counts.passed++;
    else if (outcome.status === "failed") counts.failed++;
    else counts.errors++;
    if (!(await durably(() => q.updateRun({ id: runId, data: { passed: counts.passed, failed: counts.failed + counts.errors } })))) return stored();
    announce(principal.workspaceId, { ...run, status: "running" }, index);
    if (stopOnFailure && outcome.status !== "passed") {
      await durably(() => q.skipRemainingSteps({ runId, from: index + 1 }));
      break;
    }
  }
  const status: RunStatus = counts.errors ? "error" : counts.failed ? "failed" : "passed";
  if (await durably(() => q.updateRun({ id: runId, data: { status, finishedAt: new Date() } }))) announce(principal.workspaceId, { ...run, status }, null);
  return stored();
}

const LIST_KINDS = { "tools/list": ["tools", "tools"], "resources/list": ["resources", "resources"], "resources/templates/list": ["resource-templates", "resourceTemplates"], "prompts/list": ["prompts", "prompts"] } as const;

/** A step without assertions passes when its call succeeds. */
const IMPLICIT: Assertion[] = [{ kind: "status", equals: "ok" }];

async function runStep(principal: Principal, step: Step, scope: VariableScope, calls: StepCalls): Promise<StepOutcome> {
  const errored = (error: string): StepOutcome => ({ status: "error", callId: null, durationMs: null, error, assertions: [], result: null });
  let serverId: string, name: string | undefined, uri: string | undefined, args: Record<string, unknown>;
  try {
    serverId = resolveServerId(step.serverId, scope);
    name = step.name === undefined ? undefined : String(interpolate(step.name, scope));
    uri = step.uri === undefined ? undefined : String(interpolate(step.uri, scope));
    args = (interpolate(step.arguments ?? {}, scope) ?? {}) as Record<string, unknown>;
  } catch (err) {
    return errored(err instanceof Error ? err.message : String(err));
  }
  const assertions = step.assert?.length ? step.assert : IMPLICIT;
  try {
    let call: CallUnderTest;
    let callId: string | null = null;
    if (step.method in LIST_KINDS) call = await listCall(principal, serverId, step.method as keyof typeof LIST_KINDS);
    else {
      const dto = await sendCall(principal, step, { serverId, name, uri, args, calls });
      callId = dto.id;
      // The console (its instance or its database) cut the call short: nothing the server said.
      if (dto.status === "interrupted") return { ...errored(callErrorMessage(dto.error) ?? "The call was interrupted"), callId, interrupted: true };
      call = { status: dto.status, isError: dto.isError, result: dto.result, error: dto.error, durationMs: dto.durationMs };
    }
    const outputSchema = step.method === "tools/call" && assertions.some((a) => a.kind === "schema" && !a.schema) ? await toolOutputSchema(principal, serverId, name!) : undefined;
    const lint = assertions.some((a) => a.kind === "lint") ? await lintOf(principal, serverId) : undefined;
    const outcomes = evaluate({ assertions, call, outputSchema, lint });
    const passed = outcomes.every((o) => o.passed);
    const error = call.status === "ok" ? null : callErrorMessage(call.error);
    return { status: passed ? "passed" : "failed", callId, durationMs: call.durationMs, error, assertions: outcomes, result: call.result };
  } catch (err) {
    const interruption = databaseInterruption(err);
    if (interruption) return { ...errored(interruption), interrupted: true };
    // A workspace rule refused the call (recorded as `denied`): the step fails, naming the rule.
    const refused = refusedCallId(err);
    if (refused) return { status: "failed", callId: refused, durationMs: 0, error: (err as Error).message, assertions: [], result: null };
    return errored(err instanceof Error ? err.message : String(err));
  }
}

/**
 * A list step as a call: its failure read by the one classifier and written as a call's error
 * (`toCallError`: status and kind), so it fails its assertions as a call step does. The console's
 * own database failing is thrown: the run is interrupted.
 */
async function listCall(principal: Principal, serverId: string, method: keyof typeof LIST_KINDS): Promise<CallUnderTest> {
  const [kind, key] = LIST_KINDS[method];
  const t0 = performance.now();
  const elapsed = () => Math.round((performance.now() - t0) * 1000) / 1000;
  try {
    const list = await listOffered(principal, serverId, kind);
    return { status: "ok", isError: false, result: { [key]: list }, error: null, durationMs: elapsed() };
  } catch (err) {
    if (isOwnDatabaseOutage(err)) throw err;
    const { status, error } = toCallError(classifyFailure(err));
    return { status, isError: false, result: null, error, durationMs: elapsed() };
  }
}

function sendCall(principal: Principal, step: Step, { serverId, name, uri, args, calls: { secrets, origin } }: { serverId: string; name?: string; uri?: string; args: Record<string, unknown>; calls: StepCalls }): Promise<CallDto> {
  if (step.method === "resources/read") return runCall(principal, { serverId, method: "resources/read", name: uri!, params: { uri: uri! }, origin, secrets });
  const method = step.method as "tools/call" | "prompts/get";
  return runCall(principal, { serverId, method, name: name!, params: { name: name!, arguments: args }, origin, secrets });
}

function callErrorMessage(error: unknown): string | null {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : null;
}

/** The tool's outputSchema from the live connection's (cached) tool list, as runCall reads it. */
async function toolOutputSchema(principal: Principal, serverId: string, name: string): Promise<Record<string, unknown> | undefined> {
  try {
    const { connection } = await getConnection(await getServerForCall(principal, serverId));
    return (await connection.tools()).find((t) => t.name === name)?.outputSchema;
  } catch {
    return undefined;
  }
}

/** The step's server's definitions linted now; the console's own database failing is thrown (the run is interrupted). */
async function lintOf(principal: Principal, serverId: string): Promise<LintUnderTest> {
  try {
    return await lintLive(principal, serverId);
  } catch (err) {
    if (isOwnDatabaseOutage(err)) throw err;
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export async function getRun(principal: Principal, id: string): Promise<RunDto> {
  const row = await q.findRun({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Run");
  return toRunDto(row);
}

export async function getRunJUnit(principal: Principal, id: string): Promise<string> {
  return toJUnit(await getRun(principal, id));
}

/** A monitor's runs, newest first, as `getRun` answers each. */
export async function listMonitorRuns(principal: Principal, monitorId: string, { limit = 50 }: { limit?: number } = {}): Promise<RunDto[]> {
  return (await q.listMonitorRuns({ workspaceId: principal.workspaceId, monitorId, limit })).map(toRunDto);
}

/** A collection's runs, newest first: of one origin, of any ("any"), or by default those people started. */
export async function listRuns(principal: Principal, collectionId: string, { origin, limit = 50 }: { origin?: RunOrigin | "any"; limit?: number } = {}): Promise<RunSummary[]> {
  const collection = await q.findCollection({ workspaceId: principal.workspaceId, id: collectionId });
  if (!collection) throw notFound("Collection");
  const origins = origin === "any" ? null : origin ? [origin] : RUN_ORIGINS.filter((o) => !AUTOMATIC_RUN_ORIGINS.includes(o));
  return (await q.listRuns({ workspaceId: principal.workspaceId, collectionId, origins, limit })).map(toRunSummary);
}
