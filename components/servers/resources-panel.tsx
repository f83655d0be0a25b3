"use client";

import { useState } from "react";
import { useSearchParams } from "next/navigation";
import { formatBytes } from "@/components/calls/format";
import { Badge } from "@/components/ui/badge";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useResourceSubscriptions, useResourceUpdatedAt, useToggleResourceSubscription } from "@/lib/domains/resources/hooks";
import { useCapability, useServer, type McpResource } from "@/lib/domains/servers/hooks";
import { MasterDetail, matches } from "./master-detail";
import { ReadResource } from "./read-resource";
import { RoleGate } from "@/components/ui/role-gate";

export function ResourcesPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const resources = useCapability(serverId, "resources", enabled);
  const caps = useServer(serverId).data?.session?.capabilities as { resources?: { subscribe?: boolean } } | null | undefined;
  const canSubscribe = caps?.resources?.subscribe === true;
  const subscriptions = useResourceSubscriptions(serverId, enabled && canSubscribe);
  const subscribed = subscriptions.data?.uris ?? [];
  const [filter, setFilter] = useState("");
  // ?resource=<uri> (from the command palette) opens that resource.
  const [selected, setSelected] = useState<string | null>(useSearchParams().get("resource"));
  const all = resources.data ?? [];
  const visible = all.filter((r) => matches(filter, r.uri, r.name, r.title, r.description));
  const current = all.find((r) => r.uri === selected) ?? (selected === null ? visible[0] : undefined);

  return (
    <MasterDetail
      noun="resources"
      entries={visible.map((r) => ({
        key: r.uri,
        primary: r.title ?? r.name ?? r.uri,
        secondary: r.uri,
        badges: subscribed.includes(r.uri) ? <Badge tone="blue">subscribed</Badge> : undefined,
      }))}
      total={all.length}
      isLoading={enabled && resources.isPending}
      error={resources.error}
      filter={filter}
      onFilterChange={setFilter}
      selectedKey={current?.uri ?? null}
      onSelect={setSelected}
      emptyText="This server lists no resources."
      detail={
        current ? (
          <ResourceDetail
            key={current.uri}
            serverId={serverId}
            resource={current}
            defaultTimeoutMs={defaultTimeoutMs}
            canSubscribe={canSubscribe}
            subscribed={subscribed.includes(current.uri)}
          />
        ) : null
      }
    />
  );
}

interface ResourceDetailProps {
  serverId: string;
  resource: McpResource;
  defaultTimeoutMs?: number;
  canSubscribe: boolean;
  subscribed: boolean;
}

function ResourceDetail({ serverId, resource, defaultTimeoutMs, canSubscribe, subscribed }: ResourceDetailProps) {
  const toggle = useToggleResourceSubscription(serverId);
  // What this person last asked for: subscribed but no longer listed means the session dropped it.
  const [wanted, setWanted] = useState(false);
  const dropped = wanted && !subscribed && !toggle.isPending;
  const updatedAt = useResourceUpdatedAt(serverId, resource.uri);
  return (
    <article aria-label={`Resource ${resource.name ?? resource.uri}`} className="flex flex-col gap-3">
      <header className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{resource.title ?? resource.name ?? resource.uri}</h2>
          {canSubscribe && (
            <RoleGate min="member">
            <Button
              size="sm"
              busy={toggle.isPending}
              onClick={() => toggle.mutate({ uri: resource.uri, subscribed: !subscribed }, { onSuccess: () => setWanted(!subscribed) })}
              title={subscribed ? "Stop live updates for this resource" : "Get live updates (resources/subscribe) and re-read on each change"}
            >
              {subscribed ? "Unsubscribe" : "Subscribe"}
            </Button>
            </RoleGate>
          )}
          {subscribed && <Badge tone="blue">live</Badge>}
          {updatedAt && (
            <span role="status" className="text-xs text-muted" data-testid="resource-updated-at">
              Updated at <time dateTime={updatedAt}>{new Date(updatedAt).toLocaleTimeString()}</time>
            </span>
          )}
        </div>
        <code className="font-mono text-xs break-all text-muted">{resource.uri}</code>
        <p className="flex gap-3 text-xs text-muted">
          {resource.mimeType && <span>{resource.mimeType}</span>}
          {typeof resource.size === "number" && <span>{formatBytes(resource.size)}</span>}
        </p>
        {resource.description && <p className="max-w-3xl text-sm whitespace-pre-wrap">{resource.description}</p>}
      </header>
      {toggle.error && <ErrorAlert error={toggle.error} />}
      {dropped && (
        <Alert tone="warning" title="Subscription ended">
          The session that held this subscription ended. Subscribe again to get updates on the new session.
        </Alert>
      )}
      <ReadResource serverId={serverId} uri={resource.uri} defaultTimeoutMs={defaultTimeoutMs} rereadOn={subscribed ? updatedAt : undefined} />
    </article>
  );
}
