"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import Link from "next/link";
import { ConsentActions } from "@/components/gateway-auth/consent-actions";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/spinner";
import { useHydrated } from "@/components/ui/use-hydrated";
import { SCOPE_DESCRIPTIONS } from "@/lib/identity/gateway-auth";
import type { ConsentEndpoint, ConsentView } from "@/lib/identity/gateway-auth/server";

/** The view of the authorization request in this page's query, from the API (the session cookie says who asks). */
async function fetchView(search: string, signal: AbortSignal): Promise<ConsentView> {
  const res = await fetch(`/api/v1/oauth/consent${search}`, { headers: { accept: "application/json" }, credentials: "same-origin", signal });
  const body = (await res.json().catch(() => null)) as (ConsentView & { error?: { message?: string } }) | null;
  if (!res.ok || !body) throw new Error(body?.error?.message ?? `The console could not read this request for access (HTTP ${res.status})`);
  return body;
}

/** The consent page: one prerendered page for every request; the query is read in the browser. */
export function ConsentShell() {
  const hydrated = useHydrated();
  const search = hydrated ? window.location.search : "";
  const view = useQuery({ queryKey: ["oauth-consent", search], queryFn: ({ signal }) => fetchView(search, signal), enabled: hydrated, retry: false, staleTime: Infinity });
  if (view.error) return <ErrorAlert error={view.error} />;
  if (!view.data) return <Loading />;
  return <Consent view={view.data} search={search} />;
}

function Consent({ view, search }: { view: ConsentView; search: string }) {
  if (view.state === "signed_out") {
    return (
      <Notice title="Sign in to continue">
        <Link href={`/sign-in?next=${encodeURIComponent(`/oauth/consent${search}`)}`} className="text-accent underline">
          Sign in
        </Link>{" "}
        to answer this request for access.
      </Notice>
    );
  }
  if (view.state === "invalid") return <Notice title="This request for access cannot be answered">{view.reason}</Notice>;

  const clientName = clip(view.client.name) ?? "An application";
  const outsider = view.endpoints.find((e) => e.role === null);
  if (outsider) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-lg font-semibold">You are not a member of {outsider.workspace.name}</h1>
        <p className="text-sm text-muted">
          <Untrusted>{clientName}</Untrusted> asked to use {describe(outsider)}. Only members of the workspace can allow that; you are signed in as{" "}
          {view.user.email}. Ask an owner or admin of {outsider.workspace.name} to invite you.
        </p>
        <ConsentActions denyOnly />
      </div>
    );
  }
  const viewer = view.endpoints.some((e) => e.role === "viewer");
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold break-words">
          Allow <Untrusted>{clientName}</Untrusted> to use Switchboard?
        </h1>
        <p className="mt-1 text-sm text-muted">Signed in as {view.user.name} ({view.user.email}).</p>
        <p className="mt-1 text-sm text-muted">
          {view.client.uri ? (
            <>
              It says it is <Untrusted>{clip(view.client.uri) ?? ""}</Untrusted>. Its name and address are its own claims,
            </>
          ) : (
            "Its name is its own claim,"
          )}{" "}
          not checked by Switchboard.
        </p>
      </div>
      <section aria-label="Endpoints" className="flex flex-col gap-1 text-sm">
        <h2 className="font-medium">It asks to connect to</h2>
        <ul className="list-disc pl-5">
          {view.endpoints.map((e) => (
            <li key={e.resource} className="break-words">
              {describe(e)}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Permissions" className="flex flex-col gap-1 text-sm">
        <h2 className="font-medium">It will be able to</h2>
        <ul className="list-disc pl-5">
          {view.scopes.map((scope) => (
            <li key={scope}>{SCOPE_DESCRIPTIONS[scope] ?? scope}</li>
          ))}
        </ul>
        <p className="text-muted">
          {viewer
            ? "You are a viewer, so it will only be able to list and read, not call tools."
            : "What it may do follows your role in the workspace, checked on every call."}
        </p>
      </section>
      {view.redirectHost && <p className="text-sm text-muted break-words">Your answer goes back to {view.redirectHost}.</p>}
      <ConsentActions />
    </div>
  );
}

function describe(e: ConsentEndpoint) {
  return e.serverName === null ? (
    <>
      every server <strong className="text-fg">{e.workspace.name}</strong> exposes through the gateway
    </>
  ) : (
    <>
      the server <strong className="text-fg">{e.serverName}</strong> in <strong className="text-fg">{e.workspace.name}</strong>
    </>
  );
}

/** Text the client registered about itself: shown as text, visibly quoted. */
function Untrusted({ children }: { children: string }) {
  return <q className="font-medium text-fg break-all">{children}</q>;
}

function clip(value: string | null): string | null {
  if (!value?.trim()) return null;
  const text = value.trim().replace(/\s+/g, " ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3" role="status">
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="text-sm text-muted">{children}</p>
    </div>
  );
}
