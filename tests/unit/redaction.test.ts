import { describe, expect, it } from "vitest";
import { DEFAULT_REDACTION_KEYS, MAX_DEPTH, REDACTED, maskSecretValues, redact, redactionKeys, secretValues } from "@/lib/core/redaction";

describe("redact", () => {
  it("masks matching fields at any depth and reports their paths", () => {
    const input = { arguments: { user: "ada", password: "hunter2", nested: [{ "X-Api-Key": "k" }, { apiKey: "k2" }], authToken: "t" } };
    const { value, masked } = redact(input);
    expect(value.arguments.user).toBe("ada");
    expect(value.arguments.password).toBe(REDACTED);
    expect(value.arguments.nested[0]["X-Api-Key"]).toBe(REDACTED);
    expect(value.arguments.nested[1].apiKey).toBe(REDACTED);
    expect(value.arguments.authToken).toBe(REDACTED);
    expect(masked).toEqual(["arguments.password", "arguments.nested[0].X-Api-Key", "arguments.nested[1].apiKey", "arguments.authToken"]);
    expect(input.arguments.password).toBe("hunter2");
  });

  it("keeps the default list when a workspace adds names", () => {
    const keys = redactionKeys('["ssn"]');
    expect(keys).toEqual([...DEFAULT_REDACTION_KEYS, "ssn"]);
    expect(redact({ ssn: "1", password: "p", name: "n" }, keys).value).toEqual({ ssn: REDACTED, password: REDACTED, name: "n" });
    expect(redactionKeys(null)).toEqual([...DEFAULT_REDACTION_KEYS]);
    expect(redactionKeys("[]")).toEqual([...DEFAULT_REDACTION_KEYS]);
    expect(redactionKeys('["password", "token"]')).toEqual([...DEFAULT_REDACTION_KEYS]);
    expect(redactionKeys("not json")).toEqual([...DEFAULT_REDACTION_KEYS]);
  });

  it("redacts JSON inside strings and re-serialises it", () => {
    const input = { arguments: { payload: '{"user":"ada","password":"hunter2"}', list: ' [{"api_key":"k-1"}, 2] ', prose: "password=visible", plain: "{not json}" } };
    const { value, masked } = redact(input);
    expect(JSON.parse(value.arguments.payload)).toEqual({ user: "ada", password: REDACTED });
    expect(JSON.parse(value.arguments.list)).toEqual([{ api_key: REDACTED }, 2]);
    expect(value.arguments.prose).toBe("password=visible");
    expect(value.arguments.plain).toBe("{not json}");
    expect(masked).toEqual(["arguments.payload(json).password", "arguments.list(json)[0].api_key"]);
    expect(JSON.stringify(value)).not.toContain("hunter2");
  });

  it("opens JSON in JSON in strings to a bounded depth, and leaves text with nothing to mask as it was", () => {
    const inner = JSON.stringify({ password: "deep-secret" });
    const twice = JSON.stringify({ wrapped: JSON.stringify({ blob: inner }) });
    expect(JSON.stringify(redact({ twice }).value)).not.toContain("deep-secret");
    const pretty = JSON.stringify({ a: 1, b: [1, 2] }, null, 2);
    expect(redact({ pretty }).value.pretty).toBe(pretty);
    let tooDeep = JSON.stringify({ password: "p" });
    for (let i = 0; i < 5; i++) tooDeep = JSON.stringify({ s: tooDeep });
    expect(() => redact({ tooDeep })).not.toThrow();
  });

  it("survives hostile nesting without exhausting the stack", () => {
    const depth = 50_000;
    const text = "[".repeat(depth) + "]".repeat(depth);
    const started = performance.now();
    const { value } = redact({ text, nested: JSON.parse(text) as unknown });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(typeof value.text).toBe("string");
    let node: unknown = value.nested;
    let levels = 0;
    while (Array.isArray(node)) {
      node = node[0];
      levels++;
    }
    expect(levels).toBeLessThanOrEqual(MAX_DEPTH);
  });

  it("keeps a __proto__ field a field", () => {
    const input = JSON.parse('{"__proto__":{"password":"p"},"x":1}') as Record<string, unknown>;
    const { value } = redact(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"password":"[redacted]"},"x":1}');
  });
});

describe("secret values", () => {
  const secrets = secretValues(["s3cr3t-value-123", "Bearer at-0123456789", "short", null, 'quo"te-value']);

  it("keeps values of reasonable length, a credential without its scheme, and JSON-escaped forms", () => {
    expect(secrets.values).toContain("s3cr3t-value-123");
    expect(secrets.values).toContain("at-0123456789");
    expect(secrets.values).toContain('quo\\"te-value');
    expect(secrets.values).not.toContain("short");
    expect(maskSecretValues("key=s3cr3t-value-123;", secrets)).toBe(`key=${REDACTED};`);
    expect(maskSecretValues("nothing here, short", secrets)).toBe("nothing here, short");
  });

  it("masks them as substrings anywhere: values, field names, numbers and JSON inside strings", () => {
    const pin = secretValues(["98765432"]);
    const input = {
      arguments: { note: "my key is s3cr3t-value-123!", embedded: '{"k":"x s3cr3t-value-123 y"}', "s3cr3t-value-123": 1, token: "a" },
      result: { content: [{ type: "text", text: "echo: Bearer at-0123456789" }] },
    };
    const { value, masked } = redact(input, DEFAULT_REDACTION_KEYS, { secrets });
    const text = JSON.stringify(value);
    expect(text).not.toContain("s3cr3t-value-123");
    expect(text).not.toContain("at-0123456789");
    expect(value.arguments.note).toBe(`my key is ${REDACTED}!`);
    expect(JSON.parse(value.arguments.embedded)).toEqual({ k: `x ${REDACTED} y` });
    expect(masked).toEqual([
      "arguments.note",
      "arguments.embedded(json).k",
      `arguments.${REDACTED}`,
      "arguments.token",
      "result.content[0].text",
    ]);
    expect(redact({ n: 98765432, m: 5 }, [], { secrets: pin }).value).toEqual({ n: REDACTED, m: 5 });
  });

  it("leaves everything as it was when there are none", () => {
    const input = { a: "s3cr3t-value-123", b: [1, "x"] };
    expect(redact(input, [], {}).value).toEqual(input);
    expect(redact(input, [], {}).masked).toEqual([]);
  });
});
