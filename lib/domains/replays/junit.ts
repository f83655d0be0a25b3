import "server-only";
import { escapeXml } from "@/lib/domains/collections/server";
import type { ReplayDto, ReplayItemDto } from "./index";

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);
const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join("");

const MAX_SHOWN = 2000;
const shown = (value: unknown) => {
  const text = value === undefined ? "(none)" : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
};

function testcase(replay: ReplayDto, item: ReplayItemDto): string {
  const open = `    <testcase${attrs({ name: `${item.index + 1}. ${item.method} ${item.name}`, classname: `replay on ${replay.serverName}`, time: seconds(item.durationMs) })}`;
  if (item.status === "different") {
    const diff = item.diff ?? [];
    const message = `${diff.length} difference${diff.length === 1 ? "" : "s"}: ${diff.map((d) => d.path || "/").join(", ")}`;
    const body = diff.map((d) => `${d.path || "/"} ${d.change}: expected ${shown(d.expected)}, actual ${shown(d.actual)}`).join("\n");
    return `${open}>\n      <failure${attrs({ message, type: "different" })}>${escapeXml(body)}</failure>\n    </testcase>`;
  }
  if (item.status === "error") {
    const message = item.error ?? "the call could not be compared";
    return `${open}>\n      <error${attrs({ message, type: "error" })}>${escapeXml(message)}</error>\n    </testcase>`;
  }
  if (item.status === "pending") return `${open}>\n      <skipped${attrs({ message: `not replayed (the replay is ${replay.status})` })}/>\n    </testcase>`;
  return `${open}/>`;
}

/**
 * A replay as JUnit XML (the shape collection runs have): one `<testcase>` per call, a `<failure>`
 * naming each differing path, an `<error>` for a call with nothing to compare, `<skipped/>` for
 * calls not reached. Differences are of answers as history shows them (secrets masked).
 */
export function toReplayJUnit(replay: ReplayDto): string {
  const count = (status: string) => replay.items.filter((i) => i.status === status).length;
  const elapsed = replay.finishedAt ? Date.parse(replay.finishedAt) - Date.parse(replay.startedAt) : replay.items.reduce((sum, i) => sum + (i.durationMs ?? 0), 0);
  const totals = { tests: replay.items.length, failures: count("different"), errors: count("error"), skipped: count("pending"), time: seconds(Math.max(0, elapsed)) };
  const properties = [
    ["replay", replay.id],
    ["server", replay.serverName],
    ["status", replay.status],
    ["ignore", replay.ignore.join(" ")],
  ]
    .map(([name, value]) => `      <property${attrs({ name: name!, value: value! })}/>`)
    .join("\n");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attrs({ name: "switchboard", ...totals })}>`,
    `  <testsuite${attrs({ name: `replay on ${replay.serverName}`, id: replay.id, ...totals, timestamp: replay.startedAt })}>`,
    `    <properties>\n${properties}\n    </properties>`,
    ...replay.items.map((item) => testcase(replay, item)),
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
