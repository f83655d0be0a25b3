"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/ui/spinner";
import { useCallApp, useUiResource } from "@/lib/domains/apps/hooks";
import type { CallDto } from "@/lib/domains/calls";

// The bridge (and the SDK it carries) is loaded only for calls that really host an app.
const AppFrame = dynamic(() => import("./app-frame").then((m) => m.AppFrame), { ssr: false, loading: () => <Loading label="Loading app…" /> });

/**
 * The MCP App of a tool call, if its tool declares one: rendered in a sandbox on another origin,
 * replayed from the stored input and result. Renders nothing for tools without an app; when the
 * app cannot load, says why (the plain content is rendered next to it by the result view).
 */
export function McpAppView({ call }: { call: CallDto }) {
  const hostable = call.method === "tools/call" && call.status !== "pending";
  const info = useCallApp(call.id, hostable);
  const app = info.data?.app ?? null;
  const resource = useUiResource(call.id, app?.resourceUri ?? null);
  const [failure, setFailure] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);

  if (!hostable || info.isPending) return null;
  if (info.error || (!app && info.data?.reason)) {
    return <Unavailable reason={info.error ? info.error.message : info.data!.reason!} />;
  }
  if (!app) return null;
  if (resource.isPending) return <Loading label="Loading the app's UI resource…" />;
  if (resource.error) return <Unavailable reason={resource.error.message} />;
  if (failure) return <Unavailable reason={failure} />;
  if (closed) {
    return (
      <Alert tone="info" title="App closed" action={<Button size="sm" onClick={() => setClosed(false)}>Open again</Button>}>
        The plain result is shown below.
      </Alert>
    );
  }
  return <AppFrame call={call} app={app} resource={resource.data} onFail={setFailure} onClosed={() => setClosed(true)} />;
}

function Unavailable({ reason }: { reason: string }) {
  return (
    <Alert tone="warning" title="The app could not load">
      {reason}. The plain result is shown below.
    </Alert>
  );
}
