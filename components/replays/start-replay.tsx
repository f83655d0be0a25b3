"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select, Textarea } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import type { CallFilters } from "@/lib/domains/calls/hooks";
import { MAX_REPLAY_CALLS } from "@/lib/domains/replays";
import { useStartReplay } from "@/lib/domains/replays/hooks";
import { useServers } from "@/lib/domains/servers/hooks";

/** What to send again: the ticked calls, the calls the history's filters select, or a mock's recordings. */
export type ReplaySelection = { callIds: string[] } | { filter: CallFilters } | { mockId: string; label: string };

function describe(selection: ReplaySelection): string {
  if ("callIds" in selection) return `the ${selection.callIds.length === 1 ? "ticked call" : `${selection.callIds.length} ticked calls`}`;
  if ("filter" in selection) return `the calls the current filters select (at most ${MAX_REPLAY_CALLS})`;
  return `the recordings of the mock ${selection.label}`;
}

/** The body's selection: history's filter values without the empty ones. */
function body(selection: ReplaySelection) {
  if ("callIds" in selection) return { callIds: selection.callIds };
  if ("mockId" in selection) return { mockId: selection.mockId };
  return { filter: Object.fromEntries(Object.entries(selection.filter).filter(([, v]) => v !== undefined && v !== "")) };
}

/** "Replay…": sends a selection again to a server of choice and opens the replay's report. */
export function StartReplayButton({ selection, label = "Replay…" }: { selection: ReplaySelection; label?: string }) {
  const [open, setOpen] = useState(false);
  const [serverId, setServerId] = useState("");
  const [ignore, setIgnore] = useState("");
  const servers = useServers();
  const start = useStartReplay();
  const router = useRouter();
  const live = (servers.data ?? []).filter((s) => !s.archivedAt);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const pointers = ignore
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const replay = await start.mutateAsync({ ...body(selection), serverId, ignore: pointers }).catch(() => null);
    if (replay) router.push(`/replays/${replay.id}`);
  }

  return (
    <>
      <RoleGate min="member">
        <Button size="sm" onClick={() => setOpen(true)}>
          {label}
        </Button>
      </RoleGate>
      <Dialog open={open} onClose={() => setOpen(false)} title="Replay against a server" description={`Sends ${describe(selection)} again, with their original arguments, to the server you choose, and compares each answer with the recorded one.`}>
        <form onSubmit={submit} className="flex flex-col gap-3">
          <Field label="Target server" required hint="Usually a new version of the server the calls were recorded against.">
            {(props) => (
              <Select {...props} data-autofocus value={serverId} onChange={(e) => setServerId(e.target.value)}>
                <option value="">Choose a server…</option>
                {live.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Ignore paths" hint='JSON pointers into the answer, one per line, e.g. /result/content/0/text or /result/structuredContent/at; "*" matches any key or index.'>
            {(props) => <Textarea {...props} rows={3} className="font-mono text-xs" value={ignore} onChange={(e) => setIgnore(e.target.value)} />}
          </Field>
          <ErrorAlert error={start.error} title="Could not start the replay" />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" busy={start.isPending} disabled={!serverId}>
              Start replay
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
