import { describe, expect, it } from "vitest";
import { REDACTED, redact, redactionKeys } from "@/lib/redaction";

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

  it("uses a workspace's own list, falling back to the default", () => {
    expect(redact({ ssn: "1", password: "p" }, ["ssn"]).value).toEqual({ ssn: REDACTED, password: "p" });
    expect(redactionKeys(null)).toContain("client_secret");
    expect(redactionKeys('["ssn"]')).toEqual(["ssn"]);
    expect(redactionKeys("not json")).toContain("password");
  });
});
