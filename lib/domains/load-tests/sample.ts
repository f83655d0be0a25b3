import "server-only";
import type { Principal } from "@/lib/core/access";
import { beginHostCall, policyError, refuseHostCall, type HostCallOutcome } from "@/lib/domains/calls/server";
import { credentialUsed } from "@/lib/domains/server-oauth/server";
import { toCallError } from "@/lib/mcp/server";
import { serverFailure } from "@/lib/domains/sessions/server";
import { MAX_SAMPLE } from "./index";
import { listKind, type PlannedStep } from "./plan";

type Handle = Awaited<ReturnType<typeof beginHostCall>>;
export type Ended = { status: "ok" | "error"; result: Record<string, unknown> } | { status: "error"; kind: string; err: unknown };

/**
 * The few calls of a load test history keeps (origin `load-test`), through the one journal: the
 * first call of each step, recorded before it is sent, and the first call to fail in each way,
 * recorded once it failed (its recorded duration is the journal's, not the call's). The rest are
 * only counted.
 */
export class Sampler {
  readonly ids: string[] = [];
  private readonly stepsTaken = new Set<number>();
  private readonly kindsTaken = new Set<string>();
  private readonly writes = new Set<Promise<unknown>>();
  private full = false;

  constructor(
    private readonly principal: Principal,
    steps: readonly PlannedStep[],
  ) {
    // A list step is no call of history's: never sampled.
    for (const s of steps) if (listKind(s.method)) this.stepsTaken.add(s.index);
  }

  private room(): boolean {
    return !this.full && this.ids.length < MAX_SAMPLE;
  }

  private async asked(step: PlannedStep) {
    return {
      server: step.server,
      userId: this.principal.userId,
      userName: this.principal.userName,
      method: step.method as "tools/call",
      name: step.name,
      params: step.params,
      origin: "load-test" as const,
      client: null,
      credential: await credentialUsed(step.server),
    };
  }

  private async begin(step: PlannedStep): Promise<Handle | null> {
    try {
      const handle = await beginHostCall(await this.asked(step));
      this.ids.push(handle.id);
      return handle;
    } catch {
      // History is full (the workspace's call quota) or the database is away: counted, not kept.
      this.full = true;
      return null;
    }
  }

  /** The step's first call: recorded now, before it is sent; null for the calls that are only counted. */
  before(step: PlannedStep): Promise<Handle | null> {
    if (this.stepsTaken.has(step.index) || !this.room()) return Promise.resolve(null);
    this.stepsTaken.add(step.index);
    return this.begin(step);
  }

  /** A call ended: its sampled row completed, or, the first failure of its kind, recorded now. */
  async after(step: PlannedStep, handle: Handle | null, ended: Ended): Promise<void> {
    const kind = "kind" in ended ? ended.kind : ended.status === "error" ? "tool_error" : null;
    if (!handle && kind && !this.kindsTaken.has(kind) && this.room() && !listKind(step.method)) {
      this.kindsTaken.add(kind);
      handle = await this.begin(step);
    }
    if (!handle) return;
    if (kind) this.kindsTaken.add(kind);
    const outcome: HostCallOutcome = "result" in ended ? { result: ended.result } : (toCallError(serverFailure(step.server, ended.err)) as HostCallOutcome);
    await handle.finish(outcome).catch(() => undefined);
  }

  /** A call the rules refused (never sent): the first is recorded `denied`, naming the rule. */
  refused(step: PlannedStep): void {
    if (this.kindsTaken.has("policy") || !this.room() || !step.decision) return;
    this.kindsTaken.add("policy");
    const write = this.asked(step)
      .then((asked) => refuseHostCall({ ...asked, policyRuleId: step.decision!.rule?.id ?? null }, policyError(step.decision!)))
      .then((id) => void this.ids.push(id))
      .catch(() => undefined);
    this.writes.add(write);
  }

  /** Every sample write started has landed (or failed). */
  async settled(): Promise<void> {
    await Promise.all(this.writes);
  }
}
