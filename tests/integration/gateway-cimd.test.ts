import { auth } from "@modelcontextprotocol/client";
import { spawnSync } from "node:child_process";
import dns from "node:dns/promises";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { answerConsent, navigate } from "../support/oauth-browser";
import { HOST_REDIRECT, TestHost } from "../support/oauth-host";

// A host's Client ID Metadata Document must be on https at a public-looking name. These names
// resolve to 127.0.0.1 through /etc/hosts (.ci/run adds them); the console reaches only the first,
// which it is told to allow (SWITCHBOARD_ALLOWED_NETWORKS), under its `public` policy for such URLs.
const ALLOWED = "cimd.switchboard.test";
const REFUSED = "other-cimd.switchboard.test";
const resolvable = await Promise.all([ALLOWED, REFUSED].map((name) => dns.lookup(name).then((a) => a.address === "127.0.0.1", () => false)));
if (!resolvable.every(Boolean)) console.warn(`gateway-cimd: skipped, add "127.0.0.1 ${ALLOWED} ${REFUSED}" to /etc/hosts (.ci/run does)`);

/** An MCP host that identifies itself by the URL of its metadata document (no registration). */
class CimdHost extends TestHost {
  constructor(readonly clientMetadataUrl: string) {
    super("Docs Host");
  }
}

describe.skipIf(!resolvable.every(Boolean))("Client ID Metadata Documents for the gateway's OAuth", () => {
  let sb: ConsoleHandle;
  let documents: https.Server;
  let fetched: string[] = [];
  let cookie = "";
  let endpoint = "";
  let documentUrl = (host: string) => host;

  beforeAll(async () => {
    // A certificate for both names, trusted by the console through NODE_EXTRA_CA_CERTS.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-cimd-"));
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${ALLOWED}`, "-addext", `subjectAltName=DNS:${ALLOWED},DNS:${REFUSED}`, "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    documents = https.createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) }, (req, res) => {
      const url = `https://${req.headers.host}${req.url}`;
      fetched.push(url);
      if (req.url !== "/mcp/host.json") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=60" }).end(JSON.stringify({ client_id: url, client_name: "Docs Host", client_uri: `https://${req.headers.host}/`, redirect_uris: [HOST_REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }));
    });
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
    const port = (documents.address() as AddressInfo).port;
    documentUrl = (host) => `https://${host}:${port}/mcp/host.json`;

    sb = await startConsole({ env: { NODE_EXTRA_CA_CERTS: path.join(dir, "cert.pem"), SWITCHBOARD_ALLOWED_NETWORKS: ALLOWED } });
    const setup = await setupOwner(sb.url);
    cookie = await sessionCookie(sb.url, setup.email, setup.password);
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    const server = await setup.api("POST", "/api/v1/servers", { name: "memory", url: "http://127.0.0.1:2/mcp" });
    expect((await setup.api("PUT", `/api/v1/servers/${server.body.server.id}/exposure`, { enabled: true })).status).toBe(200);
    endpoint = `${sb.url}/mcp/${encodeURIComponent(me.body.workspace.slug)}/memory`;
  });
  afterAll(async () => {
    await sb?.stop();
    await new Promise((resolve) => documents?.close(resolve));
  });

  it("says so in its authorization server metadata", async () => {
    const metadata = await (await fetch(`${sb.url}/.well-known/oauth-authorization-server/api/auth`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it("lets a host named by its metadata document's URL through PKCE and consent, with no registration", async () => {
    fetched = [];
    const host = new CimdHost(documentUrl(ALLOWED));
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    // The SDK used the URL as its client id rather than registering (DCR would have saved a generated id).
    expect(host.info?.client_id).toBe(documentUrl(ALLOWED));
    expect(host.authorizationUrl!.searchParams.get("client_id")).toBe(documentUrl(ALLOWED));
    const toConsent = await navigate(host.authorizationUrl!.href, cookie);
    expect(toConsent.status, await toConsent.text()).toBe(302);
    const consentUrl = toConsent.headers.get("location")!;
    expect(new URL(consentUrl, sb.url).pathname).toBe("/oauth/consent");
    expect(fetched).toContain(documentUrl(ALLOWED));
    // The consent page names the host as its document does (untrusted text; the page reads it from the API).
    expect((await navigate(new URL(consentUrl, sb.url).href, cookie)).status).toBe(200);
    const view = await fetch(`${sb.url}/api/v1/oauth/consent${new URL(consentUrl, sb.url).search}`, { headers: { cookie } });
    expect(await view.json()).toMatchObject({ state: "ready", client: { id: documentUrl(ALLOWED), name: "Docs Host" } });
    const answer = await answerConsent(sb.url, consentUrl, cookie, true);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const back = new URL(answer.body.url!);
    expect(await auth(host, { serverUrl: endpoint, authorizationCode: back.searchParams.get("code")!, iss: back.searchParams.get("iss") ?? undefined })).toBe("AUTHORIZED");

    // The token works at the endpoint: the host gets as far as the (unreachable) server behind it.
    const refused = gatewayHost(endpoint, host.saved!.access_token, { era: "legacy" });
    await expect(refused).rejects.toThrow(/could not be reached|cannot be reached/);
    await expect(gatewayHost(endpoint, "not-a-token", { era: "legacy" })).rejects.toThrow(/401|Unauthorized|invalid_token/i);
  });

  it("refuses a metadata document at an address the console may not reach, without fetching it", async () => {
    fetched = [];
    const host = new CimdHost(documentUrl(REFUSED));
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    const answer = await navigate(host.authorizationUrl!.href, cookie);
    expect(answer.status).not.toBe(302);
    expect(await answer.text()).toMatch(/invalid_client|metadata/i);
    expect(fetched).toEqual([]);
  });
});
