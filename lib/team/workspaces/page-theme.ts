import "server-only";
import { getSessionCookie } from "better-auth/cookies";
import { auth } from "@/lib/identity/auth/server";
import { piece } from "@/lib/core/runtime";
import type { Theme } from "./index";
import * as q from "./queries";
import { ThemeSchema } from "./schemas";

// proxy.ts asks on every page load; a session's answer is kept this long (see signedInTheme).
const PAGE_THEME_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface PageThemes {
  /** By the session cookie's signed token: whose session it was and their theme. */
  entries: Map<string, { userId: string | null; theme: Theme | null; until: number }>;
  /** Bumped by every theme write, so a look-up that raced one is not kept. */
  generation: number;
}

const pageThemes = () => piece("pageThemes", (): PageThemes => ({ entries: new Map(), generation: 0 }));

/**
 * The theme of the person signed in with this request's session cookie, or null (nobody, or no
 * choice yet). The answer is kept for 10 s by the session cookie's value (the signed token, one
 * per session and person, never shared), so a person's page loads cost one session look-up per
 * 10 s rather than one each (the signed cookie's HMAC checks and two queries). What that can
 * leave stale: a session signed out or revoked elsewhere keeps getting its own person's theme
 * cookie for up to 10 s — nothing else, since pages are prerendered shells whose data comes
 * through the API, which checks the session on every request. A theme saved here takes effect at
 * once (`forgetPageTheme`); one saved on another instance within 10 s.
 */
export async function signedInTheme(headers: Headers): Promise<Theme | null> {
  const token = getSessionCookie(headers);
  if (!token) return null;
  const cache = pageThemes();
  const now = Date.now();
  const kept = cache.entries.get(token);
  if (kept && kept.until > now) return kept.theme;
  const generation = cache.generation;
  const session = await auth.api.getSession({ headers }).catch(() => null);
  // A database hiccup costs the saved theme, never the page.
  const theme = session ? asTheme(await q.findUserTheme({ userId: session.user.id }).catch(() => null)) : null;
  if (cache.generation === generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(token, { userId: session?.user.id ?? null, theme, until: now + PAGE_THEME_MS });
  }
  return theme;
}

/** After a person saves their theme: their page loads carry the new one from the next. */
export function forgetPageTheme(userId: string): void {
  const cache = pageThemes();
  cache.generation += 1;
  for (const [token, entry] of cache.entries) if (entry.userId === userId) cache.entries.delete(token);
}

export function asTheme(value: string | null): Theme | null {
  const parsed = ThemeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
