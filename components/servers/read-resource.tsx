"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { CallErrorAlert } from "@/components/calls/call-error-alert";
import { ResultView } from "@/components/calls/result-view";
import { isRunShortcut, parseTimeout, RunControls } from "@/components/calls/run-controls";
import { useCallRunner } from "@/lib/domains/calls/hooks";

interface ReadResourceProps {
  serverId: string;
  uri: string;
  defaultTimeoutMs?: number;
  disabled?: boolean;
  /** Each new value (the time an update was heard) reads the resource again. */
  rereadOn?: string;
}

/** Reads one resource URI (resources/read) and shows the call. */
export function ReadResource({ serverId, uri, defaultTimeoutMs, disabled, rereadOn }: ReadResourceProps) {
  const runner = useCallRunner();
  const [timeoutMs, setTimeoutMs] = useState("");
  const read = (origin: "user" | "subscription" = "user") => {
    if (!runner.running && uri && !disabled) runner.start(serverId, "resources/read", { uri, timeoutMs: parseTimeout(timeoutMs), origin });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (isRunShortcut(event)) {
      event.preventDefault();
      read();
    }
  };
  // A subscribed resource changed on the server: read it again (synchronising with an external event).
  const lastReread = useRef(rereadOn);
  useEffect(() => {
    if (!rereadOn || rereadOn === lastReread.current || runner.running) return;
    lastReread.current = rereadOn;
    // Recorded as automatic work: history hides it unless asked for.
    read("subscription");
  });
  return (
    <div className="flex flex-col gap-3" onKeyDown={onKeyDown}>
      <RunControls
        runLabel="Read"
        onRun={() => read()}
        onCancel={runner.cancel}
        running={runner.running}
        cancelling={runner.cancelling}
        elapsedMs={runner.elapsedMs}
        timeoutMs={timeoutMs}
        onTimeoutChange={setTimeoutMs}
        defaultTimeoutMs={defaultTimeoutMs}
        disabled={!uri || disabled}
      />
      <CallErrorAlert error={runner.error} />
      {runner.call && !runner.running && <ResultView call={runner.call} />}
    </div>
  );
}
