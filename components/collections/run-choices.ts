import { useState } from "react";
import { useEnvironments } from "@/lib/domains/collections/hooks";

/** What a person last chose to run a collection with, kept per collection in this browser. */
export interface RunChoices {
  environment: string;
  stopOnFailure: boolean;
}

const DEFAULTS: RunChoices = { environment: "", stopOnFailure: true };
const key = (collectionId: string) => `switchboard.run-choices.${collectionId}`;

/** The remembered choices (the defaults when none, or when storage is refused). */
export function loadRunChoices(collectionId: string): RunChoices {
  try {
    const stored = JSON.parse(window.localStorage.getItem(key(collectionId)) ?? "null") as Partial<RunChoices> | null;
    return {
      environment: typeof stored?.environment === "string" ? stored.environment : DEFAULTS.environment,
      stopOnFailure: typeof stored?.stopOnFailure === "boolean" ? stored.stopOnFailure : DEFAULTS.stopOnFailure,
    };
  } catch {
    return DEFAULTS;
  }
}

export function saveRunChoices(collectionId: string, choices: RunChoices): void {
  try {
    window.localStorage.setItem(key(collectionId), JSON.stringify(choices));
  } catch {
    // Storage full or refused (private mode): the choice lasts for this page only.
  }
}

/**
 * The run choices of one collection's page, shared by its Run panel and its step list (whose labels
 * read with the chosen environment's values). A remembered environment that was deleted or renamed
 * since is no choice at all.
 */
export function useRunChoices(collectionId: string) {
  const environments = useEnvironments();
  // Rendered in the browser only (the page is a client shell), so storage can be read at once.
  const [choices, setChoices] = useState<RunChoices>(() => loadRunChoices(collectionId));
  const choose = (patch: Partial<RunChoices>) => {
    const next = { ...choices, ...patch };
    setChoices(next);
    saveRunChoices(collectionId, next);
  };
  const environment = environments.data && !environments.data.some((e) => e.name === choices.environment) ? "" : choices.environment;
  return { environment, stopOnFailure: choices.stopOnFailure, choose };
}

export type RunChoicesState = ReturnType<typeof useRunChoices>;
