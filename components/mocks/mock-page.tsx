"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatDuration, formatTime } from "@/components/calls/format";
import { isApiError } from "@/lib/core/api-client";
import { useCan } from "@/lib/identity/auth/hooks";
import type { MockDto } from "@/lib/domains/mocks";
import { useMock, useUpdateMock } from "@/lib/domains/mocks/hooks";
import { StartReplayButton } from "@/components/replays/start-replay";
import { DeleteMockButton, ExportMockLink } from "./mock-actions";
import { parseIgnore, usageSnippet, type MockSettingsDraft } from "./mock-form";
import { MockSettingsFields } from "./mock-settings-fields";

/** One mock: its endpoint and how to use it, how it matches (editable), its recordings. */
export function MockPage({ id }: { id: string }) {
  const mock = useMock(id);
  if (mock.isPending) return <Skeleton className="h-40 w-full" />;
  if (mock.error) {
    return isApiError(mock.error, "not_found") ? <Alert title="Mock not found">It was deleted, or belongs to another workspace.</Alert> : <ErrorAlert error={mock.error} title="Could not load the mock" />;
  }
  return <MockView mock={mock.data} />;
}

function MockView({ mock }: { mock: MockDto }) {
  const router = useRouter();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const snippet = usageSnippet({ origin, endpoint: mock.endpoint, id: mock.id });
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-muted">
            <Link href="/mocks" className="text-accent underline underline-offset-2">
              Mocks
            </Link>{" "}
            · of {mock.serverName ? <Link href={`/servers/${mock.serverId}`} className="text-accent underline underline-offset-2">{mock.serverName}</Link> : "a deleted server"} · made{" "}
            {formatTime(mock.createdAt, true)}
            {mock.createdByName ? ` by ${mock.createdByName}` : ""}
          </p>
          <h1 className="font-mono text-lg font-semibold tracking-tight break-all">{mock.name}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          <ExportMockLink mock={mock} />
          <StartReplayButton selection={{ mockId: mock.id, label: mock.name }} label="Replay against a server…" />
          <DeleteMockButton mock={mock} onDeleted={() => router.push("/mocks")} />
        </div>
      </div>

      <section aria-labelledby="mock-usage" className="flex flex-col gap-2">
        <h2 id="mock-usage" className="text-sm font-semibold">
          Endpoint and how to use it
        </h2>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <code data-testid="mock-endpoint" className="font-mono text-xs break-all">
            {origin}
            {mock.endpoint}
          </code>
          <CopyButton text={`${origin}${mock.endpoint}`} label="Copy URL" />
        </p>
        <p className="text-xs text-muted">
          Hosts connect with an API token that opens the gateway (<Link href="/settings/tokens" className="text-accent underline underline-offset-2">Settings → API tokens</Link>).
          The mock answers <code>initialize</code>, the lists and each recorded call; its calls are in History (origin “mock”).
        </p>
        <pre role="region" tabIndex={0} aria-label="How to use the mock" className="overflow-x-auto rounded-md border bg-panel p-3 font-mono text-xs whitespace-pre">
          {snippet}
        </pre>
        <CopyButton text={snippet} label="Copy the commands" />
      </section>

      <SettingsForm key={mock.id} mock={mock} />

      <section aria-labelledby="mock-recordings" className="flex flex-col gap-2">
        <h2 id="mock-recordings" className="text-sm font-semibold">
          Recordings ({mock.calls})
        </h2>
        <Table columns={["#", "Call", "Arguments", "Answer", { name: "Recorded", align: "right" }]} aria-label="Recordings">
          {(mock.recordings ?? []).map((r) => (
            <Row key={r.index}>
              <Cell className="text-xs text-muted tabular-nums">{r.index + 1}</Cell>
              <Cell label="Call">
                <span className="text-xs text-muted">{r.method}</span> <span className="font-mono break-all">{r.name}</span>
              </Cell>
              <Cell label="Arguments">
                <code className="font-mono text-xs break-all">{r.arguments === null || r.arguments === undefined ? "–" : typeof r.arguments === "string" ? r.arguments : JSON.stringify(r.arguments)}</code>
              </Cell>
              <Cell label="Answer" className="text-xs">
                {r.status === "ok" ? "result" : "JSON-RPC error"} · {formatDuration(r.durationMs)}
              </Cell>
              <Cell label="Recorded" className="text-xs sm:text-right">
                {r.callId ? (
                  <Link href={`/calls/${r.callId}`} className="text-accent underline underline-offset-2">
                    the call
                  </Link>
                ) : (
                  "–"
                )}
              </Cell>
            </Row>
          ))}
        </Table>
      </section>
    </div>
  );
}

function SettingsForm({ mock }: { mock: MockDto }) {
  const update = useUpdateMock(mock.id);
  const can = useCan("member");
  const [draft, setDraft] = useState<MockSettingsDraft>({ match: mock.match, ignore: mock.ignore.join("\n"), latency: mock.latency });
  const [tried, setTried] = useState(false);
  const ignore = parseIgnore(draft.ignore);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if ("problem" in ignore) return;
    update.mutate({ match: draft.match, ignore: ignore.ignore, latency: draft.latency });
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="mock-settings" className="flex max-w-2xl flex-col gap-3 rounded-lg border p-4" noValidate>
      <h2 id="mock-settings" className="text-sm font-semibold">
        Matching
      </h2>
      <fieldset disabled={!can.allowed} className="flex flex-col gap-3">
        <MockSettingsFields value={draft} onChange={setDraft} problem={tried && "problem" in ignore ? ignore.problem : null} />
      </fieldset>
      {!can.allowed && can.reason && <p className="text-xs text-muted">{can.reason}</p>}
      {update.error && <ErrorAlert error={update.error} title="Could not save" />}
      {update.isSuccess && <p role="status" className="text-xs text-muted">Saved.</p>}
      <div>
        <Button type="submit" variant="primary" size="sm" busy={update.isPending} disabled={!can.allowed}>
          Save matching
        </Button>
      </div>
    </form>
  );
}
