// Preloaded into the console by bench/memory.ts (`node --require`): appends the process's
// memoryUsage() (main thread) as one JSON line to $SWITCHBOARD_BENCH_MEMORY_PROBE every 5 s, so the bench can
// report the V8 heap beside the RSS it reads from /proc. Nothing else in the console changes.
"use strict";
const fs = require("node:fs");
const { isMainThread } = require("node:worker_threads");

const file = process.env.SWITCHBOARD_BENCH_MEMORY_PROBE;
// Preloads also run in worker threads (tsx's module-loader hooks run in one): the console's own
// heap is the main thread's.
if (file && isMainThread) {
  setInterval(() => {
    fs.appendFileSync(file, JSON.stringify({ pid: process.pid, t: Date.now(), ...process.memoryUsage() }) + "\n");
  }, 5000).unref();
}
