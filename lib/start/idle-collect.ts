import v8 from "node:v8";
import vm from "node:vm";

const CHECK_MS = 2_500;

export interface IdleCollector {
  /** A request arrived. */
  touch(): void;
  stop(): void;
}

/**
 * Under load V8 grows its heap to a multiple of what is live and gives it back only when its
 * own memory reducer runs, which after a load that simply stops can take minutes (bench/memory.ts).
 * So once the console has served requests and then been quiet for `quietMs`, one full collection
 * runs: the heap shrinks to what is live and RSS returns near its level before the load. Once per
 * busy spell, never while requests arrive. SWITCHBOARD_IDLE_GC_MS (0: off) sets the quiet time.
 */
export function startIdleCollector({ quietMs, collect = exposedGc(), now = Date.now, schedule = setInterval }: {
  quietMs: number;
  collect?: () => void;
  now?: () => number;
  schedule?: (fn: () => void, ms: number) => { unref?(): unknown } | number;
}): IdleCollector {
  let lastRequest = 0;
  let busy = false;
  const timer = quietMs > 0 ? schedule(check, Math.min(CHECK_MS, quietMs)) : null;
  if (timer && typeof timer === "object") timer.unref?.();

  function check() {
    if (!busy || now() - lastRequest < quietMs) return;
    busy = false;
    collect();
  }

  return {
    touch() {
      lastRequest = now();
      busy = true;
    },
    stop() {
      if (timer !== null) clearInterval(timer as NodeJS.Timeout);
    },
  };
}

// Node offers the collector's entry point only behind a flag; a context made after setting it has `gc`.
export function exposedGc(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}
