import "server-only";
import { joinSecretValues, type SecretValues } from "./secret-values";
import { piece } from "@/lib/core/runtime";

/** Sessions whose calls handed in secret values, least recently used first; the oldest is forgotten beyond this. */
const MAX_SESSIONS = 2000;
/** Values kept per session (each value also counts its JSON-escaped form); the oldest go first. */
const MAX_VALUES = 1000;

interface Held {
  values: Set<string>;
  /** The last answer of `sessionHeldSecrets`, while neither set changes (the recording transport merges once per change). */
  joined: { known: SecretValues; secrets: SecretValues } | null;
}

const held = () => piece("sessionSecrets", () => new Map<string, Held>());

/**
 * Secret values a call brings that the server's stored ones do not cover (a collection
 * environment's secrets): masked in every message of the session recorded from now on, both
 * directions, since a server may quote them in any later answer too. Call before the request is sent.
 */
export function holdSessionSecrets({ sessionId, secrets }: { sessionId: string; secrets: SecretValues | undefined }): void {
  if (!sessionId || !secrets?.values.length) return;
  const sessions = held();
  const entry = sessions.get(sessionId) ?? { values: new Set<string>(), joined: null };
  sessions.delete(sessionId);
  sessions.set(sessionId, entry);
  if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
  const before = entry.values.size;
  for (const value of secrets.values) entry.values.add(value);
  if (entry.values.size === before) return;
  entry.joined = null;
  for (const value of entry.values) {
    if (entry.values.size <= MAX_VALUES) break;
    entry.values.delete(value);
  }
}

/** What a session's recorded messages must not show: the server's stored values (`known`) and those its calls handed in. */
export function sessionHeldSecrets({ sessionId, known }: { sessionId: string; known: SecretValues }): SecretValues {
  const entry = held().get(sessionId);
  if (!entry) return known;
  if (entry.joined?.known !== known) entry.joined = { known, secrets: joinSecretValues(known, { values: [...entry.values] }) };
  return entry.joined.secrets;
}
