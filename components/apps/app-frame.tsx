"use client";

import { useEffect, useRef, useState } from "react";
import { AppBridge, type McpUiHostContext, type McpUiToolResultNotification } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useDarkTheme } from "@/components/theme/use-dark-theme";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/ui/spinner";
import type { CallAppInfo, UiResource } from "@/lib/domains/apps";
import { useAppRequests } from "@/lib/domains/apps/hooks";
import type { CallDto } from "@/lib/domains/calls";
import { SandboxTransport } from "./sandbox-transport";

const HOST_INFO = { name: "switchboard", version: "0.1.0" };
const INIT_TIMEOUT_MS = 15_000;
const TEARDOWN_TIMEOUT_MS = 3_000;
const MAX_HEIGHT = 2_000;

type HostedApp = NonNullable<CallAppInfo["app"]>;

interface AppFrameProps {
  call: CallDto;
  app: HostedApp;
  resource: UiResource;
  onFail(reason: string): void;
  onClosed(): void;
}

/**
 * One app in its sandbox: the outer iframe is our proxy page on the sandbox origin; AppBridge
 * speaks to the app through it. Input and result (or cancellation) come from the stored call.
 */
export function AppFrame({ call, app, resource, onFail, onClosed }: AppFrameProps) {
  const iframe = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const contextRef = useRef<McpUiHostContext>({});
  const [height, setHeight] = useState(0);
  const [ready, setReady] = useState(false);
  const [closing, setClosing] = useState(false);
  const dark = useDarkTheme();
  const requests = useAppRequests(call.id);
  const sandboxOrigin = new URL(app.sandboxUrl).origin;

  // Callbacks change identity across renders; the bridge lives as long as the call and resource.
  const latest = useRef({ requests, onFail, onClosed, dark });
  latest.current = { requests, onFail, onClosed, dark };

  useEffect(() => {
    const frame = iframe.current;
    if (!frame?.contentWindow) return;
    const hostContext: McpUiHostContext = {
      theme: latest.current.dark ? "dark" : "light",
      platform: "web",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      containerDimensions: { maxHeight: MAX_HEIGHT },
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      toolInfo: { id: call.requestId, tool: app.tool as NonNullable<McpUiHostContext["toolInfo"]>["tool"] },
    };
    contextRef.current = hostContext;
    const bridge = new AppBridge(null, HOST_INFO, { serverTools: {}, serverResources: {}, logging: {} }, { hostContext });
    bridgeRef.current = bridge;
    let done = false;
    const timer = setTimeout(() => latest.current.onFail(`The app did not initialise within ${INIT_TIMEOUT_MS / 1000} s`), INIT_TIMEOUT_MS);

    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: resource.html, csp: resource.csp });
    bridge.oninitialized = () => {
      clearTimeout(timer);
      setReady(true);
      const args = (call.params as { arguments?: Record<string, unknown> } | null)?.arguments ?? {};
      void bridge.sendToolInput({ arguments: args });
      if (call.result && typeof call.result === "object") void bridge.sendToolResult(call.result as McpUiToolResultNotification["params"]);
      else void bridge.sendToolCancelled({ reason: call.error?.message ?? `The call ended ${call.status}` });
    };
    bridge.onsizechange = ({ height: h }) => {
      if (typeof h === "number" && h >= 0) setHeight(Math.min(Math.ceil(h), MAX_HEIGHT));
    };
    bridge.oncalltool = async (params) =>
      (await latest.current.requests.callTool({ name: params.name, arguments: params.arguments ?? {} })) as Awaited<ReturnType<NonNullable<AppBridge["oncalltool"]>>>;
    bridge.onreadresource = async (params) =>
      (await latest.current.requests.readResource(params.uri)) as Awaited<ReturnType<NonNullable<AppBridge["onreadresource"]>>>;
    bridge.onloggingmessage = () => undefined;
    bridge.onrequestteardown = () => void close();

    async function close() {
      setClosing(true);
      await bridge.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
      if (!done) latest.current.onClosed();
    }

    const params = new URLSearchParams({ host: window.location.origin, csp: JSON.stringify(resource.csp) });
    // Listen before the proxy page can announce itself.
    void bridge.connect(new SandboxTransport(frame.contentWindow, sandboxOrigin)).then(() => {
      if (!done) frame.src = `${app.sandboxUrl}?${params}`;
    });
    return () => {
      done = true;
      clearTimeout(timer);
      bridgeRef.current = null;
      void bridge.close();
    };
  }, [call, app, resource, sandboxOrigin]);

  useEffect(() => {
    if (!ready) return;
    contextRef.current = { ...contextRef.current, theme: dark ? "dark" : "light" };
    bridgeRef.current?.setHostContext(contextRef.current);
  }, [dark, ready]);

  const closeApp = async () => {
    const bridge = bridgeRef.current;
    setClosing(true);
    await bridge?.teardownResource({}, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
    onClosed();
  };

  return (
    <figure data-testid="mcp-app" className="flex flex-col gap-1 overflow-hidden rounded-md border">
      {!ready && <Loading label="Starting the app…" />}
      <iframe
        ref={iframe}
        title={`App: ${call.name}`}
        sandbox="allow-scripts allow-same-origin"
        referrerPolicy="no-referrer"
        className="block w-full border-0"
        style={{ height: ready ? height : 0 }}
      />
      <figcaption className="flex items-center gap-2 border-t bg-panel px-2 py-1 text-[11px] text-muted">
        <span className="truncate">
          MCP App <code className="font-mono">{app.resourceUri}</code> · sandboxed on <code className="font-mono">{sandboxOrigin}</code>
        </span>
        <Button size="sm" variant="ghost" className="ml-auto" busy={closing} onClick={() => void closeApp()}>
          Close app
        </Button>
      </figcaption>
    </figure>
  );
}
