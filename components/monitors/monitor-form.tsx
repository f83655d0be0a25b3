"use client";

import { useMemo, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { EnvironmentSelect } from "@/components/collections/environment-select";
import { useCollections } from "@/lib/domains/collections/hooks";
import type { MonitorDto, MonitorSchedule } from "@/lib/watch/monitors";
import { useCreateMonitor, useUpdateMonitor, type MonitorInput } from "@/lib/watch/monitors/hooks";
import { fieldOfError, type MonitorField } from "./field-error";
import { cronPreview, everyInWords, localTimeZone, timeZones } from "./schedule";

const list = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

/**
 * Create a monitor (pick a collection) or edit one. Webhook URLs are secrets the API shows only
 * masked: editing keeps them unless new ones are typed (or they are removed).
 */
export function MonitorForm({ monitor, collectionId, onDone, onCancel }: { monitor?: MonitorDto; collectionId?: string; onDone: (m: MonitorDto) => void; onCancel: () => void }) {
  const collections = useCollections();
  const create = useCreateMonitor();
  const update = useUpdateMonitor(monitor?.id ?? "");
  const mutation = monitor ? update : create;
  const zones = useMemo(timeZones, []);

  const initial = monitor?.schedule;
  const [collection, setCollection] = useState(monitor?.collectionId ?? collectionId ?? "");
  const [name, setName] = useState(monitor?.name ?? "");
  const [environment, setEnvironment] = useState(monitor?.environment ?? "");
  const [kind, setKind] = useState<"interval" | "cron">(initial && "cron" in initial ? "cron" : "interval");
  const [every, setEvery] = useState(String(initial && "everySeconds" in initial ? initial.everySeconds : 300));
  const [cron, setCron] = useState(initial && "cron" in initial ? initial.cron : "*/5 * * * *");
  const [timeZone, setTimeZone] = useState(initial && "cron" in initial ? initial.timeZone : localTimeZone());
  const [mail, setMail] = useState(monitor?.alerts.mail.join("\n") ?? "");
  const [webhooks, setWebhooks] = useState("");
  const [dropWebhooks, setDropWebhooks] = useState(false);
  const [maxDuration, setMaxDuration] = useState(monitor?.alerts.maxDurationMs ? String(monitor.alerts.maxDurationMs) : "");

  const problem = fieldOfError(mutation.error);
  const errorOf = (field: MonitorField) => (problem?.field === field ? problem.message : null);
  const preview = kind === "cron" ? cronPreview(cron, timeZone) : null;
  const seconds = Number(every);
  const keptWebhooks = monitor?.alerts.webhooks ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    const schedule: MonitorSchedule = kind === "interval" ? { everySeconds: seconds } : { cron: cron.trim(), timeZone };
    const alerts: MonitorInput["alerts"] = { mail: list(mail), maxDurationMs: maxDuration.trim() ? Number(maxDuration) : null };
    if (!monitor || webhooks.trim() || dropWebhooks) alerts.webhooks = dropWebhooks ? [] : list(webhooks);
    const common = { name: name.trim() || undefined, environment: environment || null, schedule, alerts };
    if (monitor) update.mutate(common, { onSuccess: onDone });
    else create.mutate({ ...common, collectionId: collection }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} aria-label={monitor ? "Edit monitor" : "New monitor"} className="flex flex-col gap-3">
      {!monitor && (
        <Field label="Collection" required error={errorOf("collection")}>
          {(props) => (
            <Select {...props} data-autofocus value={collection} onChange={(e) => setCollection(e.target.value)}>
              <option value="">Choose a collection…</option>
              {collections.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      <Field label="Name" hint="Defaults to the collection's name." error={errorOf("name")}>
        {(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Environment" error={errorOf("environment")}>
        {(props) => (
          <EnvironmentSelect {...props} value={environment} onPick={setEnvironment} />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs font-medium">Schedule</legend>
        <div className="flex gap-4 text-sm">
          {(["interval", "cron"] as const).map((k) => (
            <label key={k} className="flex items-center gap-1.5">
              <input type="radio" name="schedule-kind" checked={kind === k} onChange={() => setKind(k)} />
              {k === "interval" ? "Every few seconds" : "Cron expression"}
            </label>
          ))}
        </div>
        {kind === "interval" ? (
          <Field label="Every (seconds)" hint={seconds >= 1 ? everyInWords(seconds) : "5 seconds at least"} error={errorOf("everySeconds") ?? errorOf("schedule")}>
            {(props) => <Input {...props} type="number" min={5} value={every} onChange={(e) => setEvery(e.target.value)} className="w-40" />}
          </Field>
        ) : (
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            <Field
              label="Cron"
              hint={preview && "next" in preview ? `Next: ${preview.next.map((d) => d.toLocaleString(undefined, { timeZone, dateStyle: "short", timeStyle: "short" })).join(", ")}` : preview?.problem}
              error={errorOf("cron") ?? errorOf("schedule")}
            >
              {(props) => <Input {...props} value={cron} onChange={(e) => setCron(e.target.value)} className="font-mono" />}
            </Field>
            <Field label="Time zone" error={errorOf("timeZone")}>
              {(props) => (
                <Select {...props} value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
                  {zones.map((z) => (
                    <option key={z}>{z}</option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs font-medium">Alerts</legend>
        <p className="text-xs text-muted">One alert when a run fails, one when it recovers; every alert also shows in the console.</p>
        <Field label="Mail to" hint="Addresses, one a line or comma separated." error={errorOf("mail")}>
          {(props) => <Textarea {...props} rows={2} value={mail} onChange={(e) => setMail(e.target.value)} />}
        </Field>
        <Field
          label="Webhooks"
          hint={
            monitor && keptWebhooks.length && !dropWebhooks
              ? `Keeps ${keptWebhooks.join(", ")} unless you type new URLs here.`
              : "URLs that get a JSON POST (Slack's incoming webhooks read its text). Stored encrypted, shown masked."
          }
          error={errorOf("webhooks")}
        >
          {(props) => <Textarea {...props} rows={2} value={webhooks} disabled={dropWebhooks} onChange={(e) => setWebhooks(e.target.value)} placeholder="https://hooks.slack.com/services/…" />}
        </Field>
        {monitor && keptWebhooks.length > 0 && (
          <label className="flex items-center gap-1.5 text-xs">
            <input type="checkbox" checked={dropWebhooks} onChange={(e) => setDropWebhooks(e.target.checked)} />
            Remove the current webhooks
          </label>
        )}
        <Field label="Slow after (ms)" hint="A run longer than this opens a slow incident. Empty: no budget." error={errorOf("maxDuration")}>
          {(props) => <Input {...props} type="number" min={1} value={maxDuration} onChange={(e) => setMaxDuration(e.target.value)} className="w-40" />}
        </Field>
      </fieldset>
      {problem && !problem.field && <ErrorAlert error={mutation.error} title={monitor ? "Could not save the monitor" : "Could not create the monitor"} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={mutation.isPending} disabled={!monitor && !collection}>
          {monitor ? "Save monitor" : "Create monitor"}
        </Button>
      </div>
    </form>
  );
}
