import fs from "node:fs";
import { apiClient } from "../tests/support/console";
import { percentile } from "./report";

/** A page as bench/ui.ts lists it. */
export interface LoadPage {
  route: string;
  url: string;
  signedIn: boolean;
  status?: number;
}

/** One signed-in person's browser: their own session cookies, kept up to date from every answer as a browser keeps them. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(header: string) {
    for (const pair of header.split("; ").filter(Boolean)) {
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  update(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=(0|-)/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) <= Date.now()));
      if (expired || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** People invited into the owner's workspace, each accepting in a browser of their own; their signed-in cookies. */
export async function invitedPeople(base: string, api: ReturnType<typeof apiClient>, count: number): Promise<CookieJar[]> {
  const roles = ["member", "admin", "viewer"];
  const people: CookieJar[] = [];
  for (let i = 0; i < count; i++) {
    const invited = await api("POST", "/api/v1/invitations", { email: `load-${i}@example.com`, role: roles[i % roles.length] });
    if (invited.status !== 201) throw new Error(`invitation failed: ${JSON.stringify(invited.body)}`);
    const res = await fetch(`${base}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ token: (invited.body.invitation.url as string).split("/invite/")[1], name: `Load ${i}`, password: `password-load-${i}` }),
    });
    if (res.status !== 200) throw new Error(`accepting an invitation failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const jar = new CookieJar("");
    jar.update(res);
    people.push(jar);
  }
  return people;
}

/** The times of one run, per page route, and the console's CPU time it took. */
export interface LoadRun {
  times: Map<string, number[]>;
  requests: number;
  wallMs: number;
  cpuMs: number;
}

/**
 * Every person loads every page once, each in their own order (the list rotated by their index
 * and the round), one page after another, all people at once: `people.length` requests in
 * flight. Each request is timed until its whole body has arrived.
 */
export async function loadRound({ base, pages, people, round, cpuMs }: { base: string; pages: LoadPage[]; people: CookieJar[]; round: number; cpuMs: () => number }): Promise<LoadRun> {
  const times = new Map<string, number[]>(pages.map((p) => [p.route, []]));
  const before = cpuMs();
  const t0 = performance.now();
  await Promise.all(
    people.map(async (jar, index) => {
      for (let k = 0; k < pages.length; k++) {
        const page = pages[(((index + k + round) % pages.length) + pages.length) % pages.length]!;
        const start = performance.now();
        // A signed-in browser sends its cookies with every page, the public ones too.
        const res = await fetch(`${base}${page.url}`, { headers: { cookie: jar.header() }, redirect: "manual" });
        await res.arrayBuffer();
        const ms = performance.now() - start;
        if (res.status !== (page.status ?? 200)) throw new Error(`${page.url} (person ${index}): HTTP ${res.status}`);
        jar.update(res);
        times.get(page.route)!.push(ms);
      }
    }),
  );
  return { times, requests: people.length * pages.length, wallMs: performance.now() - t0, cpuMs: cpuMs() - before };
}

/** Runs added together. */
export function merge(runs: LoadRun[]): LoadRun {
  const times = new Map<string, number[]>();
  for (const run of runs) for (const [route, t] of run.times) times.set(route, [...(times.get(route) ?? []), ...t]);
  const sum = (f: (r: LoadRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  return { times, requests: sum((r) => r.requests), wallMs: sum((r) => r.wallMs), cpuMs: sum((r) => r.cpuMs) };
}

export function summarize(run: LoadRun) {
  const all = [...run.times.values()].flat();
  return {
    perPage: [...run.times].map(([route, t]) => ({ route, p50: percentile(t, 50), p95: percentile(t, 95) })),
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    perSecond: (run.requests / run.wallMs) * 1000,
    cpuMs: run.cpuMs / run.requests,
  };
}

/** Writes the monotonic-clock window of a run (µs, the clock V8's CPU profiles use) for tools/profile-summary. */
export function markWindow(file: string | undefined, start: bigint, end: bigint): void {
  if (file) fs.writeFileSync(file, JSON.stringify({ startUs: Number(start / 1000n), endUs: Number(end / 1000n) }));
}

/** A console under load: its pages, its signed-in people and how to read its CPU time. */
export interface LoadTarget {
  label: string;
  base: string;
  pages: LoadPage[];
  people: CookieJar[];
  cpuMs: () => number;
}

/**
 * One warm-up round on each console, then `rounds` rounds taking the consoles in turn (the order
 * alternating), so that a comparison shares the machine's load. The timed rounds' monotonic window
 * goes to `windowFile` for bench/profile-summary.ts.
 */
export async function interleavedLoad(targets: LoadTarget[], rounds: number, windowFile?: string): Promise<LoadRun[]> {
  for (const t of targets) await loadRound({ ...t, round: -1 });
  const runs = targets.map(() => [] as LoadRun[]);
  const start = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...targets.keys()].reverse() : [...targets.keys()];
    for (const i of order) runs[i]!.push(await loadRound({ ...targets[i]!, round }));
  }
  markWindow(windowFile, start, process.hrtime.bigint());
  return runs.map(merge);
}

const LOAD_TARGET_MS = 100;

/** The section's lines: per page p50/p95 of each console side by side, CPU per request, met or not. */
export function loadLines(labels: string[], runs: LoadRun[], people: number, rounds: number): string[] {
  const s = runs.map(summarize);
  const last = s[s.length - 1]!;
  const over = last.perPage.filter((p) => p.p95 > LOAD_TARGET_MS);
  const cols = (f: (x: ReturnType<typeof summarize>) => string) => s.map(f).join(" | ");
  const head = labels.length > 1 ? labels.flatMap((l) => [`${l} p50 ms`, `${l} p95 ms`]) : ["p50 ms", "p95 ms"];
  return [
    `${people} people signed in, each with their own session (the owner and ${people - 1} invited members, admins and viewers, each accepting in a browser of their own), load every page route (the same list as the section above) one after another, all ${people} at once: ${people} requests in flight. Each person starts at a different page and keeps the cookies the console sets, as a browser does. One warm-up round, then ${rounds} rounds of ${people} × ${last.perPage.length} requests${labels.length > 1 ? `, the consoles (${labels.join(", ")}) taking rounds in turn, the order alternating, on the same machine at the same time` : ""}; each request timed until its whole HTML has arrived. CPU is the console process's user + system time over the rounds divided by the requests.`,
    "",
    `| page | ${head.join(" | ")} |`,
    `| --- | ${head.map(() => "---:").join(" | ")} |`,
    ...last.perPage.map((p, i) => `| ${p.route} | ${cols((x) => `${x.perPage[i]!.p50.toFixed(1)} | ${x.perPage[i]!.p95.toFixed(1)}`)} |`),
    `| **every page** | ${cols((x) => `${x.p50.toFixed(1)} | ${x.p95.toFixed(1)}`)} |`,
    "",
    ...s.map((x, i) => `- ${labels[i]}: ${x.perSecond.toFixed(0)} pages/s, console CPU ${x.cpuMs.toFixed(2)} ms per request.`),
    `- Target p95 ≤ ${LOAD_TARGET_MS} ms for every page under ${people} concurrent signed-in people (${labels[labels.length - 1]}): ${over.length ? `**not met** (over: ${over.map((p) => `${p.route} ${p.p95.toFixed(0)} ms`).join(", ")})` : `met (slowest page p95 ${Math.max(...last.perPage.map((p) => p.p95)).toFixed(1)} ms)`}.`,
  ];
}
