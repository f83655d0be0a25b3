"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { Input } from "@/components/ui/field";
import type { Root } from "@/lib/domains/interactions";
import type { ServerDto } from "@/lib/domains/servers";
import { useUpdateServer } from "@/lib/domains/servers/hooks";
import { useAgent } from "@/lib/domains/agents/hooks";
import { RoleGate } from "@/components/ui/role-gate";

/**
 * The server's roots (what `roots/list` answers). Saving sends `notifications/roots/list_changed`
 * to its live session. For agent servers, the paths are on the agent's machine.
 */
export function RootsSection({ server }: { server: ServerDto }) {
  const update = useUpdateServer(server.id);
  const [rows, setRows] = useState<Root[]>(server.roots);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    // zod stays out of the page's first load: only saving needs it.
    const { RootsSchema } = await import("@/lib/domains/interactions/schemas");
    const parsed = RootsSchema.safeParse(rows.filter((r) => r.uri.trim()).map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) })));
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid roots");
    setError(null);
    update.mutate({ roots: parsed.data });
  };
  const set = (i: number, patch: Partial<Root>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <details aria-label="Roots" className="flex flex-col open:basis-full open:gap-2 open:rounded-md open:border open:p-2 [&[open]>summary]:mb-2">
      <summary className="cursor-pointer text-xs font-medium">Roots ({server.roots.length})</summary>
      <p className="text-xs text-muted">
        Directories this server may work in, as <code>file://</code> URIs
        {server.agentId ? " on the agent's machine; the agent passes on only those that exist and its config allows for this server" : ""}.
      </p>
      {rows.map((row, i) => (
        <div key={i} className="flex gap-2" role="group" aria-label={`Root ${i + 1}`}>
          <Input aria-label="Root URI" placeholder="file:///home/me/project" className="flex-1 font-mono text-xs" value={row.uri} onChange={(e) => set(i, { uri: e.target.value })} />
          <Input aria-label="Root name" placeholder="name (optional)" className="w-40 text-xs" value={row.name ?? ""} onChange={(e) => set(i, { name: e.target.value })} />
          <Button size="sm" variant="ghost" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <div className="flex gap-2">
        <Button size="sm" onClick={() => setRows([...rows, { uri: "file:///" }])}>
          Add root
        </Button>
        <RoleGate action="editServer">
          <Button size="sm" variant="primary" onClick={save} busy={update.isPending}>
            Save roots
          </Button>
        </RoleGate>
      </div>
      {error && <p className="text-xs text-red-600">{error}</p>}
      <ErrorAlert error={update.error} title="Could not save roots" />
      {server.agentId && <RefusedByAgent agentId={server.agentId} serverName={server.name} />}
    </details>
  );
}

/** Roots the agent left out of its server's last `roots/list` answer (checked on the agent's machine). */
function RefusedByAgent({ agentId, serverName }: { agentId: string; serverName: string }) {
  const agent = useAgent(agentId);
  const refused = agent.data?.servers.find((s) => s.name === serverName)?.rootsRefused ?? [];
  if (refused.length === 0) return null;
  return (
    <div role="status" aria-label="Roots refused by the agent" className="text-xs">
      <p className="font-medium text-amber-700 dark:text-amber-400">The agent left these out when the server last asked:</p>
      <ul className="list-disc pl-5">
        {refused.map((r) => (
          <li key={r.uri}>
            <code>{r.uri}</code>: {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
