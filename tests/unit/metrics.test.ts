import { afterEach, describe, expect, it } from "vitest";
import { LabelCap, MAX_LABEL_LENGTH, OTHER } from "@/lib/core/metrics/labels";
import { metricsAnswer } from "@/lib/core/metrics/server";
import { stubEnv, unstubAllEnvs } from "../support/config";

describe("the label cap of lib/core/metrics", () => {
  it("keeps the first label sets and records later ones under other", () => {
    const cap = new LabelCap<"server" | "tool" | "status">(["tool"], 3);
    for (const tool of ["a", "b", "c"]) expect(cap.admit({ server: "s", tool, status: "ok" })).toEqual({ server: "s", tool, status: "ok" });
    // A set seen before stays itself past the cap; a new one loses only its outside values.
    expect(cap.admit({ server: "s", tool: "b", status: "ok" })).toEqual({ server: "s", tool: "b", status: "ok" });
    expect(cap.admit({ server: "s", tool: "d", status: "error" })).toEqual({ server: "s", tool: OTHER, status: "error" });
    for (let i = 0; i < 5000; i++) cap.admit({ server: "s", tool: `t${i}`, status: "ok" });
    expect(cap.size).toBe(3);
  });

  it("cuts an overlong outside value", () => {
    const cap = new LabelCap<"tool">(["tool"]);
    expect(cap.admit({ tool: "x".repeat(10_000) }).tool).toHaveLength(MAX_LABEL_LENGTH);
  });
});

const request = (headers: Record<string, string>) => metricsAnswer(new Headers(headers));

describe("who GET /metrics answers", () => {
  afterEach(unstubAllEnvs);

  it("does not exist without a token or the loopback setting", async () => {
    expect((await request({ "x-switchboard-client-ip": "127.0.0.1", authorization: "Bearer x" })).status).toBe(404);
  });

  it("compares the bearer token, and refuses a wrong or overlong one", async () => {
    stubEnv("SWITCHBOARD_METRICS_TOKEN", "s3cret");
    expect((await request({ authorization: "Bearer s3cret" })).status).toBe(200);
    for (const authorization of ["Bearer s3cre", "Bearer s3cret2", "Basic czNjcmV0", "Bearer", `Bearer ${"s".repeat(100_000)}`]) {
      const answer = await request({ authorization, "x-switchboard-client-ip": "127.0.0.1" });
      expect(answer.status, authorization.slice(0, 20)).toBe(401);
      expect(JSON.parse(answer.body).error.code).toBe("unauthorized");
    }
    // The token is required even from loopback when the loopback setting is off.
    expect((await request({ "x-switchboard-client-ip": "127.0.0.1" })).status).toBe(401);
  });

  it("serves loopback addresses only, from the socket, or the proxy's last entry when trusted", async () => {
    stubEnv("SWITCHBOARD_METRICS_LOOPBACK", "1");
    for (const ip of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) expect((await request({ "x-switchboard-client-ip": ip })).status, ip).toBe(200);
    for (const ip of ["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "fe80::1", "", "localhost"]) expect((await request({ "x-switchboard-client-ip": ip })).status, ip).toBe(401);
    // Never from Host, and a request a proxy relayed is not local unless the proxy is trusted.
    expect((await request({ "x-switchboard-client-ip": "10.0.0.1", host: "127.0.0.1" })).status).toBe(401);
    const relayed = { "x-switchboard-client-ip": "127.0.0.1", "x-switchboard-forwarded": "x-forwarded-for", "x-forwarded-for": "127.0.0.1" };
    expect((await request(relayed)).status).toBe(401);
    stubEnv("SWITCHBOARD_TRUST_PROXY", "1");
    expect((await request(relayed)).status).toBe(200);
    expect((await request({ ...relayed, "x-forwarded-for": "127.0.0.1, 203.0.113.9" })).status).toBe(401);
  });
});
