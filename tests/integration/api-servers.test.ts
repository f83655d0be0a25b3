import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";

describe("server records", () => {
  let sb: ConsoleHandle;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];

  beforeAll(async () => {
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("encrypts header values at rest", async () => {
    const res = await api("POST", "/api/v1/servers", { name: "secretive", url: "http://127.0.0.1:2/mcp", headers: { Authorization: "Bearer sk-live-123456" } });
    expect(res.status).toBe(201);
    const row = (await sb.db.get<{ headers_secret: string; header_names: string }>("SELECT headers_secret, header_names FROM server WHERE id = ?", res.body.server.id))!;
    expect(row.headers_secret).toMatch(/^v1\./);
    expect(row.headers_secret).not.toContain("sk-live");
    expect(JSON.parse(row.header_names)).toEqual(["Authorization"]);
    const dump = JSON.stringify(await sb.db.all("SELECT * FROM server"));
    expect(dump).not.toContain("sk-live-123456");
  });

  it("explains a connection failure plainly", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "refused", url: "http://127.0.0.1:2/mcp", transport: "streamable-http" });
    const res = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("upstream_error");
    expect(res.body.error.message).toMatch(/refused/i);
    expect((await api("GET", `/api/v1/servers/${created.body.server.id}`)).body.server.status).toBe("error");
  });

  it("imports an mcpServers file: HTTP entries now, stdio entries for the agent", async () => {
    const config = JSON.stringify({
      mcpServers: {
        remote: { url: "https://mcp.example.com/mcp", headers: { "X-Token": "abc-secret" } },
        legacy: { type: "sse", url: "http://127.0.0.1:2/sse" },
        files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { API_KEY: "env-secret" } },
        broken: { nothing: true },
        secretive: { url: "http://127.0.0.1:2/mcp" },
      },
    });
    const res = await api("POST", "/api/v1/servers/import", { config });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.created.map((s: { name: string }) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(["files", "legacy", "remote"]);
    expect(byName.remote.kind).toBe("http");
    expect(byName.remote.headerNames).toEqual(["X-Token"]);
    expect(byName.legacy.transport).toBe("sse");
    expect(byName.files.kind).toBe("stdio");
    expect(byName.files.status).toBe("waiting");
    expect(byName.files.stdio).toEqual({ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], envNames: ["API_KEY"] });
    expect(res.body.skipped.map((s: { name: string }) => s.name).sort()).toEqual(["broken", "secretive"]);
    expect(JSON.stringify(res.body)).not.toMatch(/abc-secret|env-secret/);

    const connect = await api("POST", `/api/v1/servers/${byName.files.id}/connect`);
    expect(connect.status).toBe(503);
    expect(connect.body.error.message).toMatch(/agent/i);

    const invalid = await api("POST", "/api/v1/servers/import", { config: "{not json" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/JSON/);
  });
});
