"use client";

import { useState } from "react";
import type { RespondInteraction } from "@/lib/domains/interactions";
import { useRespondInteraction } from "@/lib/domains/interactions/hooks";

/**
 * The answer plumbing shared by the interaction dialogs. Esc (or a click on the backdrop) closes
 * the native dialog at once and sends `onDismiss`; if any answer fails, the dialog opens again so
 * its error is seen and the request is not left pending behind a closed dialog.
 */
export function useAnswer(id: string, onDismiss: RespondInteraction) {
  const respond = useRespondInteraction(id);
  const [dismissed, setDismissed] = useState(false);
  const answer = (input: RespondInteraction) => respond.mutate(input, { onError: () => setDismissed(false) });
  const dismiss = () => {
    if (dismissed) return;
    setDismissed(true);
    if (!respond.isPending) answer(onDismiss);
  };
  return { respond, answer, dismiss, open: !dismissed };
}
