import { describe, expect, it } from "vitest";
import { describeServerChanges } from "@/lib/domains/servers/changes";

const current = { name: "a", url: "http://x/mcp", transport: "auto", protocolEra: "auto", timeoutMs: 60_000, maxTotalTimeoutMs: null, roots: "[]", unattendedPolicy: "decline", unattendedWaitMs: 60_000, authMode: "none", oauthClientId: null };

describe("describeServerChanges (audit details of a server update)", () => {
  it("names added, removed and changed headers, never their values", () => {
    const changes = describeServerChanges(current, { headers: { A: "new", B: null, C: "same", D: "v2", E: null } }, { B: "old", C: "same", D: "v1" });
    expect(changes).toEqual({ fields: ["headers"], headers: { added: ["A"], removed: ["B"], changed: ["D"] } });
    expect(JSON.stringify(changes)).not.toMatch(/new|old|same|v1|v2/);
  });

  it("lists only fields whose value changes", () => {
    const changes = describeServerChanges(current, { name: "a", url: "http://y/mcp", protocolEra: "legacy", timeoutMs: 60_000, maxTotalTimeoutMs: null, roots: [{ uri: "file:///tmp" }] }, {});
    expect(changes.fields).toEqual(["url", "protocolEra", "roots"]);
    expect(describeServerChanges(current, {}, {})).toEqual({ fields: [], headers: { added: [], removed: [], changed: [] } });
  });
});
