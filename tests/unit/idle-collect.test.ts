import { describe, expect, it } from "vitest";
import { exposedGc, startIdleCollector } from "@/lib/start/idle-collect";

function harness(quietMs = 10_000) {
  let clock = 1_000_000;
  let tick: () => void = () => {};
  let collections = 0;
  const collector = startIdleCollector({
    quietMs,
    collect: () => collections++,
    now: () => clock,
    schedule: (fn) => ((tick = fn), 0),
  });
  return {
    collector,
    advance(ms: number) {
      for (let t = 0; t < ms; t += 1_000) {
        clock += 1_000;
        tick();
      }
    },
    collections: () => collections,
  };
}

describe("idle collection", () => {
  it("collects once after a busy spell goes quiet, not before the quiet time", () => {
    const h = harness();
    for (let i = 0; i < 50; i++) h.collector.touch();
    h.advance(9_000);
    expect(h.collections()).toBe(0);
    h.advance(2_000);
    expect(h.collections()).toBe(1);
    h.advance(60_000);
    expect(h.collections()).toBe(1);
  });

  it("never collects while requests keep arriving, nor on a console that served none", () => {
    const idle = harness();
    idle.advance(60_000);
    expect(idle.collections()).toBe(0);
    const busy = harness();
    for (let s = 0; s < 60; s++) {
      busy.collector.touch();
      busy.advance(5_000);
    }
    expect(busy.collections()).toBe(0);
  });

  it("collects again after the next busy spell", () => {
    const h = harness();
    h.collector.touch();
    h.advance(11_000);
    h.collector.touch();
    h.advance(11_000);
    expect(h.collections()).toBe(2);
  });

  it("the collection it runs frees what is no longer referenced", () => {
    let held: number[][] | null = Array.from({ length: 200 }, () => Array.from({ length: 20_000 }, (_, i) => i + 0.5));
    // Survivors of a few young collections are in the old space, which only a full collection frees.
    for (let i = 0; i < 5; i++) Array.from({ length: 100_000 }, () => ({}));
    expect(held.length).toBe(200);
    held = null;
    const before = process.memoryUsage().heapUsed;
    exposedGc()();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 20 * 1024 * 1024);
  });
});
