"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useRunCall } from "@/lib/domains/calls/hooks";
import { CallErrorBox } from "./call-error-alert";
import { useRenderSource } from "./render-context";
import { ResourceContents } from "./resource-contents";
import { asRecord, asString, isHttpUrl } from "./safe-content";
import { RoleGate } from "@/components/ui/role-gate";

/** A resource_link block: "Read" sends resources/read through the API (a recorded call) and shows it inline. */
export function ResourceLinkBody({ link }: { link: Record<string, unknown> }) {
  const { serverId } = useRenderSource();
  const read = useRunCall();
  const uri = asString(link.uri) ?? "";
  const name = asString(link.title) ?? asString(link.name) ?? uri;
  const call = read.data;
  const contents = Array.isArray(asRecord(call?.result)?.contents) ? (asRecord(call?.result)!.contents as unknown[]) : [];

  return (
    <div className="flex flex-col gap-1.5 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{name}</span>
        {serverId && uri && (
          <RoleGate min="member">
          <Button size="sm" busy={read.isPending} onClick={() => read.mutate({ serverId, method: "resources/read", body: { uri } })}>
            {call ? "Read again" : "Read"}
          </Button>
          </RoleGate>
        )}
        {call && (
          <Link href={`/calls/${call.id}`} className="text-xs text-accent hover:underline">
            Open the read call
          </Link>
        )}
      </div>
      {isHttpUrl(uri) ? (
        <a href={uri} target="_blank" rel="noopener noreferrer nofollow" className="font-mono text-xs break-all text-accent underline">
          {uri}
        </a>
      ) : (
        <span className="font-mono text-xs break-all">{uri}</span>
      )}
      {asString(link.description) && <span className="text-xs text-muted">{asString(link.description)}</span>}
      <ErrorAlert error={read.error} title="Could not read the resource" />
      {call?.error && <CallErrorBox error={call.error} />}
      {call?.status === "ok" && (
        <ol aria-label={`Contents of ${uri}`} className="flex flex-col gap-2 rounded-md border p-2">
          {contents.length === 0 && <li className="text-xs text-muted">The resource has no contents.</li>}
          {contents.map((entry, i) => (
            <li key={i}>
              <ResourceContents contents={asRecord(entry) ?? {}} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
