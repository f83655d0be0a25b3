"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Tabs } from "@/components/ui/tabs";
import { formatTime } from "@/components/calls/format";
import { useCan } from "@/lib/identity/auth/hooks";
import { hostConfigs, type ExposureDto, type HostId } from "@/lib/gateway";
import { useConnectedClients, useDisconnectClient, useExposure, useSetExposure } from "@/lib/gateway/hooks";
import type { ServerDto } from "@/lib/domains/servers";
import { useCapability } from "@/lib/domains/servers/hooks";
import { Cell, Row, Table } from "@/components/ui/table";

/** A server's Gateway tab: offer it to other MCP hosts, how to connect them, who is connected. */
export function GatewayPanel({ server }: { server: ServerDto }) {
  const exposure = useExposure(server.id);
  if (exposure.isPending) return <Skeleton className="m-6 h-40" />;
  if (exposure.error) return <ErrorAlert className="m-6" error={exposure.error} title="Could not load the gateway settings" />;
  const url = typeof window === "undefined" ? exposure.data.path : `${window.location.origin}${exposure.data.path}`;
  return (
    <div className="flex max-w-4xl flex-col gap-6 p-4 sm:p-6">
      <ExposureForm key={exposure.data.updatedAt ?? "new"} server={server} exposure={exposure.data} />
      {exposure.data.enabled && <ConnectHosts name={server.name} url={url} />}
      <ConnectedClients serverId={server.id} />
    </div>
  );
}

