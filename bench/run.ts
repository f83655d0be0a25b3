import { benchCluster } from "./cluster";
import { benchConsole } from "./console";
import { benchHistory } from "./history";
import { benchJournal } from "./journal";
import { benchRelay } from "./relay";
import { benchStats } from "./stats";
import { benchUi } from "./ui";

// BENCH_ONLY=console,journal,relay,history,stats,cluster,ui runs a subset.
const only = new Set((process.env.BENCH_ONLY ?? "console,journal,relay,history,stats,cluster,ui").split(",").map((s) => s.trim()));
if (only.has("console")) await benchConsole();
if (only.has("journal")) await benchJournal();
if (only.has("relay")) await benchRelay();
if (only.has("history")) await benchHistory();
if (only.has("stats")) await benchStats();
if (only.has("cluster")) await benchCluster();
if (only.has("ui")) await benchUi();
