import "server-only";
import { insertTraffic, type TrafficRow } from "./queries";
import { piece } from "@/lib/core/runtime";

const FLUSH_DELAY_MS = 200;
const FLUSH_SIZE = 500;

interface TrafficWriter {
  queue: TrafficRow[];
  timer: NodeJS.Timeout | null;
  writing: Promise<void>;
}

// In the process runtime: the sink is created in whichever module graph opened the session.
const writer = () => piece("trafficWriter", (): TrafficWriter => ({ queue: [], timer: null, writing: Promise.resolve() }));

/**
 * Queues a recorded message. Never waits and never throws: rows are written in batches off the
 * call path (every 200 ms or 500 rows), one batch at a time, in arrival order.
 */
export function enqueueTraffic(row: TrafficRow): void {
  writer().queue.push(row);
  if (writer().queue.length >= FLUSH_SIZE) void flushTraffic();
  else writer().timer ??= setTimeout(() => void flushTraffic(), FLUSH_DELAY_MS).unref();
}

/** Writes everything queued so far; resolves when it is in the database (reads call this first). */
export function flushTraffic(): Promise<void> {
  const state = writer();
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const batch = writer().queue.splice(0);
  if (batch.length > 0) {
    writer().writing = writer().writing.then(() =>
      insertTraffic(batch).then(
        () => undefined,
        // A session deleted meanwhile (cascade) or a full disk: the trace is best effort, the call is not.
        (err: unknown) => console.error(`traffic: dropped ${batch.length} messages:`, err instanceof Error ? err.message : err),
      ),
    );
  }
  return writer().writing;
}
