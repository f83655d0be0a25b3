import { isDatabaseOutage } from "@/lib/core/db/client";
import * as claims from "./claims";

export { finishClaim, insertClaim, pruneClaims } from "./claims";

// Loaded by lib/start, outside Next's bundles: nothing here may import "server-only".

/** What a job runs for, once across instances: a key ("" for the whole job) at a due time. */
export interface WorkItem {
  key: string;
  dueAt: Date;
}

interface JobBase {
  name: string;
  /** Every how long (0 or less: the job is off). */
  everyMs: number;
  /** The variable that sets `everyMs`, listed in docs/architecture.md's table of jobs. */
  variable: string | null;
  /** What the job did, for the log line (nothing logged when it returns nothing). */
  run(input: { key: string; dueAt: Date; signal: AbortSignal }): Promise<string | void>;
}

/** Local upkeep: every instance runs it for itself (sweepers, SQLite's optimize). */
export interface EachInstanceJob extends JobBase {
  discipline: "each-instance";
  /** Runs once at start too (else first after `everyMs`). */
  atStart?: boolean;
}

/**
 * Runs once per due time across instances: each item is claimed in job_claim (the instance that
 * inserts the row runs it). A claim whose instance stopped renewing it unfinished is taken over,
 * unless `takeOver` is false (a delivery an instance may have half sent is never sent twice).
 */
export interface ClaimedJob extends JobBase {
  discipline: "claimed";
  /** The items due now: by default the job itself at the current due time (multiples of `everyMs` since 1970). */
  work?(dueAt: Date): Promise<WorkItem[]> | WorkItem[];
  takeOver?: boolean;
}

export type Job = EachInstanceJob | ClaimedJob;

export interface Scheduler {
  /** Stops every job: no new run; runs in flight are told to stop and awaited, their claims handed back. */
  stop(): Promise<void>;
  /** Runs an each-instance job now, as its timer would (tests, and a stop's last flush). */
  runNow(name: string): Promise<void>;
}

export interface SchedulerOptions {
  jobs: Job[];
  instanceId: string;
  /** How long a claim holds without renewal (renewed every third of it while its run goes on). */
  leaseMs: number;
  /** How often claimed jobs look for due items they have not seen done (at most `everyMs`). */
  pollMs: number;
  log?: (line: string) => void;
}

/** The current due time of a job that runs every `everyMs`. */
export function dueAt(everyMs: number, now = Date.now()): Date {
  return new Date(Math.floor(now / everyMs) * everyMs);
}

/**
 * The one scheduler of background work (lib/start starts it with the list in lib/start/jobs.ts).
 * Runs of one job never overlap on an instance, and each log line reads
 * `[jobs] <job>[ <key>] <due>: <what it did | failed: why> (<ms> ms)`.
 */
