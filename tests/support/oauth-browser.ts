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
