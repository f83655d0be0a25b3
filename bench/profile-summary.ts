// Ad-hoc: where a V8 CPU profile (node --cpu-prof) spent its time, optionally only inside a window
// written by bench/ui-load.ts markWindow. Usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [window.json] [top]
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, windowFile, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [window.json] [top]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const window = windowFile && windowFile !== "-" ? (JSON.parse(fs.readFileSync(windowFile, "utf8")) as { startUs: number; endUs: number }) : null;
const top = Number(topArg ?? 30);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** A short place name: the package under node_modules, or the file under the repository. */
function place(url: string): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  const chunk = url.match(/\.next[^/]*\/(.*)$/);
  if (chunk) return `next-build:${chunk[1]!.replace(/\/[^/]*$/, "")}`;
  return url.replace(/^file:\/\/.*?\/main\//, "") || "(native)";
}
const label = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${place(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const selfPlace = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (window && (t < window.startUs || t > window.endUs)) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  const node = byId.get(profile.samples[i]!)!;
  if (node.callFrame.functionName === "(idle)") continue;
  total += dt;
  self.set(label(node), (self.get(label(node)) ?? 0) + dt);
  selfPlace.set(place(node.callFrame.url), (selfPlace.get(place(node.callFrame.url)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const l = label(byId.get(id)!);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
  }
}

const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`);
};
console.log(`${(total / 1000).toFixed(0)} ms of samples${window ? " in the window" : ""}`);
print("Self time by place", selfPlace);
print("Self time by function", self);
print("Inclusive time by function", inclusive);
