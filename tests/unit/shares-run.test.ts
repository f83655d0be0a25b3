import { describe, expect, it } from "vitest";
import type { AssertionOutcome } from "@/lib/domains/collections";
import { DEFAULT_REDACTION_KEYS, NO_SECRETS, secretValues } from "@/lib/core/redaction";
import { toSharedRun, type RecordedCall, type RunSource } from "@/lib/domains/shares/shared-run";

const KEYS = [...DEFAULT_REDACTION_KEYS, "vault"];
const VAULT = "vault-value-0123456789abcdef";

function source(steps: { assertions: AssertionOutcome[]; error?: string | null }[]): RunSource {
  return {
    collectionName: "smoke",
    status: "failed",
    environmentName: "staging",
    origin: "api",
    stopOnFailure: true,
    startedAt: new Date("2026-11-27T10:00:00Z"),
    finishedAt: new Date("2026-11-27T10:00:01Z"),
    passed: 0,
    failed: steps.length,
    total: steps.length,
    steps: steps.map((s, index) => ({ index, label: `step ${index + 1}`, status: "failed", durationMs: 12, error: s.error ?? null, assertions: JSON.stringify(s.assertions) })),
  };
}

const call = (result: unknown, params: unknown = { name: "echo", arguments: {} }): RecordedCall => ({ params: JSON.stringify(params), result: JSON.stringify(result), error: null });

describe("toSharedRun: a run as the public sees it", () => {
  it("masks a value found under a listed field of a step's call wherever a message or diff quotes it, also inside JSON text", () => {
    const text = `Echo: ${JSON.stringify({ vault: VAULT })}`;
    const shared = toSharedRun(
      source([
        {
          assertions: [
            { kind: "json", passed: false, path: "/content/0/text", message: `/content/0/text: expected "x", got ${JSON.stringify(text)}` },
            { kind: "snapshot", passed: false, message: "1 difference", diff: [{ path: "/content/0/text", expected: "old", actual: text, change: "changed" }] },
          ],
        },
      ]),
      KEYS,
      { calls: [call({ content: [{ type: "text", text }] }, { name: "echo", arguments: { message: JSON.stringify({ vault: VAULT }) } })], secrets: NO_SECRETS },
    );
    const json = JSON.stringify(shared);
    expect(json).not.toContain(VAULT);
    expect(shared.steps[0]!.assertions[0]!.message).toMatch(/^\/content\/0\/text: expected "x", got .*\[redacted\]/);
    expect(shared.steps[0]!.assertions[1]!.diff![0]!.expected).toBe("old");
  });

  it("shows no value for an assertion or a diff entry whose path names a listed field", () => {
    const shared = toSharedRun(
      source([
        {
          assertions: [
            { kind: "json", passed: false, path: "/structuredContent/vault", message: '/structuredContent/vault: expected "abc", got "xyz"' },
            { kind: "snapshot", passed: false, message: "differs", diff: [{ path: "/structuredContent/api_key", expected: "k1", actual: "k2", change: "changed" }, { path: "/structuredContent/n", expected: 1, actual: 2, change: "changed" }] },
          ],
        },
      ]),
      KEYS,
      { calls: [], secrets: NO_SECRETS },
    );
    const [json, snapshot] = shared.steps[0]!.assertions;
    expect(json!.message).toBe("/structuredContent/vault: not as expected (value [redacted])");
    expect(snapshot!.diff).toEqual([
      { path: "/structuredContent/api_key", expected: "[redacted]", actual: "[redacted]", change: "changed" },
      { path: "/structuredContent/n", expected: 1, actual: 2, change: "changed" },
    ]);
  });

  it("masks given secrets, their beginnings cut short by an ellipsis, and credentials in URLs", () => {
    const secret = "Qx7-env-value-abcdef123456";
    const cut = `/content/0/text: expected "a", got "${"x".repeat(20)}${secret.slice(0, 12)}…"`;
    const shared = toSharedRun(
      source([{ assertions: [{ kind: "json", passed: false, path: "/content/0/text", message: cut }], error: `connect failed: http://user:${secret}@127.0.0.1:1/mcp said ${secret}` }]),
      KEYS,
      { calls: [], secrets: secretValues([secret]) },
    );
    const json = JSON.stringify(shared);
    expect(json).not.toContain(secret.slice(0, 6));
    expect(shared.steps[0]!.assertions[0]!.message).toBe(`/content/0/text: expected "a", got "${"x".repeat(20)}[redacted]…"`);
    expect(shared.steps[0]!.error).toBe("connect failed: http://127.0.0.1:1/mcp said [redacted]");
  });

  it("keeps no ids: only the run's outcome, labels, statuses and durations", () => {
    const shared = toSharedRun(source([{ assertions: [{ kind: "status", passed: false, message: "status: expected ok, got error" }] }]), KEYS, { calls: [], secrets: NO_SECRETS });
    expect(Object.keys(shared).sort()).toEqual(["collectionName", "environment", "failed", "finishedAt", "origin", "passed", "startedAt", "status", "steps", "stopOnFailure", "total"]);
    expect(shared.steps[0]).toEqual({ index: 0, label: "step 1", status: "failed", durationMs: 12, error: null, assertions: [{ kind: "status", passed: false, message: "status: expected ok, got error" }] });
  });
});
