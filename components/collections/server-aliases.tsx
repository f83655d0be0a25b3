"use client";

import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { useServers } from "@/lib/domains/servers/hooks";

export interface AliasRow {
  alias: string;
  serverId: string;
}

/** Alias (or a real server id) → the server this environment uses for it. */
export function ServerAliases({ envName, rows, onChange }: { envName: string; rows: AliasRow[]; onChange: (rows: AliasRow[]) => void }) {
  const servers = useServers();
  const set = (i: number, patch: Partial<AliasRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium">Servers</span>
      <p className="text-xs text-muted">{"A step whose server is {{alias}}, or a server listed on the left, runs on the server chosen on the right."}</p>
      <ul aria-label={`Server aliases of ${envName}`} className="flex flex-col gap-1.5">
        {rows.map((row, i) => (
          <li key={i} className="flex items-center gap-1.5">
            <Input aria-label={`Alias ${i + 1}`} className="font-mono" placeholder="api" value={row.alias} onChange={(e) => set(i, { alias: e.target.value })} />
            <span aria-hidden>→</span>
            <Select aria-label={`Server for alias ${i + 1}`} value={row.serverId} onChange={(e) => set(i, { serverId: e.target.value })}>
              <option value="">Choose a server…</option>
              {servers.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Select>
            <Button size="sm" variant="ghost" aria-label={`Remove alias ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              ×
            </Button>
          </li>
        ))}
      </ul>
      <Button size="sm" className="self-start" onClick={() => onChange([...rows, { alias: "", serverId: "" }])}>
        Add alias
      </Button>
    </div>
  );
}
