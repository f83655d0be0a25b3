"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { useCan } from "@/lib/identity/auth/hooks";
import { parseAllowEntry } from "@/lib/core/net";
import type { WorkspaceSettingsDto } from "@/lib/team/workspaces";
import { useUpdateWorkspaceSettings } from "@/lib/team/workspaces/hooks";
import { DisabledReason } from "@/components/ui/disabled-reason";

/** Settings → Workspace: the console's outbound network policy and the workspace's allow-list. */
export function AllowedNetworks({ settings }: { settings: WorkspaceSettingsDto }) {
  const admin = useCan("admin");
  const update = useUpdateWorkspaceSettings();
  const [text, setText] = useState(settings.allowedNetworks.join("\n"));
  const entries = text.split(/[\n,]/).map((e) => e.trim()).filter(Boolean);
  const invalid = entries.filter((e) => !parseAllowEntry(e));
  const { mode, envAllowed } = settings.network;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (invalid.length === 0) update.mutate({ allowedNetworks: entries });
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="allowed-networks-title" className="flex flex-col gap-4 rounded-lg border p-4">
      <h2 id="allowed-networks-title" className="text-sm font-semibold">
        Allowed networks
      </h2>
      <p className="text-sm text-muted" data-testid="network-policy">
        {mode === "public"
          ? "This console serves a network: it refuses to connect servers, OAuth endpoints and icons at loopback, private, link-local and cloud metadata addresses unless they are listed here."
          : "This console is bound to loopback: servers may be on loopback and private addresses. Cloud metadata, multicast and reserved addresses are refused unless listed here; icons are held to the public policy."}
        {envAllowed.length > 0
          ? ` Entries must lie within what the operator allows (SWITCHBOARD_ALLOWED_NETWORKS): ${envAllowed.join(", ")}; metadata and link-local addresses never.`
          : " The operator allows no entries (SWITCHBOARD_ALLOWED_NETWORKS), so this list can only be empty."}
      </p>
      <DisabledReason reason={admin.allowed ? null : admin.reason}>
        <fieldset>
          <Field
            label="Allowed networks"
            error={invalid.length ? `Not a CIDR, an address, a host name or *.domain: ${invalid.join(", ")}` : null}
            hint="One per line: a CIDR (10.0.0.0/8, fd00::/8), one address, a host name, or *.domain."
          >
            {(p) => <Textarea {...p} rows={4} placeholder="10.1.0.0/16" value={text} onChange={(e) => setText(e.target.value)} />}
          </Field>
        </fieldset>
      </DisabledReason>
      <div className="flex items-center gap-3">
        <RoleGate min="admin">
          <Button type="submit" variant="primary" busy={update.isPending} disabled={invalid.length > 0}>
            Save allowed networks
          </Button>
        </RoleGate>
        {update.isSuccess && <Alert tone="success">Saved.</Alert>}
      </div>
      <ErrorAlert error={update.error} />
    </form>
  );
}
