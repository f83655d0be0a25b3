// Preloaded into the console by bench/memory.ts (`node --require`): appends the process's
// memoryUsage() as one JSON line to $SWITCHBOARD_BENCH_MEMORY_PROBE every 5 s, so the bench can
// report the V8 heap beside the RSS it reads from /proc. Nothing else in the console changes.
"use strict";
const fs = require("node:fs");

const file = process.env.SWITCHBOARD_BENCH_MEMORY_PROBE;
if (file) {
  setInterval(() => {
    fs.appendFileSync(file, JSON.stringify({ t: Date.now(), ...process.memoryUsage() }) + "\n");
  }, 5000).unref();
}
