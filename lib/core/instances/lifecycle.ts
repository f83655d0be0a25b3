import os from "node:os";
import { heartbeatMs, instanceId } from "./index";
import * as q from "./queries";

// Run by lib/start, outside Next's bundles: nothing here may import "server-only".

/** An instance of this machine whose process is gone (or whose pid is now ours: a restarted container). */
function exitedHere(instance: { host: string; pid: number }): boolean {
  if (instance.host !== os.hostname()) return false;
  if (instance.pid === process.pid) return true;
  try {
    process.kill(instance.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

const FULL_REAP_EVERY = 12;

/**
 * What an instance's coming and going does to call rows, written by the call journal
 * (lib/domains/calls/journal.ts `instanceCalls`): handed in, since lib/domains/calls depends on this domain.
 */
interface InstanceCalls {
  /** Pending calls (not task calls) of instances not in `alive` marked interrupted; how many. */
  interruptOrphans(alive: string[]): Promise<number>;
  /** This instance's own pending calls marked interrupted, at a graceful stop; how many. */
  interruptOwn(id: string): Promise<number>;
  /** Pending task calls of instances not in `alive` taken over by `me`; their ids. */
  claimTaskCalls(alive: string[], me: string): Promise<string[]>;
}

/** What an instance's coming and going does to collection runs, written by lib/domains/collections (`instanceRuns`). */
interface InstanceRuns {
  /** Running runs of instances not in `alive` ended interrupted; how many. */
  interruptOrphans(alive: string[]): Promise<number>;
  /** This instance's running runs ended interrupted, at a graceful stop; how many. */
  interruptOwn(id: string): Promise<number>;
}

/** What it does to gateway connections, written by lib/gateway (`instanceConnections`). */
interface InstanceConnections {
  endOrphans(alive: string[]): Promise<void>;
  endOwn(id: string): Promise<void>;
}

interface RunningInstance {
  id: string;
  /** One heartbeat, then a reap if the set of instances changed (the `instances.heartbeat` job, lib/start/jobs.ts). */
  beat(): Promise<void>;
  /** Marks this instance's calls still pending as interrupted and removes its row. */
  stop(): Promise<number>;
}

/**
 * Registers this process, then beats and reaps: when an instance went, calls left pending by an instance
 * that stopped beating (or by a console from before instances existed) are marked interrupted,
 * by whichever instance notices first. Never another live instance's calls.
 */
export async function startInstance({
  calls,
  runs: instanceRuns,
  connections,
  followTasks,
  log = console.log,
  onGone = () => undefined,
}: {
  calls: InstanceCalls;
  runs: InstanceRuns;
  connections: InstanceConnections;
  /** Follows task calls this instance took over (lib/domains/calls). */
  followTasks: (callIds: string[]) => void;
  log?: (line: string) => void;
  onGone?: (ids: string[]) => void;
}): Promise<RunningInstance> {
  const id = instanceId();
  const interval = heartbeatMs();
  const lease = 3 * interval;
  const me = { id, host: os.hostname(), pid: process.pid };
  await q.beat(me);
  // When this instance's own beats failed or stalled, the others' most likely did too (a database
  // outage, a paused host): no old heartbeat is taken for a death until this instance has beaten
  // on time for a whole lease again. Durations on this process's monotonic clock only.
  let trustedFrom: number | null = -Infinity;
  let lastBeat = performance.now();
  // Orphans appear only when an instance goes: the sweeping statements run when the set of
  // instances changed, and every FULL_REAP_EVERY beats anyway (each costs a few Prisma queries).
  let seen = "";
  let beats = 0;
  const reap = async () => {
    const judging = trustedFrom !== null && performance.now() - trustedFrom >= lease;
    const all = await q.findInstances();
    const gone = all.filter((i) => i.id !== id && ((judging && i.ageMs > lease) || exitedHere(i))).map((i) => i.id);
    const alive = all.map((i) => i.id).filter((i) => !gone.includes(i));
    const now = alive.sort().join(" ");
    if (!gone.length && now === seen && ++beats % FULL_REAP_EVERY !== 0) return;
    seen = now;
    const living = alive.includes(id) ? alive : [...alive, id];
    const count = await calls.interruptOrphans(living);
    await connections.endOrphans(living);
    const runs = await instanceRuns.interruptOrphans(living);
    if (runs) log(`${runs} collection run(s) of a stopped console instance marked interrupted`);
    const tasks = await calls.claimTaskCalls(living, id);
    if (tasks.length) {
      followTasks(tasks);
      log(`${tasks.length} task call(s) of a stopped console instance followed here`);
    }
    if (gone.length) {
      await q.deleteInstances({ ids: gone });
      onGone(gone);
    }
    if (count) log(`${count} call(s) left pending by a stopped console instance marked interrupted`);
  };
  await reap();
  const beat = async () => {
    try {
      await q.beat(me);
    } catch (err) {
      trustedFrom = null;
      throw err;
    }
    const at = performance.now();
    if (trustedFrom === null || at - lastBeat > 2 * interval) trustedFrom = at;
    lastBeat = at;
    await reap();
  };
  return {
    id,
    beat,
    async stop() {
      const count = await calls.interruptOwn(id);
      await connections.endOwn(id).catch(() => undefined);
      await instanceRuns.interruptOwn(id).catch(() => undefined);
      await q.deleteInstances({ ids: [id] });
      return count;
    },
  };
}
