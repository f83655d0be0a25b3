"use client";

import { JsonTree } from "@/components/ui/json-tree";
import { useCall } from "@/lib/domains/calls/hooks";
import { useRun } from "@/lib/domains/collections/hooks";
import { pickedValue, type AssertionDraft } from "./assertion-draft";

/** A step's last recorded result, or why there is none to pick from. */
export type Recorded = { result: unknown; from: string } | { note: string };

/**
 * The result of `stepId`'s call in the collection's last run (`runId`), else the snapshot the step
 * keeps (`kept`), else a note saying how to get one.
 */
export function useRecordedResult(runId: string | null, stepId: string | undefined, kept: unknown): Recorded {
  const run = useRun(stepId ? runId : null);
  const callId = run.data?.steps.find((s) => s.stepId === stepId)?.callId ?? null;
  const call = useCall(callId ?? "", !!callId);
  if (call.data && call.data.result !== undefined && call.data.result !== null) return { result: call.data.result, from: "the last run" };
  if (kept !== undefined) return { result: kept, from: "the kept snapshot" };
  if (!stepId) return { note: "Save the step and run the collection to pick values from its result." };
  if ((run.isPending && !!runId) || (callId && call.isPending)) return { note: "Loading the last recorded result…" };
  return { note: "No recorded result yet: run the collection to pick values from this step's result." };
}

/** The recorded result as a tree: clicking a value fills in its JSON pointer and the value expected. */
export function ResultPicker({ recorded, index, onPick }: { recorded?: Recorded; index: number; onPick: (patch: Partial<AssertionDraft>) => void }) {
  if (!recorded) return null;
  if ("note" in recorded) return <p className="text-xs text-muted">{recorded.note}</p>;
  return (
    <details open className="rounded-md border bg-panel p-2" data-testid="result-picker">
      <summary className="cursor-pointer text-xs font-medium">Pick a value from {recorded.from}</summary>
      <p className="mt-1 text-xs text-muted">Click a value: its path and the value fill in the fields above.</p>
      <div className="mt-1 max-h-64 overflow-y-auto">
        <JsonTree value={recorded.result} openDepth={4} label={`Recorded result for assertion ${index + 1}`} onPick={(pointer, value) => onPick(pickedValue(pointer, value))} />
      </div>
    </details>
  );
}
