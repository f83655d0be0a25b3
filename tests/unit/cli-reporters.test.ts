import { describe, expect, it } from "vitest";
import type { RunDto, StepRunDto } from "@/lib/domains/collections";
import { exitCode, prettyStep, progressPrinter, report } from "../../cli/src/reporters";
import { findAll, parseXml } from "../support/xml";

const step = (index: number, over: Partial<StepRunDto> = {}): StepRunDto => ({
  index,
  stepId: `s${index}`,
  label: `tools/call step${index}`,
  callId: null,
  status: "pending",
  durationMs: null,
  error: null,
  assertions: [],
  ...over,
});
const run = (steps: StepRunDto[], over: Partial<RunDto> = {}): RunDto => ({
  id: "run_9",
  collectionId: "col_1",
  collectionName: "Smoke",
  status: "running",
  environment: null,
  origin: "cli",
  stopOnFailure: true,
  startedAt: "2026-11-27T20:00:00.000Z",
  finishedAt: null,
  startedBy: null,
  passed: 0,
  failed: 0,
  total: steps.length,
  steps,
  ...over,
});

const passed = (i: number, ms = 12) => step(i, { status: "passed", durationMs: ms, assertions: [{ kind: "status", passed: true, message: "status is ok" }] });
const failed = step(1, {
  status: "failed",
  durationMs: 1500,
  assertions: [
    { kind: "status", passed: true, message: "status is ok" },
    { kind: "json", passed: false, message: "/structuredContent/total: expected 3, got 4", path: "/structuredContent/total" },
  ],
});

describe("pretty", () => {
  it("prints a mark, position, label and duration, then each failed assertion", () => {
    expect(prettyStep(passed(0))).toEqual(["  ✓ 1. tools/call step0  12 ms"]);
    expect(prettyStep(passed(0, 32.267))).toEqual(["  ✓ 1. tools/call step0  32 ms"]);
    expect(prettyStep(failed)).toEqual(["  ✗ 2. tools/call step1  1.5 s", "      [json] /structuredContent/total: expected 3, got 4"]);
    expect(prettyStep(step(2, { status: "error", error: "{{x}}: no variable" }))).toEqual(["  ! 3. tools/call step2", "      error: {{x}}: no variable"]);
    expect(prettyStep(step(3, { status: "skipped" }))).toEqual(["  - 4. tools/call step3  skipped"]);
  });

  it("prints each step once, in order, as polled snapshots show them finished", () => {
    const lines: string[] = [];
    const print = progressPrinter((l) => lines.push(l));
    print(run([step(0, { status: "running" }), step(1), step(2)]));
    expect(lines).toEqual([]);
    print(run([passed(0), step(1, { status: "running" }), step(2)]));
    print(run([passed(0), step(1, { status: "running" }), step(2)]));
    expect(lines).toEqual(["  ✓ 1. tools/call step0  12 ms"]);
    print(run([passed(0), failed, step(2)], { status: "failed" }), true);
    expect(lines.slice(1)).toEqual(["  ✗ 2. tools/call step1  1.5 s", "      [json] /structuredContent/total: expected 3, got 4", "  - 3. tools/call step2  not run"]);
  });

  it("ends with a summary", () => {
    const text = report(run([passed(0), failed, step(2, { status: "skipped" })], { status: "failed", finishedAt: "2026-11-27T20:00:02.000Z" }), "pretty", "http://c");
    expect(text.split("\n")[0]).toBe('Running "Smoke" (3 steps): http://c/runs/run_9');
    expect(text).toContain("FAILED: 1 passed, 1 failed, 1 skipped of 3 steps in 2.0 s");
  });
});

describe("json and junit", () => {
  const done = run([passed(0), failed], { status: "failed", finishedAt: "2026-11-27T20:00:02.000Z" });
  it("json is the final run", () => {
    expect(JSON.parse(report(done, "json", "http://c"))).toEqual(done);
  });
  it("junit names the failing step and path", () => {
    const root = parseXml(report(done, "junit", "http://c"));
    expect(root.attributes).toMatchObject({ tests: "2", failures: "1" });
    const failing = findAll(root, "testcase").find((c) => c.children.some((x) => x.name === "failure"));
    expect(failing!.attributes.name).toBe("2. tools/call step1");
    expect(findAll(failing!, "failure")[0]!.attributes.message).toContain("/structuredContent/total");
  });
  it("exit code: 0 passed, 1 otherwise", () => {
    expect(exitCode({ ...done, status: "passed" })).toBe(0);
    expect(exitCode(done)).toBe(1);
    expect(exitCode({ ...done, status: "error" })).toBe(1);
  });
});
