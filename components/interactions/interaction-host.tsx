"use client";

import { lazy, Suspense } from "react";
import { usePendingInteractions } from "@/lib/domains/interactions/hooks";
import type { InteractionDto } from "@/lib/domains/interactions";
import { useCan } from "@/lib/identity/auth/hooks";

// Every console page mounts this host; the dialogs (forms, sampling, their validation) load when a request arrives.
const ElicitationFormDialog = lazy(() => import("./elicitation-form-dialog").then((m) => ({ default: m.ElicitationFormDialog })));
const SamplingDialog = lazy(() => import("./sampling-dialog").then((m) => ({ default: m.SamplingDialog })));
const UrlElicitationDialog = lazy(() => import("./url-elicitation-dialog").then((m) => ({ default: m.UrlElicitationDialog })));

/**
 * Mounted once in the console frame: shows the oldest pending server-initiated request of the
 * workspace as a dialog (elicitation form, URL consent, or sampling), one at a time.
 */
export function InteractionHost() {
  const pending = usePendingInteractions();
  // Viewers cannot answer (the API refuses them), so nothing pops up for them.
  const canAnswer = useCan("member").allowed;
  const queue = [...(pending.data ?? [])].reverse();
  const current = queue[0];
  if (!current || !canAnswer) return null;
  return (
    <Suspense fallback={null}>
      <InteractionDialog key={current.id} interaction={current} waiting={queue.length - 1} />
    </Suspense>
  );
}

function InteractionDialog({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  switch (interaction.kind) {
    case "elicitation-form":
      return <ElicitationFormDialog interaction={interaction} waiting={waiting} />;
    case "elicitation-url":
      return <UrlElicitationDialog interaction={interaction} waiting={waiting} />;
    case "sampling":
      return <SamplingDialog interaction={interaction} waiting={waiting} />;
  }
}
