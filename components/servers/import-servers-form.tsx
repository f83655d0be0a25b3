"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/field";
import { useImportServers } from "@/lib/domains/servers/hooks";
import { serverState, ServerStatusLabel } from "./server-status";

const EXAMPLE = `{
  "mcpServers": {
    "remote": { "url": "http://127.0.0.1:3001/mcp" },
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }
  }
}`;

/** Imports an mcpServers file (Claude Desktop, Cursor, VS Code). */
export function ImportServersForm() {
  const importServers = useImportServers();
  const [config, setConfig] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  const result = importServers.data;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      JSON.parse(config);
    } catch (err) {
      setParseError(`Not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    setParseError(null);
    importServers.mutate(config);
  }

  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Import servers">
        <Field
          label="mcpServers JSON"
          error={parseError}
          hint={
            <>
              Paste a Claude Desktop or Cursor <code>mcpServers</code> file, or a VS Code <code>servers</code> block. Entries with a{" "}
              <code>url</code> become HTTP servers; entries with a <code>command</code> (stdio) wait for an agent relay that announces the same
              name. Names that already exist are skipped.
            </>
          }
        >
          {(p) => <Textarea {...p} rows={12} spellCheck={false} placeholder={EXAMPLE} value={config} onChange={(e) => setConfig(e.target.value)} />}
        </Field>
        <ErrorAlert error={importServers.error} title="Import failed" />
        <div>
          <Button type="submit" variant="primary" busy={importServers.isPending} disabled={!config.trim()}>
            Import
          </Button>
        </div>
      </form>

      {result && (
        <section aria-label="Import result" className="flex flex-col gap-3">
          <Alert tone={result.created.length ? "success" : "info"} title={`Created ${result.created.length}, skipped ${result.skipped.length}`} />
          {result.created.length > 0 && (
            <div>
              <h3 className="mb-1 text-xs font-semibold text-muted uppercase">Created</h3>
              <ul className="divide-y rounded-md border">
                {result.created.map((server) => (
                  <li key={server.id} className="flex items-center gap-3 px-3 py-2">
                    <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
                      {server.name}
                    </Link>
                    <Badge>{server.kind}</Badge>
                    <span className="min-w-0 flex-1 truncate font-mono text-xs text-muted">
                      {server.url ?? [server.stdio?.command, ...(server.stdio?.args ?? [])].join(" ")}
                    </span>
                    <ServerStatusLabel state={serverState(server)} />
                  </li>
                ))}
              </ul>
              {result.created.some((s) => s.kind === "stdio") && (
                <p className="mt-2 text-xs text-muted">
                  stdio entries wait for the agent relay: run the Switchboard agent on the machine that has these commands, and they come online
                  when it announces them.
                </p>
              )}
            </div>
          )}
          {result.skipped.length > 0 && (
            <div>
              <h3 className="mb-1 text-xs font-semibold text-muted uppercase">Skipped</h3>
              <ul className="divide-y rounded-md border">
                {result.skipped.map((s) => (
                  <li key={s.name} className="flex gap-3 px-3 py-2">
                    <span className="font-medium">{s.name}</span>
                    <span className="text-muted">{s.reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
    </div>
  );
}
