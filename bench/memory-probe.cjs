// Preloaded into the console by bench/memory.ts (`node --require`): appends the process's
// memoryUsage() and V8's heap space sizes (main thread) as one JSON line to
// $SWITCHBOARD_BENCH_MEMORY_PROBE every second, so the bench can report the V8 heap beside the RSS
// it reads from /proc. Nothing else in the console changes.
"use strict";
const fs = require("node:fs");
const v8 = require("node:v8");
const { isMainThread } = require("node:worker_threads");

const file = process.env.SWITCHBOARD_BENCH_MEMORY_PROBE;
// Preloads also run in worker threads (tsx's module-loader hooks run in one): the console's own
// heap is the main thread's.
if (file && isMainThread) {
  setInterval(() => {
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
    fs.appendFileSync(file, JSON.stringify({ pid: process.pid, t: Date.now(), ...process.memoryUsage(), spaces }) + "\n");
  }, 1000).unref();
}
