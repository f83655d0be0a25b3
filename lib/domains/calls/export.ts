import "server-only";
import { CSV_COLUMNS, csvRow, type CallDto, type ExportCallsQuery } from "./index";
import { toCallDto } from "./dto";
import * as q from "./queries";

const PAGE_ROWS = 500;
// Bodies are read in batches of about this many bytes, so a page of 10 MB results never sits in memory at once.
const BATCH_BYTES = 8 * 1024 * 1024;

type MetaRow = Awaited<ReturnType<typeof q.listCallsAfter>>[number];

/**
 * The workspace's calls matching the history filters, newest first, as NDJSON (one call per
 * line, params and result included, the shape of GET /api/v1/calls/:id) or CSV. The stream pulls
 * one batch at a time when its reader wants more, so an export of a million rows never loads them.
 */
export function exportCallsStream({ workspaceId, userId }: { workspaceId: string; userId: string }, query: ExportCallsQuery): ReadableStream<Uint8Array> {
  const { format, ...filters } = query;
  const encoder = new TextEncoder();
  let after: { startedAt: Date; id: string } | null = null;
  let pending: MetaRow[] = [];
  let exhausted = false;
  let headerSent = format !== "csv";

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          return controller.enqueue(encoder.encode(csvRow([...CSV_COLUMNS])));
        }
        if (!pending.length && !exhausted) {
          pending = await q.listCallsAfter({ workspaceId, userId, query: filters, after, limit: PAGE_ROWS });
          exhausted = pending.length < PAGE_ROWS;
          const last = pending[pending.length - 1];
          if (last) after = { startedAt: last.startedAt, id: last.id };
        }
        if (!pending.length) return controller.close();
        const batch = takeBatch(pending, format === "csv");
        const calls = await withBodies(batch, format === "csv");
        const text = calls.map((call) => (format === "csv" ? csvLine(call) : `${JSON.stringify(call)}\n`)).join("");
        controller.enqueue(encoder.encode(text));
      },
    },
    { highWaterMark: 1 },
  );
}

/** Takes rows off the front of `pending` until their bodies add up to BATCH_BYTES (at least one row). */
function takeBatch(pending: MetaRow[], paramsOnly: boolean): MetaRow[] {
  let bytes = 0;
  let n = 0;
  while (n < pending.length) {
    const row = pending[n]!;
    bytes += row.requestSize + (paramsOnly && !row.isError ? 0 : (row.resultSize ?? 0));
    if (n > 0 && bytes > BATCH_BYTES) break;
    n++;
  }
  return pending.splice(0, n);
}

async function withBodies(rows: MetaRow[], paramsOnly: boolean): Promise<CallDto[]> {
  const bodies = new Map((await q.callBodies({ ids: rows.map((r) => r.id), result: !paramsOnly })).map((b) => [b.id, b]));
  // A CSV leaves results out, but the error column of a tool result marked isError is its text.
  const erred = paramsOnly ? rows.filter((r) => r.isError).map((r) => r.id) : [];
  const errorResults = new Map(erred.length ? (await q.callBodies({ ids: erred, result: true })).map((b) => [b.id, b.result]) : []);
  return rows.map((row) => {
    const body = bodies.get(row.id);
    return toCallDto({ ...row, params: body?.params ?? "null", result: paramsOnly ? (errorResults.get(row.id) ?? null) : (body?.result ?? null) });
  });
}

function csvLine(call: CallDto): string {
  const args = (call.params as { arguments?: unknown } | null)?.arguments;
  return csvRow([
    call.id,
    call.startedAt,
    call.serverName ?? call.serverId,
    call.method,
    call.name,
    call.status,
    call.durationMs,
    call.userName ?? "",
    call.origin,
    args === undefined ? "" : JSON.stringify(args),
    call.error?.message ?? (call.isError ? toolErrorText(call.result) : ""),
  ]);
}

/** A tool result marked isError, in words: its text blocks, or a plain statement when it has none. */
function toolErrorText(result: unknown): string {
  const content = (result as { content?: { type?: unknown; text?: unknown }[] } | null)?.content;
  const texts = Array.isArray(content) ? content.filter((c) => c?.type === "text" && typeof c.text === "string").map((c) => c.text as string) : [];
  return texts.length ? texts.join("\n") : "The tool reported an error";
}

/** `calls-20261123-141500.ndjson`: the export's file name, stamped with the time it was made. */
export function exportFileName(format: ExportCallsQuery["format"], now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `calls-${stamp}.${format}`;
}
