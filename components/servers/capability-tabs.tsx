"use client";

import { useState } from "react";
import { useSearchParams } from "next/navigation";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Tabs, type TabItem } from "@/components/ui/tabs";
import type { CapabilityKind, ServerDto } from "@/lib/domains/servers";
import { useCapability } from "@/lib/domains/servers/hooks";
import { signInMessage } from "@/lib/domains/server-oauth";
import { useOAuthStatus } from "@/lib/domains/server-oauth/hooks";
import { SignInButton } from "@/components/oauth/sign-in-button";
import { serverState } from "./server-status";
import { PromptsPanel } from "./prompts-panel";
import { ResourcesPanel } from "./resources-panel";
import { TemplatesPanel } from "./templates-panel";
import { ToolsPanel } from "./tools-panel";

const CAPABILITY_OF: Record<CapabilityKind, string> = {
  tools: "tools",
  resources: "resources",
  "resource-templates": "resources",
  prompts: "prompts",
};

interface CapabilityTabsProps {
  server: ServerDto;
  /** Whether lists may be fetched (fetching one connects the server if it has no session). */
  enabled: boolean;
  onConnect: () => void;
}

export function CapabilityTabs({ server, enabled, onConnect }: CapabilityTabsProps) {
  // A link to a prompt (?prompt=<name>) or a resource (?resource=<uri>) opens on its tab.
  const search = useSearchParams();
  const [tab, setTab] = useState<CapabilityKind>(search.has("prompt") ? "prompts" : search.has("resource") ? "resources" : "tools");
  const caps = server.status === "connected" ? server.session?.capabilities : null;
  // A session that announced its capabilities tells us what not to ask for.
  const offers = (kind: CapabilityKind) => !caps || CAPABILITY_OF[kind] in caps;
  const can = (kind: CapabilityKind) => enabled && offers(kind);

  // Counts come from lists already fetched; only the open tab fetches (one connect, not four racing).
  const counts = {
    tools: useCapability(server.id, "tools", false).data?.length,
    resources: useCapability(server.id, "resources", false).data?.length,
    "resource-templates": useCapability(server.id, "resource-templates", false).data?.length,
    prompts: useCapability(server.id, "prompts", false).data?.length,
  };
  const tabs: TabItem<CapabilityKind>[] = [
    { id: "tools", label: "Tools", count: counts.tools },
    { id: "resources", label: "Resources", count: counts.resources },
    { id: "resource-templates", label: "Templates", count: counts["resource-templates"] },
    { id: "prompts", label: "Prompts", count: counts.prompts },
  ];
  const props = { serverId: server.id, enabled: can(tab), defaultTimeoutMs: server.timeoutMs };

  return (
    <Tabs label="Capabilities" tabs={tabs} value={tab} onChange={setTab} className="pt-2">
      {!enabled ? (
        <NotConnected server={server} onConnect={onConnect} />
      ) : !offers(tab) ? (
        <EmptyState title={`This server does not offer ${CAPABILITY_OF[tab]}`} className="m-6">
          Its session did not announce the “{CAPABILITY_OF[tab]}” capability.
        </EmptyState>
      ) : tab === "tools" ? (
        <ToolsPanel {...props} />
      ) : tab === "resources" ? (
        <ResourcesPanel {...props} />
      ) : tab === "resource-templates" ? (
        <TemplatesPanel {...props} />
      ) : (
        <PromptsPanel {...props} />
      )}
    </Tabs>
  );
}

function NotConnected({ server, onConnect }: { server: ServerDto; onConnect: () => void }) {
  // The same OAuth query as the header's (one request): a missing sign-in is what to offer here too.
  const oauth = useOAuthStatus(server.id, server.authMode === "oauth-per-member" || server.authMode === "oauth-shared");
  const state = serverState(server, oauth.data);
  if (state.state === "signed-out") {
    return (
      <EmptyState
        title="Sign in to see its capabilities"
        className="m-6"
        action={<SignInButton need={{ serverId: server.id, oauth: "sign_in_required" }} label={`Sign in to ${server.name}`} />}
      >
        {signInMessage(server.name, server.authMode)}: its tools, resources, templates and prompts are listed once you have.
      </EmptyState>
    );
  }
  const canConnect = server.status !== "waiting" && server.status !== "offline";
  return (
    <EmptyState
      title={state.problem ? `This server is ${state.label}` : "Not connected"}
      className="m-6"
      action={
        canConnect && (
          <Button variant="primary" onClick={onConnect}>
            List capabilities
          </Button>
        )
      }
    >
      {state.problem && <span className="block">{state.reason}.</span>}
      {canConnect ? "Connect to see its tools, resources, templates and prompts." : "Its capabilities appear when its agent brings it online."}
    </EmptyState>
  );
}
