"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { useCollections } from "@/lib/domains/collections/hooks";
import { useServers } from "@/lib/domains/servers/hooks";
import { useStartLoadTest, type LoadTestInput } from "@/lib/domains/load-tests/hooks";

type Target = "collection" | "call";
type Limit = "duration" | "count";

/** The form's text, read into the API's body (or the first thing wrong with it). */
function toInput(f: { target: Target; collectionId: string; serverId: string; tool: string; args: string; users: string; limit: Limit; amount: string; rampUp: string; think: string }): LoadTestInput | string {
  const users = Number(f.users);
  const amount = Number(f.amount);
  if (!Number.isInteger(users) || users < 1) return "Users: a whole number of at least 1";
  if (!(amount > 0)) return f.limit === "duration" ? "Duration: a number of seconds above 0" : "Calls: a whole number of at least 1";
  const base = { users, rampUpSeconds: Number(f.rampUp) || 0, thinkMs: Number(f.think) || 0, ...(f.limit === "duration" ? { durationSeconds: amount } : { count: Math.round(amount) }) };
  if (f.target === "collection") return f.collectionId ? { ...base, collectionId: f.collectionId } : "Choose a collection";
  if (!f.serverId || !f.tool.trim()) return "Choose a server and name a tool";
  let args: unknown;
  try {
    args = f.args.trim() ? JSON.parse(f.args) : {};
  } catch {
    return "Arguments: not valid JSON";
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return "Arguments: a JSON object";
  return { ...base, call: { serverId: f.serverId, tool: f.tool.trim(), arguments: args as Record<string, unknown> } };
}

/** New load test: a collection, or one call on a server's tool with JSON arguments; users, duration or count, ramp-up, think time. */
export function NewLoadTestDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const start = useStartLoadTest();
  const router = useRouter();
  const collections = useCollections(open);
  const servers = useServers();
  const [form, setForm] = useState({ target: "call" as Target, collectionId: "", serverId: "", tool: "", args: "{}", users: "4", limit: "duration" as Limit, amount: "10", rampUp: "0", think: "0" });
  const [problem, setProblem] = useState<string | null>(null);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = toInput(form);
    if (typeof input === "string") return setProblem(input);
    setProblem(null);
    start.mutate(input, { onSuccess: (t) => router.push(`/load-tests/${t.id}`) });
  }

  return (
    <Dialog open={open} onClose={onClose} title="New load test">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="mb-1 text-xs font-medium">What to run</legend>
          {(["call", "collection"] as const).map((t) => (
            <label key={t} className="flex items-center gap-1.5">
              <input type="radio" name="target" value={t} checked={form.target === t} onChange={set("target")} />
              {t === "call" ? "One call" : "A collection"}
            </label>
          ))}
        </fieldset>
        {form.target === "collection" ? (
          <Field label="Collection" required>
            {(props) => (
              <Select {...props} value={form.collectionId} onChange={set("collectionId")}>
                <option value="">Choose…</option>
                {(collections.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        ) : (
          <>
            <Field label="Server" required>
              {(props) => (
                <Select {...props} value={form.serverId} onChange={set("serverId")}>
                  <option value="">Choose…</option>
                  {(servers.data ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Tool" required>
              {(props) => <Input {...props} value={form.tool} onChange={set("tool")} placeholder="echo" autoComplete="off" />}
            </Field>
            <Field label="Arguments (JSON)">{(props) => <Textarea {...props} rows={3} className="font-mono text-xs" value={form.args} onChange={set("args")} />}</Field>
          </>
        )}
        <div className="grid grid-cols-2 gap-3">
          <Field label="Users" hint="Each its own MCP session">
            {(props) => <Input {...props} type="number" min={1} inputMode="numeric" value={form.users} onChange={set("users")} />}
          </Field>
          <Field label="Stop after">
            {(props) => (
              <Select {...props} value={form.limit} onChange={set("limit")}>
                <option value="duration">a duration (s)</option>
                <option value="count">a number of calls</option>
              </Select>
            )}
          </Field>
          <Field label={form.limit === "duration" ? "Duration (s)" : "Calls"}>
            {(props) => <Input {...props} type="number" min={1} inputMode="decimal" value={form.amount} onChange={set("amount")} />}
          </Field>
          <Field label="Ramp-up (s)">{(props) => <Input {...props} type="number" min={0} inputMode="decimal" value={form.rampUp} onChange={set("rampUp")} />}</Field>
          <Field label="Think time (ms)" hint="Between a user's calls">
            {(props) => <Input {...props} type="number" min={0} inputMode="numeric" value={form.think} onChange={set("think")} />}
          </Field>
        </div>
        {problem && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
        <ErrorAlert error={start.error} title="Could not start the load test" />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={start.isPending}>
            Start
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