function ExposureForm({ server, exposure }: { server: ServerDto; exposure: ExposureDto }) {
  const save = useSetExposure(server.id);
  const admin = useCan("admin").allowed;
  const tools = useCapability(server.id, "tools", exposure.tools !== null || admin);
  const [enabled, setEnabled] = useState(exposure.enabled);
  const [chosen, setChosen] = useState<string[] | null>(exposure.tools);
  const [readOnly, setReadOnly] = useState(exposure.readOnly);
  const [limit, setLimit] = useState(exposure.rateLimitPerMinute?.toString() ?? "");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ enabled, tools: chosen, readOnly, rateLimitPerMinute: limit.trim() ? Number(limit) : null });
  }
  const toggle = (name: string, on: boolean) => {
    const current = chosen ?? (tools.data ?? []).map((t) => t.name);
    setChosen(on ? [...new Set([...current, name])] : current.filter((n) => n !== name));
  };

  return (
    <form onSubmit={onSubmit} aria-labelledby="gateway-title" className="flex flex-col gap-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="gateway-title" className="text-sm font-semibold">
          Offer to other MCP hosts
        </h2>
        <Badge tone={exposure.enabled ? "green" : "neutral"} testId="gateway-status">
          {exposure.enabled ? "offered" : "not offered"}
        </Badge>
      </div>
      <p className="text-sm text-muted">
        Claude, Cursor, VS Code or your own agent connect to this server through the console, with the team’s sign-in. Every call they make is kept in
        history (origin “gateway”) like any other.
      </p>
      <fieldset disabled={!admin} className="flex flex-col gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Offer this server at its gateway endpoint
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          Read-only: only tools the server marks read-only (readOnlyHint)
        </label>
        <div className="flex flex-col gap-1.5">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={chosen === null} onChange={(e) => setChosen(e.target.checked ? null : (tools.data ?? []).map((t) => t.name))} />
            Every tool the server lists
          </label>
          {chosen !== null && (
            <ul aria-label="Tools offered" className="ml-6 grid gap-1 sm:grid-cols-2">
              {tools.isPending && <li className="text-xs text-muted">Loading the server’s tools…</li>}
              {[...new Set([...(tools.data ?? []).map((t) => t.name), ...chosen])].map((name) => (
                <li key={name}>
                  <label className="flex items-center gap-2 font-mono text-xs">
                    <input type="checkbox" checked={chosen.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
                    {name}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
        <Field label="Calls per minute per token" hint="Empty: no limit" className="w-56">
          {(p) => <Input {...p} type="number" min={1} inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />}
        </Field>
      </fieldset>
      <div className="flex items-center gap-2">
        <RoleGate min="admin">
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save
          </Button>
        </RoleGate>
        {save.isSuccess && <span className="text-xs text-muted">Saved: applies to connected hosts at once.</span>}
      </div>
      <ErrorAlert error={save.error} />
    </form>
  );
}

function ConnectHosts({ name, url }: { name: string; url: string }) {
  const [host, setHost] = useState<HostId>("claude-code");
  const configs = hostConfigs(name, url);
  const config = configs.find((c) => c.host === host)!;
  // The workspace's aggregated endpoint: the server endpoint's path without its last segment.
  const aggregate = url.slice(0, url.lastIndexOf("/"));
  return (
    <section aria-labelledby="connect-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="connect-title" className="text-sm font-semibold">
        Connect a host
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="gateway-url" className="rounded bg-subtle px-2 py-1 font-mono text-xs break-all">
          {url}
        </code>
        <CopyButton text={url} label="Copy URL" />
      </div>
      <p className="text-xs text-muted">Every server this workspace offers, at one endpoint (tools named server__tool):</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="gateway-aggregate-url" className="rounded bg-subtle px-2 py-1 font-mono text-xs break-all">
          {aggregate}
        </code>
        <CopyButton text={aggregate} label="Copy workspace URL" />
      </div>
      <p className="text-xs text-muted">
        Chosen tools of several servers, renamed, at an endpoint of their own:{" "}
        <Link href="/settings/gateway" className="text-accent hover:underline">
          virtual servers
        </Link>
        .
      </p>
      <p className="text-xs text-muted">
        Hosts that speak OAuth sign in through the console on first use (each person with their own account). For scripts, send an API token with the
        gateway scope (Settings → API tokens) as <code className="font-mono">Authorization: Bearer …</code>.
      </p>
      <Tabs label="Hosts" tabs={configs.map((c) => ({ id: c.host, label: c.label }))} value={host} onChange={setHost}>
        <div className="flex flex-col gap-2 pt-3">
          <div className="flex items-center justify-between gap-2 text-xs text-muted">
            <span>{config.where}</span>
            <CopyButton text={config.text} label="Copy" />
          </div>
          <pre className="overflow-x-auto rounded bg-subtle p-3 font-mono text-xs" data-testid="host-config">
            {config.text}
          </pre>
        </div>
      </Tabs>
    </section>
  );
}

function ConnectedClients({ serverId }: { serverId: string }) {
  const can = useCan("member");
  const clients = useConnectedClients(serverId, can.allowed);
  const disconnect = useDisconnectClient(serverId);
  if (!can.allowed) return null;
  const open = clients.data?.filter((c) => !c.endedAt) ?? [];
  const ended = clients.data?.filter((c) => c.endedAt) ?? [];
  return (
    <section aria-labelledby="clients-title" className="flex flex-col gap-2">
      <h2 id="clients-title" className="text-sm font-semibold">
        Connected clients
      </h2>
      {clients.error && <ErrorAlert error={clients.error} />}
      {clients.isPending ? (
        <Skeleton className="h-16" />
      ) : open.length === 0 ? (
        <Alert tone="info">No host is connected through the gateway right now.</Alert>
      ) : (
        <Table columns={["Host", "As", "Since", "Last seen", { name: "Actions", hidden: true }]}>
            {open.map((c) => (
              <Row key={c.id} data-testid="connected-client">
                <Cell className="font-medium">
                  {c.clientName ?? "unnamed host"} {c.clientVersion && <span className="text-xs text-muted">{c.clientVersion}</span>}
                </Cell>
                <Cell label="As" className="text-xs">
                  {c.userName ?? c.userId} <span className="text-muted">({c.via === "token" ? "API token" : "OAuth"})</span>
                </Cell>
                <Cell label="Since" className="text-xs text-muted">{formatTime(c.connectedAt)}</Cell>
                <Cell label="Last seen" className="text-xs text-muted">{formatTime(c.lastSeenAt)}</Cell>
                <Cell actions className="text-right">
                  <RoleGate min="admin">
                    <Button size="sm" variant="ghost" aria-label={`Disconnect ${c.clientName ?? "host"}`} busy={disconnect.isPending && disconnect.variables?.clientId === c.id} onClick={() => disconnect.mutate({ clientId: c.id })}>
                      Disconnect
                    </Button>
                  </RoleGate>
                  {c.via === "oauth" && (
                    <RoleGate min="admin">
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-red-600 dark:text-red-400"
                        title="Also revoke the access this person gave the host: it must ask them again"
                        onClick={() => disconnect.mutate({ clientId: c.id, revoke: true })}
                      >
                        Revoke access
                      </Button>
                    </RoleGate>
                  )}
                </Cell>
              </Row>
            ))}
        </Table>
      )}
      <ErrorAlert error={disconnect.error} />
      {ended.length > 0 && (
        <details className="text-xs text-muted">
          <summary className="cursor-pointer">Recently disconnected ({ended.length})</summary>
          <ul className="mt-2 flex flex-col gap-1">
            {ended.map((c) => (
              <li key={c.id}>
                {c.clientName ?? "unnamed host"} {c.clientVersion} as {c.userName ?? c.userId}, {formatTime(c.connectedAt)} – {formatTime(c.endedAt!)} ({c.endReason})
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
