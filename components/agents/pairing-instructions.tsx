"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { formatTime } from "@/components/calls/format";
import { PAIRING_TTL_MS, type PairingDto } from "@/lib/domains/agents";

const CONFIG_EXAMPLE = `{
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }
  }
}`;

/** `npx -y <console>/agent.tgz pair <code> --console <console>` → `npx -y <console>/agent.tgz start`. */
function startCommand(pairCommand: string): string {
  const at = pairCommand.indexOf(" pair ");
  return at > 0 ? `${pairCommand.slice(0, at)} start` : "switchboard-agent start";
}

function Command({ text, testId }: { text: string; testId: string }) {
  return <pre data-testid={testId} className="overflow-x-auto rounded-md border bg-raised px-3 py-2 font-mono text-xs whitespace-pre-wrap break-all select-all">{text}</pre>;
}

function Step({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-2">
      <p className="font-medium">{title}</p>
      {children}
    </li>
  );
}

/** The one-time pairing command (shown once), its expiry, and what to do next. */
export function PairingInstructions({ pairing, onDone }: { pairing: PairingDto; onDone: () => void }) {
  const start = startCommand(pairing.command);
  return (
    <section aria-labelledby="pairing-title" className="flex flex-col gap-4 rounded-lg border bg-panel p-4">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="pairing-title" className="text-sm font-semibold">
            Pair an agent on your machine
          </h2>
          <p className="text-xs text-muted">
            The agent connects out to this console and relays the stdio MCP servers its local config lists. Nothing on your machine is exposed.
          </p>
        </div>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm marker:text-muted">
        <Step title="Run this command on the machine (Node 20 or newer)">
          <div className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <Command text={pairing.command} testId="pairing-command" />
            </div>
            <CopyButton text={pairing.command} label="Copy command" size="md" />
          </div>
          <p className="text-xs text-muted">
            Code <code className="font-mono text-fg" data-testid="pairing-code">{pairing.code}</code> works once and expires at{" "}
            <time dateTime={pairing.expiresAt}>{formatTime(pairing.expiresAt)}</time> ({Math.round(PAIRING_TTL_MS / 60_000)} minutes). The agent saves its token in{" "}
            <code className="font-mono">~/.config/switchboard/agent.json</code> (mode 0600).
          </p>
        </Step>
        <Step title="List the servers the console may use">
          <p className="text-xs text-muted">
            In <code className="font-mono">~/.config/switchboard/servers.json</code>, in the usual <code className="font-mono">mcpServers</code> shape (a Claude Desktop config works as is). The agent runs
            only these commands, without a shell, with a minimal environment plus each entry&apos;s <code className="font-mono">env</code>.
          </p>
          <Command text={CONFIG_EXAMPLE} testId="pairing-config-example" />
        </Step>
        <Step title="Start the agent and leave it running">
          <div className="flex items-start gap-2">
            <div className="min-w-0 flex-1">
              <Command text={start} testId="pairing-start-command" />
            </div>
            <CopyButton text={start} label="Copy start command" size="md" />
          </div>
          <p className="text-xs text-muted">
            Add <code className="font-mono">--config path/to/servers.json</code> to use another file. It shows up below as <strong>online</strong> with its servers.
          </p>
        </Step>
      </ol>
    </section>
  );
}
