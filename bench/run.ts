import { benchCluster } from "./cluster";
import { benchConsole } from "./console";
import { benchGateway } from "./gateway";
import { benchHistory } from "./history";
import { benchJournal } from "./journal";
import { benchMemory } from "./memory";
import { benchPolicy } from "./policy";
import { benchRelay } from "./relay";
import { benchSearchImport } from "./search-import";
import { benchStats } from "./stats";
import { benchUi } from "./ui";

// BENCH_ONLY=console,gateway,journal,relay,history,stats,cluster,ui,memory,policy runs a subset. memory takes
// about 3 minutes (64 clients for SWITCHBOARD_BENCH_MEMORY_SECONDS, 60; then 60 s of quiet; 0 skips it).
// search-import (a million calls imported, then indexed while history is asked) runs only when named.
const only = new Set((process.env.BENCH_ONLY ?? "console,gateway,journal,relay,history,stats,cluster,ui,memory,policy").split(",").map((s) => s.trim()));
if (only.has("console")) await benchConsole();
if (only.has("gateway")) await benchGateway();
if (only.has("journal")) await benchJournal();
if (only.has("relay")) await benchRelay();
if (only.has("history")) await benchHistory();
if (only.has("stats")) await benchStats();
if (only.has("cluster")) await benchCluster();
if (only.has("ui")) await benchUi();
if (only.has("memory")) await benchMemory();
if (only.has("policy")) await benchPolicy();
if (only.has("search-import")) await benchSearchImport();
