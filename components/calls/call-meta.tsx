import Link from "next/link";
import type { ReactNode } from "react";
import type { CallCredential, CallDto } from "@/lib/domains/calls";
import { formatBytes, formatDuration, formatTime } from "./format";

/** Who ran the call, when, and the ids that tie it to logs and traces. */
export function CallMeta({ call }: { call: CallDto }) {
  const rows: [string, ReactNode][] = [
    [
      "Server",
      <Link key="s" href={`/servers/${call.serverId}`} className="text-accent hover:underline">
        {call.serverName ?? call.serverId}
        {call.serverArchivedAt && " (archived)"}
      </Link>,
    ],
    ["Method", <code key="m">{call.method}</code>],
    ["Name", <code key="n">{call.name}</code>],
    ["Run by", call.userName ?? "API token"],
    ...(call.credential ? [["Signed in as", credentialText(call.credential)] as [string, ReactNode]] : []),
    ["Started", formatTime(call.startedAt)],
    ["Finished", formatTime(call.finishedAt)],
    ["Duration", formatDuration(call.durationMs)],
    ["Sizes", `${formatBytes(call.requestSize)} sent · ${formatBytes(call.resultSize)} received`],
    ["Request id", <code key="r">{call.requestId}</code>],
    [
      "Trace id",
      call.traceUrl ? (
        <a key="t" href={call.traceUrl} target="_blank" rel="noopener noreferrer" className="text-accent hover:underline" data-testid="call-trace-link">
          <code>{call.traceId}</code>
        </a>
      ) : (
        <code key="t">{call.traceId}</code>
      ),
    ],
    ["Session", call.sessionId ? <code key="se">{call.sessionId}</code> : "—"],
  ];
  if (call.origin !== "user") rows.push(["Origin", call.origin]);
  if (call.client) rows.push(["MCP host", <span key="h" data-testid="call-client">{call.client}</span>]);
  if (call.virtualServer) rows.push(["Through", <span key="v" data-testid="call-virtual-server">via {call.virtualServer} (a virtual server)</span>]);
  if (call.sentInvalid) rows.push(["Arguments", <span key="si" data-testid="call-sent-invalid">sent anyway: they failed the tool&apos;s input schema</span>]);
  if (call.parentCallId) {
    rows.push([
      "Made from",
      <Link key="p" href={`/calls/${call.parentCallId}`} className="text-accent hover:underline">
        {call.parentCallId}
      </Link>,
    ]);
  }
  if (call.rerunOfId) {
    rows.push([
      "Rerun of",
      <Link key="o" href={`/calls/${call.rerunOfId}`} className="text-accent hover:underline">
        {call.rerunOfId}
      </Link>,
    ]);
  }
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="truncate font-mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Whose OAuth identity the server saw. */
function credentialText(credential: CallCredential): string {
  if (credential.mode === "machine") return `Machine credentials (client ${credential.userName ?? "?"})`;
  const who = credential.userName ?? "a former member";
  return credential.mode === "shared" ? `Workspace shared credential (signed in by ${who})` : `${who} (own sign-in)`;
}
