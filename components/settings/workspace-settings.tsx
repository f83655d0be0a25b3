"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { DEFAULT_REDACTION_KEYS } from "@/lib/core/redaction";
import { useCan } from "@/lib/identity/auth/hooks";
import type { UpdateWorkspace, WorkspaceSettingsDto } from "@/lib/team/workspaces";
import { useUpdateWorkspaceSettings, useWorkspaceSettings } from "@/lib/team/workspaces/hooks";
import { AllowedNetworks } from "./allowed-networks";
import { DeleteWorkspace } from "./delete-workspace";
import { WorkspaceSso } from "./workspace-sso";
import { DisabledReason } from "@/components/ui/disabled-reason";

/** Settings → Workspace: name, retention, public share links, redaction list, and deletion. */
export function WorkspaceSettings() {
  const settings = useWorkspaceSettings();
  // Owned here: a save remounts the form below, and the outcome must outlive that.
  const update = useUpdateWorkspaceSettings();
  if (settings.isPending) return <Skeleton className="h-64 w-full max-w-4xl" />;
  if (settings.error) return <ErrorAlert error={settings.error} title="Could not load the workspace's settings" />;
  const w = settings.data;
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <p className="text-sm text-muted" data-testid="workspace-counts">
        {w.counts.members} members · {w.counts.servers} servers · {w.counts.calls} calls · {w.counts.pendingInvitations} pending invitations
      </p>
      {/* Saved values are the form's starting point; a save remounts it with what the server kept. */}
      <SettingsForm key={JSON.stringify([w.name, w.retentionDays, w.publicSharesEnabled, w.redactionKeys])} settings={w} update={update} />
      <AllowedNetworks settings={w} />
      <WorkspaceSso />
      <DeleteWorkspace name={w.name} counts={w.counts} />
    </div>
  );
}

function SettingsForm({ settings, update }: { settings: WorkspaceSettingsDto; update: ReturnType<typeof useUpdateWorkspaceSettings> }) {
  const admin = useCan("admin");
  const [name, setName] = useState(settings.name);
  const [retention, setRetention] = useState(settings.retentionDays?.toString() ?? "");
  const [publicShares, setPublicShares] = useState(settings.publicSharesEnabled);
  const [keys, setKeys] = useState(settings.redactionKeys.join("\n"));
  const [useDefaultKeys, setUseDefaultKeys] = useState(settings.redactionKeysDefault);

  const retentionDays = retention.trim() === "" ? null : Number(retention);
  const retentionError = retentionDays !== null && !(Number.isInteger(retentionDays) && retentionDays >= 1 && retentionDays <= 3650) ? "A whole number of days from 1 to 3650, or empty" : null;
  const keyList = keys.split(/[\n,]/).map((k) => k.trim()).filter(Boolean);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (retentionError || !name.trim()) return;
    const input: UpdateWorkspace = { name: name.trim(), retentionDays, publicSharesEnabled: publicShares, redactionKeys: useDefaultKeys ? null : keyList };
    update.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="workspace-settings-title" className="flex flex-col gap-4 rounded-lg border p-4">
      <h2 id="workspace-settings-title" className="text-sm font-semibold">
        Workspace
      </h2>
      <DisabledReason reason={admin.allowed ? null : admin.reason}>
        <fieldset className="flex flex-col gap-4">
          <Field label="Name" required className="w-80">
            {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Keep calls for (days)" className="w-80" error={retentionError} hint="Empty keeps history forever. Older calls, with their sessions and logs, are purged by a scheduled job.">
            {(p) => <Input {...p} inputMode="numeric" placeholder="forever" value={retention} onChange={(e) => setRetention(e.target.value)} />}
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={publicShares} onChange={(e) => setPublicShares(e.target.checked)} />
            Allow public share links (anyone with a link can see that one call, redacted)
          </label>
          <Field
            label="Redacted field names"
            hint="One per line. Fields whose names contain one of these (case, - and _ ignored) are masked in share links. The default list always applies, also to history, traffic and exports; names added here add to it."
          >
            {(p) => (
              <Textarea
                {...p}
                rows={6}
                value={keys}
                onChange={(e) => {
                  setKeys(e.target.value);
                  setUseDefaultKeys(false);
                }}
              />
            )}
          </Field>
          <div className="flex items-center gap-2">
            <Button
              size="sm"
              onClick={() => {
                setKeys(DEFAULT_REDACTION_KEYS.join("\n"));
                setUseDefaultKeys(true);
              }}
            >
              Restore the default list
            </Button>
            {useDefaultKeys && <span className="text-xs text-muted">Using the default list</span>}
          </div>
        </fieldset>
      </DisabledReason>
      <div className="flex items-center gap-3">
        <RoleGate min="admin">
          <Button type="submit" variant="primary" busy={update.isPending} disabled={Boolean(retentionError) || !name.trim()}>
            Save settings
          </Button>
        </RoleGate>
        {update.isSuccess && <Alert tone="success">Saved.</Alert>}
      </div>
      <ErrorAlert error={update.error} />
    </form>
  );
}
