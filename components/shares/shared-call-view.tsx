"use client";

import { useMemo, type ReactNode } from "react";
import { JsonTree } from "@/components/ui/json-tree";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { formatBytes, formatDuration, formatTime } from "@/components/calls/format";
import { RenderContext } from "@/components/calls/render-context";
import { ResultView } from "@/components/calls/result-view";
import type { CallDto } from "@/lib/domains/calls";
import type { SharedCall } from "@/lib/domains/shares";

/** The result components take a CallDto; a shared call has no ids, so they are left empty. */
function asCallDto(call: SharedCall): CallDto {
  return {
    id: "",
    serverId: "",
    serverName: call.server.name,
    sessionId: null,
    client: null,
    userId: null,
    userName: null,
    method: call.method,
    name: call.name,
    params: call.params,
    result: call.result,
    error: call.error,
    status: call.status,
    isError: call.isError,
    requestId: "",
    traceId: "",
    traceUrl: null,
    rerunOfId: null,
    origin: call.origin,
    sentInvalid: false,
    parentCallId: null,
    credential: null,
    startedAt: call.startedAt,
    finishedAt: call.finishedAt,
    durationMs: call.durationMs,
    requestSize: call.requestSize,
    resultSize: call.resultSize,
    progress: null,
    task: null,
    serverArchivedAt: null,
    tags: [],
    starred: false,
    noteCount: 0,
    timing: null,
    policyRuleId: null,
    virtualServer: null,
  };
}

/** `params.arguments.list[0].token` → `/arguments/list/0/token` (inside params); null for other roots. */
function paramsPointer(path: string): string | null {
  const inParams = path.split("(json)")[0]!;
  if (!inParams.startsWith("params.")) return null;
  const segments = inParams.slice("params.".length).replace(/\[(\d+)\]/g, ".$1").split(".");
  return segments.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/**
 * A call shown read-only, the same way on the public page and in the sharer's preview: server,
 * tool, status and timings, the arguments, and the result through the console's own result
 * components with actions and apps off. `masked` highlights what redaction replaced.
 */
export function SharedCallView({ call, masked, footer }: { call: SharedCall; masked?: string[]; footer?: ReactNode }) {
  const dto = useMemo(() => asCallDto(call), [call]);
  const marks = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const path of masked ?? []) {
      const pointer = paramsPointer(path);
      if (pointer !== null) map.set(pointer, ["masked"]);
    }
    return map;
  }, [masked]);
  const rows: [string, ReactNode][] = [
    ["Server", call.server.name],
    serverWhere(call.server),
    ["Method", call.method],
    ["Name", call.name],
    ["Started", formatTime(call.startedAt)],
    ["Finished", formatTime(call.finishedAt)],
    ["Duration", formatDuration(call.durationMs)],
    ["Sizes", `${formatBytes(call.requestSize)} sent · ${formatBytes(call.resultSize)} received`],
  ];

  return (
    <RenderContext value={{ readOnly: true }}>
      <div className="flex flex-col gap-5" data-testid="shared-call">
        <div className="min-w-0">
          <p className="font-mono text-xs text-muted">
            {call.method} · {call.server.name}
          </p>
          <h1 className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <span className="truncate font-mono">{call.name}</span>
            <CallStatusBadge status={call.status} isError={call.isError} testId="shared-call-status" />
          </h1>
        </div>
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <section aria-label="Details" className="flex flex-col gap-2">
            <h2 className="text-sm font-semibold">Details</h2>
            <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs">
              {rows.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-muted">{label}</dt>
                  <dd className="font-mono break-all">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-label="Request" className="flex min-w-0 flex-col gap-2">
            <h2 className="text-sm font-semibold">Request</h2>
            <div className="max-h-80 overflow-auto rounded-md border p-2">
              <JsonTree value={call.params} label="Params" marks={marks} markTone="notice" />
            </div>
          </section>
        </div>
        <ResultView call={dto} outputSchema={null} showPermalink={false} />
        {footer}
      </div>
    </RenderContext>
  );
}

/** Where the call's server runs, said truly for each kind of server. */
export function serverWhere(server: SharedCall["server"]): [string, string] {
  switch (server.kind) {
    case "demo":
      return ["Runs", "inside Switchboard: its built-in demo server (nothing spawned, no network)"];
    case "agent":
    case "stdio":
      return ["Runs", "on a teammate's machine as a local (stdio) server, reached through the Switchboard agent"];
    default:
      return ["Server URL", server.url ?? "—"];
  }
}
