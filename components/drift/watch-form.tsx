"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { useCan } from "@/lib/identity/auth/hooks";
import type { WatchDto } from "@/lib/watch/drift";
import { useCapabilityWatch, useSetCapabilityWatch } from "@/lib/watch/drift/hooks";
import type { ServerDto } from "@/lib/domains/servers";

const list = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

/** Watching a server: breaking changes raise an alert in the console, by mail and to webhooks (admins set it). */
export function WatchForm({ server }: { server: ServerDto }) {
  const watch = useCapabilityWatch(server.id);
  if (watch.isPending) return <Skeleton className="h-24" />;
  if (watch.error) return <ErrorAlert error={watch.error} title="Could not load the watch" />;
  return <WatchEditor key={watch.data?.createdAt ?? "none"} server={server} watch={watch.data} />;
}

function WatchEditor({ server, watch }: { server: ServerDto; watch: WatchDto | null }) {
  const admin = useCan("admin").allowed;
  const save = useSetCapabilityWatch(server.id);
  const [mail, setMail] = useState(watch?.mail.join("\n") ?? "");
  // Stored webhook URLs are never shown again (they carry tokens): typing here replaces them.
  const [webhooks, setWebhooks] = useState("");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ mail: list(mail), ...(webhooks.trim() || !watch ? { webhooks: list(webhooks) } : {}) }, { onSuccess: () => setWebhooks("") });
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="watch-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="watch-title" className="text-sm font-semibold">
          Watch for breaking changes
        </h2>
        <Badge tone={watch ? "green" : "neutral"} testId="watch-status">
          {watch ? "watched" : "not watched"}
        </Badge>
      </div>
      <p className="text-sm text-muted">
        When a new snapshot removes a tool or prompt, adds a required argument, narrows a type or removes an enum value, the console raises an alert
        here, by mail and to each webhook (JSON, accepted by Slack’s incoming webhooks).
      </p>
      <fieldset disabled={!admin} className="grid gap-3 sm:grid-cols-2">
        <Field label="Mail addresses" hint="One per line">
          {(props) => <Textarea {...props} rows={2} value={mail} onChange={(e) => setMail(e.target.value)} />}
        </Field>
        <Field label="Webhook URLs" hint={watch?.webhooks.length ? `Set: ${watch.webhooks.join(", ")} (type to replace them)` : "One per line"}>
          {(props) => <Textarea {...props} rows={2} value={webhooks} onChange={(e) => setWebhooks(e.target.value)} placeholder="https://hooks.slack.com/services/…" />}
        </Field>
      </fieldset>
      {save.error && <ErrorAlert error={save.error} title="Could not save the watch" />}
      {admin ? (
        <div className="flex gap-2">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {watch ? "Save watch" : "Watch this server"}
          </Button>
          {watch && (
            <Button variant="ghost" busy={save.isPending} onClick={() => save.mutate(null)}>
              Stop watching
            </Button>
          )}
        </div>
      ) : (
        <p className="text-xs text-muted">Only admins change the watch.</p>
      )}
    </form>
  );
}
