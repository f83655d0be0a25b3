import { describe, expect, it } from "vitest";
import { nameProblem, parseIgnore, suggestedName, usageSnippet } from "@/components/mocks/mock-form";

describe("the mock forms", () => {
  it("takes a name that can end the endpoint's path, and suggests one from a label", () => {
    expect(nameProblem("echo-mock.v2")).toBeNull();
    expect(nameProblem("")).toBe("A name is required");
    for (const bad of ["echo mock", "a/b", "..", "x".repeat(101)]) expect(nameProblem(bad)).toMatch(/1 to 100/);
    expect(suggestedName("Weather smoke (staging)")).toBe("weather-smoke-staging");
    expect(suggestedName("日本")).toBe("mock");
    expect(nameProblem(suggestedName("x".repeat(300)))).toBeNull();
  });

  it("reads ignored pointers one a line or comma-separated, naming the first that is not a pointer", () => {
    expect(parseIgnore("/timestamp\n /meta/id , /a~1b\n\n")).toEqual({ ignore: ["/timestamp", "/meta/id", "/a~1b"] });
    expect(parseIgnore("")).toEqual({ ignore: [] });
    expect(parseIgnore("/ok\ntimestamp")).toEqual({ problem: expect.stringContaining(": timestamp") });
  });

  it("shows the endpoint with a token and the CLI's command to serve the exported file", () => {
    const text = usageSnippet({ origin: "https://sb.example", endpoint: "/mcp/acme/mock/echo", id: "m1" });
    expect(text).toContain("https://sb.example/mcp/acme/mock/echo");
    expect(text).toContain("Bearer $SWITCHBOARD_TOKEN");
    expect(text).toContain("https://sb.example/api/v1/mocks/m1/export' -o mock.json");
    expect(text).toContain("mock serve mock.json --port 3999");
  });
});
