"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { SCIM_MAPPABLE_ROLES, type ScimMappableRole } from "@/lib/team/scim";
import type { ScimGroupRoles as Mapping } from "@/lib/team/scim/schemas";
import { useSaveScimGroupRoles, useScimGroupRoles } from "@/lib/team/scim/hooks";

interface MappingRow {
  key: number;
  group: string;
  role: ScimMappableRole;
}

/** The group → role mapping of SCIM provisioning: a provisioned member gets the highest role any of their groups maps to. */
export function ScimGroupRoles() {
  const mapping = useScimGroupRoles();
  // Held here: the form is remounted with the saved mapping and its "Saved." must stay.
  const save = useSaveScimGroupRoles();
  if (mapping.error) return <ErrorAlert error={mapping.error} title="Could not load the group mapping" />;
  if (!mapping.data) return <Skeleton className="h-16 w-full" />;
  return <GroupRolesForm key={JSON.stringify(mapping.data)} initial={mapping.data} save={save} />;
}

function toRows(mapping: Mapping): MappingRow[] {
  return Object.entries(mapping).map(([group, role], key) => ({ key, group, role }));
}

/** A group name listed twice (the first one found), if any. */
function duplicateOf(rows: MappingRow[]): string | null {
  const names = rows.map((r) => r.group.trim()).filter(Boolean);
  return names.find((n, i) => names.indexOf(n) !== i) ?? null;
}

function GroupRolesForm({ initial, save }: { initial: Mapping; save: ReturnType<typeof useSaveScimGroupRoles> }) {
  const [rows, setRows] = useState<MappingRow[]>(() => toRows(initial));
  const [nextKey, setNextKey] = useState(rows.length);
  const duplicate = duplicateOf(rows);
  const unnamed = rows.some((r) => !r.group.trim());

  const edit = (next: (all: MappingRow[]) => MappingRow[]) => {
    setRows(next);
    if (save.isSuccess || save.isError) save.reset();
  };
  const change = (key: number, patch: Partial<MappingRow>) => edit((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () => {
    edit((all) => [...all, { key: nextKey, group: "", role: "member" }]);
    setNextKey((k) => k + 1);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (duplicate || unnamed) return;
    save.mutate(rows.length ? Object.fromEntries(rows.map((r) => [r.group.trim(), r.role])) : null);
  };

  return (
    <form onSubmit={onSubmit} aria-labelledby="scim-groups-title" className="flex flex-col gap-2">
      <h3 id="scim-groups-title" className="text-xs font-semibold">
        Group → role mapping
      </h3>
      <p className="text-xs text-muted">
        A provisioned member gets the highest role any of their identity provider groups (by display name) maps to, else the default role. Saving re-applies it to every grouped member at once. Owners are never changed.
      </p>
      {rows.length === 0 && <p className="text-sm text-muted">No mapping: provisioned members get the default role.</p>}
      <ul className="flex flex-col gap-2">
        {rows.map((row, i) => (
          <li key={row.key} className="flex flex-wrap items-center gap-2">
            <Input
              aria-label={`Group ${i + 1} display name`}
              className="w-full sm:w-72"
              value={row.group}
              maxLength={256}
              placeholder="Engineering"
              aria-invalid={(duplicate !== null && row.group.trim() === duplicate) || undefined}
              onChange={(e) => change(row.key, { group: e.target.value })}
            />
            <Select aria-label={`Role of group ${i + 1}`} className="sm:w-36" value={row.role} onChange={(e) => change(row.key, { role: e.target.value as ScimMappableRole })}>
              {SCIM_MAPPABLE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </Select>
            <Button size="sm" variant="ghost" aria-label={`Remove group ${i + 1}${row.group.trim() ? ` (${row.group.trim()})` : ""}`} onClick={() => edit((all) => all.filter((r) => r.key !== row.key))}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {duplicate && <p className="text-xs text-red-600 dark:text-red-400">The group “{duplicate}” is listed twice.</p>}
      {unnamed && <p className="text-xs text-muted">Name every group, or remove its row, to save.</p>}
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={add} disabled={rows.length >= 200}>
          Add a group
        </Button>
        <Button type="submit" size="sm" variant="primary" busy={save.isPending} disabled={Boolean(duplicate) || unnamed}>
          Save mapping
        </Button>
        {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      </div>
      <ErrorAlert error={save.error} />
    </form>
  );
}
