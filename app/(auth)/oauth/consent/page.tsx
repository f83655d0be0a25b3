import type { Metadata } from "next";
import { ConsentShell } from "./consent-shell";

export const metadata: Metadata = { title: "Allow access", referrer: "no-referrer" };

/**
 * /oauth/consent: the OAuth provider asks the signed-in person whether an MCP host may use a
 * workspace's gateway endpoints. Prerendered: the browser reads the request's query and asks
 * GET /api/v1/oauth/consent what to show (rendered per request, it was the slowest page under load).
 */
export default function ConsentPage() {
  return <ConsentShell />;
}
