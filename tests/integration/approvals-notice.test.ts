import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startSmtp } from "../support/smtp";

type Api = ReturnType<typeof apiClient>;
interface AlertJson {
  event: string;
  text: string;
  path: string;
  server: { id: string; name: string } | null;
  deliveries: { channel: string; target: string; ok: boolean; detail: string }[];
}

/**
 * A held call is told by mail and webhook to those who watch its server (issue 42 §4: "mail/webhook
 * if configured"), through the alerts' one delivery path, without its arguments; the console's own
 * Approvals badge stays the one unread count for it.
 */
describe("approval notices by mail and webhook", () => {
  let sb: ConsoleHandle;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let receiver: http.Server;
  let receiverUrl: string;
  const hooks: Record<string, unknown>[] = [];
  let owner: Api;
  let member: Api;
  let demo: { id: string; name: string };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let text = "";
      req.on("data", (d) => (text += d));
      req.on("end", () => {
        hooks.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/approvals-secret-path`;
    smtp = await startSmtp();
    sb = await startConsole({ env: { SWITCHBOARD_SMTP_URL: smtp.url, SWITCHBOARD_MAIL_FROM: "Switchboard <sb@example.test>", SWITCHBOARD_MONITORS: "off" } });
    const setup = await setupOwner(sb.url);
    owner = setup.api;
    member = apiClient(sb.url, await insertMember(sb.db, { workspaceId: setup.workspace.id as string, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" }));
    expect((await owner("POST", "/api/v1/policy-rules", { name: "hello needs an OK", effect: "approve", tools: ["hello"], timeoutSeconds: 120 })).status).toBe(201);
    demo = (await owner("POST", "/api/v1/servers/demo")).body.server;
  });
  afterAll(async () => {
    await sb?.stop();
    await smtp?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  const pendingOf = async (marker: string) => {
    let id = "";
    await waitFor(async () => {
      const items = (await owner("GET", "/api/v1/approvals?status=pending")).body.items as { id: string; params: unknown }[];
      id = items.find((a) => JSON.stringify(a.params).includes(marker))?.id ?? "";
      return id !== "";
    }, 20_000);
    return id;
  };

  it("without a watch on the server, a held call records no alert and sends nothing", async () => {
    const call = member("POST", `/api/v1/servers/${demo.id}/tools/call`, { name: "hello", arguments: { name: "unwatched" } });
    const id = await pendingOf("unwatched");
    expect((await owner("POST", `/api/v1/approvals/${id}/approve`, {})).status).toBe(200);
    expect((await call).status).toBe(200);
    expect((await owner("GET", "/api/v1/alerts")).body.items).toEqual([]);
    expect(hooks).toEqual([]);
    expect(smtp.messages).toEqual([]);
  });

  it("with a watch, the held call is mailed and posted once, naming the caller, tool and rule but not the arguments", async () => {
    const watch = await owner("PUT", `/api/v1/servers/${demo.id}/capabilities/watch`, { mail: ["ops@example.com"], webhooks: [receiverUrl] });
    expect(watch.status, JSON.stringify(watch.body)).toBe(200);
    const call = member("POST", `/api/v1/servers/${demo.id}/tools/call`, { name: "hello", arguments: { name: "marker-9f2c" } });
    const id = await pendingOf("marker-9f2c");

    let alert: AlertJson | undefined;
    await waitFor(async () => {
      alert = ((await owner("GET", "/api/v1/alerts")).body.items as AlertJson[]).find((a) => a.event === "approval-requested");
      return !!alert && alert.deliveries.every((d) => d.detail !== "pending");
    }, 20_000);
    const text = `Approval needed: Mo Member calls ${demo.name} · hello (rule "hello needs an OK")`;
    expect(alert).toMatchObject({ path: "/approvals", server: { id: demo.id, name: demo.name } });
    expect(alert!.text).toContain(text);
    expect(alert!.deliveries.map((d) => [d.channel, d.ok])).toEqual([["console", true], ["mail", true], ["webhook", true]]);
    expect(JSON.stringify(alert)).not.toContain("approvals-secret-path");

    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ event: "approval-requested", server: { id: demo.id, name: demo.name }, url: "/approvals" });
    expect(String(hooks[0].text)).toContain(text);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0].to).toEqual(["ops@example.com"]);
    expect(smtp.messages[0].raw).toContain("Approval needed");
    for (const sent of [JSON.stringify(hooks[0]), smtp.messages[0].raw]) expect(sent).not.toContain("marker-9f2c");

    // The Approvals badge counts it; the Alerts badge does not count it a second time.
    expect((await owner("GET", "/api/v1/alerts/unread")).body.unread.count).toBe(0);
    expect((await owner("POST", `/api/v1/approvals/${id}/approve`, {})).status).toBe(200);
    expect((await call).status).toBe(200);
    expect(hooks).toHaveLength(1);
  });
});
