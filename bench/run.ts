import { benchCluster } from "./cluster";
import { benchConsole } from "./console";
import { benchHistory } from "./history";
import { benchMemory } from "./memory";
import { benchRelay } from "./relay";
import { benchStats } from "./stats";

// BENCH_ONLY=console,relay,history,stats,cluster,memory runs a subset. memory takes 10 minutes
// (SWITCHBOARD_BENCH_MEMORY_MINUTES shortens it, or skips it at 0).
const only = new Set((process.env.BENCH_ONLY ?? "console,relay,history,stats,cluster,memory").split(",").map((s) => s.trim()));
if (only.has("console")) await benchConsole();
if (only.has("relay")) await benchRelay();
if (only.has("history")) await benchHistory();
if (only.has("stats")) await benchStats();
if (only.has("cluster")) await benchCluster();
if (only.has("memory")) await benchMemory();
