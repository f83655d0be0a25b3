const AUTH_WORDS = /\b(token|bearer|credentials?|unauthori[sz]ed|authenticat\w*|authori[sz]\w*|api[-_ ]?key|sign[- ]?in|log[- ]?in|scopes?|permissions?|invalid_client|invalid_grant|forbidden|not allowed to)\b/i;

/**
 * A 403 is about credentials when it says so: a WWW-Authenticate challenge, no explanation at all,
 * or words about tokens, keys, sign-in or permissions. A 403 that explains something else (a host
 * or origin check, a region, a maintenance page) is the server's own refusal, not a sign-in problem.
 */
export function forbiddenForCredentials(wwwAuthenticate: string | undefined, said: string): boolean {
  return Boolean(wwwAuthenticate) || !said.trim() || AUTH_WORDS.test(said);
}

/** What a server said in an error body, in one short line: a JSON error's message, else its text without tags or control characters. */
export function summarizeBody(body: string): string {
  if (!body.trim()) return "";
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown }; message?: unknown };
    const message = parsed.error?.message ?? parsed.message;
    if (typeof message === "string" && message) return truncate(message);
  } catch {
    // Not JSON: fall through to a text summary.
  }
  const pre = /<pre>([\s\S]*?)<\/pre>/i.exec(body)?.[1];
  return truncate(pre ?? body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, "").replace(/<[^>]*>/g, " "));
}

function truncate(raw: string): string {
  const text = raw.replace(/[\s\p{Cc}\p{Cf}]+/gu, " ").trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
