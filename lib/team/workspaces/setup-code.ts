import crypto from "node:crypto";
import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";

// Loaded by lib/start (to print it) and by Next's bundles (to check it): one code per process, in
// the process runtime. No "server-only" here for that reason.

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** The one-time set-up code: `SWITCHBOARD_SETUP_CODE` if the operator set one, else random per process. */
export function setupCode(): string {
  const configured = config().setupCode;
  if (configured) return configured;
  return piece("setupCode", () => Array.from({ length: 8 }, (_, i) => (i === 4 ? "-" : "") + ALPHABET[crypto.randomInt(ALPHABET.length)]).join(""));
}

/** Constant-time comparison, ignoring case, spaces and dashes (people retype it from a log). */
export function setupCodeMatches(given: string | undefined): boolean {
  if (!given) return false;
  const digest = (text: string) => crypto.createHash("sha256").update(text.toUpperCase().replace(/[\s-]/g, "")).digest();
  return crypto.timingSafeEqual(digest(given), digest(setupCode()));
}
