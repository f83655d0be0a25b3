import http from "node:http";
import { apiClient } from "./console";

/** The stand-in for a browser in OAuth tests: a console session cookie and the authorization server round trip. */

export const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** Signs in to the console with a password; returns the session cookie. */
export async function consoleSession(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`console sign-in failed: ${res.status}`);
  return cookieOf(res);
}

/** `POST /servers/:id/oauth/authorize` with a browser session. */
export function startServerSignIn(base: string, serverId: string, cookie: string, body: Record<string, unknown> = {}) {
  return apiClient(base)("POST", `/api/v1/servers/${serverId}/oauth/authorize`, body, { cookie, origin: base });
}

/** Follows the authorization server's redirects (its login and consent run by themselves) back to the console's URL. */
export async function throughAuthorizationServer(consoleBase: string, authorizationUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 12; hop++) {
    if (url.origin === consoleBase) return url;
    const res = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`the authorization server stopped at ${url} with ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}

/** The browser arriving at the console's callback. */
export async function openCallback(url: URL, cookie: string) {
  const res = await fetch(url, { redirect: "manual", headers: { cookie } });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

/**
 * A browser navigation, not followed. Through node:http because fetch always says
 * `Sec-Fetch-Mode: cors`, which the console's OAuth provider answers with JSON instead of a redirect.
 */
export function navigate(url: string, cookie?: string) {
  return new Promise<{ status: number; headers: Headers; text: () => Promise<string>; json: () => Promise<unknown> }>((resolve, reject) => {
    const headers = { "sec-fetch-mode": "navigate", accept: "text/html,application/xhtml+xml", ...(cookie ? { cookie } : {}) };
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, text: async () => body, json: async () => JSON.parse(body) as unknown });
      });
    }).on("error", reject);
  });
}

/** The console's consent page answered by a browser holding `cookie` (what its Allow and Deny buttons post). */
export async function answerConsent(base: string, consentUrl: string, cookie: string, accept: boolean) {
  const res = await fetch(`${base}/api/auth/oauth2/consent`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", cookie, origin: base },
    body: JSON.stringify({ accept, oauth_query: new URL(consentUrl, base).search.slice(1) }),
  });
  return { status: res.status, body: (await res.json()) as { url?: string; error?: string } };
}