export function startScheduler({ jobs, instanceId, leaseMs, pollMs, log = console.log }: SchedulerOptions): Scheduler {
  const stopping = new AbortController();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => (running.add(p), void p.finally(() => running.delete(p)), p);

  const logRun = (job: Job, item: WorkItem, started: number, outcome: string | void) => {
    if (outcome) log(`[jobs] ${job.name}${item.key ? ` ${item.key}` : ""} ${item.dueAt.toISOString()}: ${outcome} (${Date.now() - started} ms)`);
  };
  const failure = (err: unknown) => `failed: ${err instanceof Error ? err.message : String(err)}`;

  const runEach = async (job: EachInstanceJob) => {
    const item = { key: "", dueAt: new Date() };
    const started = Date.now();
    try {
      logRun(job, item, started, await job.run({ ...item, signal: stopping.signal }));
    } catch (err) {
      logRun(job, item, started, failure(err));
    }
  };

  const runClaimed = async (job: ClaimedJob, claim: claims.ClaimKey) => {
    const renew = setInterval(() => void claims.renewClaim({ claim, instanceId, leaseMs }).catch(() => undefined), Math.max(leaseMs / 3, 50));
    const started = Date.now();
    let outcome: string | void;
    try {
      outcome = await job.run({ key: claim.key, dueAt: claim.dueAt, signal: stopping.signal });
    } catch (err) {
      outcome = failure(err);
    } finally {
      clearInterval(renew);
    }
    logRun(job, claim, started, outcome);
    // A run cut short by a stop is handed back for another instance to take over.
    // A finish that cannot be written (the database went away) leaves the claim unfinished: its run happened.
    if (stopping.signal.aborted && job.takeOver !== false) await claims.releaseClaim({ claim, instanceId }).catch(() => undefined);
    else await claims.finishClaim({ claim, instanceId, outcome: outcome?.startsWith("failed: ") ? outcome : "ok" }).catch(() => undefined);
  };

  /** Items of a claimed job seen finished (or run here), by "key\ndue": no query until something new is due. */
  const settled = new Map<string, Set<string>>();
  const pollClaimed = async (job: ClaimedJob) => {
    const items = job.work ? await job.work(dueAt(job.everyMs)) : [{ key: "", dueAt: dueAt(job.everyMs) }];
    const seen = settled.get(job.name) ?? new Set<string>();
    const id = (i: WorkItem) => `${i.key}\n${i.dueAt.getTime()}`;
    const open = items.filter((i) => !seen.has(id(i)));
    // Forget what is no longer due (bounded by the items due now).
    settled.set(job.name, new Set(items.map(id).filter((k) => seen.has(k))));
    if (!open.length) return;
    const dueAts = [...new Map(open.map((i) => [i.dueAt.getTime(), i.dueAt])).values()];
    const rows = new Map((await claims.claimsAt({ job: job.name, dueAts })).map((r) => [id(r), r]));
    const now = Date.now();
    for (const item of open) {
      if (stopping.signal.aborted) return;
      const claim = { job: job.name, ...item };
      const row = rows.get(id(item));
      if (row?.finishedAt || (row && job.takeOver === false)) {
        settled.get(job.name)!.add(id(item));
        continue;
      }
      const mine = row ? row.leaseUntil.getTime() < now && (await claims.takeOverClaim({ claim, instanceId, leaseMs })) : await claims.insertClaim({ claim, instanceId, leaseMs });
      if (!mine) continue;
      if (row) log(`[jobs] ${job.name}${item.key ? ` ${item.key}` : ""} ${item.dueAt.toISOString()}: taken over from instance ${row.instanceId}`);
      settled.get(job.name)!.add(id(item));
      await runClaimed(job, claim);
    }
  };

  const every = (job: Job, ms: number, tick: () => Promise<void>, atStart: boolean) => {
    const schedule = (delay: number) => {
      if (stopping.signal.aborted) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void track(tick()).finally(() => schedule(ms));
      }, delay);
      timer.unref();
      timers.add(timer);
    };
    schedule(atStart ? 0 : ms);
  };

  const byName = new Map(jobs.map((job) => [job.name, job]));
  for (const job of jobs) {
    if (!(job.everyMs > 0)) continue;
    if (job.discipline === "each-instance") every(job, job.everyMs, () => runEach(job), job.atStart === true);
    else {
      // An outage is logged when it begins and when it ends, not at every poll; the items stay due meanwhile.
      let unreachable = false;
      const poll = () =>
        pollClaimed(job).then(
          () => {
            if (unreachable) log(`[jobs] ${job.name}: the database is back`);
            unreachable = false;
          },
          (err: unknown) => {
            const outage = isDatabaseOutage(err);
            if (!outage || !unreachable) log(`[jobs] ${job.name}: ${outage ? "the database is unreachable; will retry" : failure(err)}`);
            unreachable = outage;
          },
        );
      every(job, Math.min(job.everyMs, pollMs), poll, true);
    }
  }

  return {
    async stop() {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
    async runNow(name) {
      const job = byName.get(name);
      if (job?.discipline === "each-instance") await runEach(job);
      else if (job) await pollClaimed(job);
    },
  };
}
