import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../tests/support/console";
import { insertCalls, type SeedCall } from "../tests/support/seed-calls";
import { startEverything } from "../tests/support/servers";
import { machine, percentile, writeSection } from "./report";
import { CookieJar, interleavedLoad, invitedPeople, loadLines, type LoadTarget } from "./ui-load";

const REQUESTS = Number(process.env.BENCH_UI_REQUESTS ?? 40);
const WARMUP = 3;
const JS_TARGET_KB = 350;
const RESPONSE_TARGET_MS = 150;
const PEOPLE = 16;
const ROUNDS = Number(process.env.BENCH_UI_ROUNDS ?? 6);
// BENCH_UI_BASELINE=<dist dir>: a second console from an earlier build, loaded in turn with this one.
const BASELINE = process.env.BENCH_UI_BASELINE;
// BENCH_UI_PROFILE=<dir>: the consoles run with --cpu-prof there; the timed window goes to <dir>/window.json.
const PROFILE = process.env.BENCH_UI_PROFILE;
// BENCH_UI_SEQUENTIAL=0 measures only the concurrent load.
const SEQUENTIAL = process.env.BENCH_UI_SEQUENTIAL !== "0";
// BENCH_UI_PAGES=<route>,<route>: only these page routes (as the tables name them, e.g. `/s/[token]`),
// or `*` for all; either way printed, not written to docs/benchmarks.md.
const ONLY_PAGES = process.env.BENCH_UI_PAGES?.split(",").map((r) => r.trim());
const chosenPages = <P extends { route: string }>(pages: P[]) => (ONLY_PAGES && ONLY_PAGES[0] !== "*" ? pages.filter((p) => ONLY_PAGES.includes(p.route)) : pages);
const APP = path.resolve(import.meta.dirname, "../app");

interface Page {
  /** The route as app/ spells it, e.g. `/servers/[id]`. */
  route: string;
  url: string;
  signedIn: boolean;
  /** The HTTP status the page answers with. */
  status?: number;
}

/** Every page route under app/ (page.tsx and not-found.tsx files), route groups left out. */
function appRoutes(): string[] {
  const routes: string[] = [];
  const walk = (dir: string, route: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name === "api") continue;
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? route : `${route}/${entry.name}`);
      } else if (entry.name === "page.tsx") routes.push(route || "/");
      else if (entry.name === "not-found.tsx") routes.push(`${route || ""} (not found)`);
    }
  };
  walk(APP, "");
  return routes.sort();
}

/** An owner with two servers (one connected, one unreachable), 43 calls, a share, an invitation and an agent. */
export async function seed(sb: ConsoleHandle, everythingUrl: string): Promise<{ cookie: string; pages: Page[]; api: ReturnType<typeof apiClient> }> {
  const owner = await setupOwner(sb.url);
  const { api } = owner;
  const userId = (await api("GET", "/api/v1/me")).body.user.id as string;
  const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everythingUrl, timeoutMs: 30_000 })).body.server.id as string;
  const weather = (await api("POST", "/api/v1/servers", { name: "weather", url: "http://127.0.0.1:9/mcp" })).body.server.id as string;
  await api("POST", `/api/v1/servers/${server}/connect`);
  const calls: string[] = [];
  for (const message of ["alpha", "beta", "gamma"]) {
    const res = await api("POST", `/api/v1/servers/${server}/tools/call`, { name: "echo", arguments: { message } });
    if (res.body.call?.status !== "ok") throw new Error(`seed call failed: ${JSON.stringify(res.body)}`);
    calls.push(res.body.call.id);
  }
  const now = Date.now();
  const seeded: SeedCall[] = Array.from({ length: 40 }, (_, i) => ({
    workspaceId: owner.workspace.id,
    serverId: weather,
    startedAt: new Date(now - 20 * 3_600_000 + i * 25 * 60_000),
    durationMs: 40 + ((i * 37) % 400),
    status: i % 7 === 3 ? "error" : "ok",
    name: i % 2 ? "get_forecast" : "get_alerts",
    userId,
    userName: "Ada Owner",
  }));
  await insertCalls(sb.db, seeded);
  const share = (await api("POST", `/api/v1/calls/${calls[0]}/shares`, {})).body.share.url as string;
  const invite = (await api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "member" })).body.invitation.url as string;
  const pairing = (await api("POST", "/api/v1/agents/pairings", { name: "laptop" })).body.pairing;
  const agent = (await apiClient(sb.url)("POST", "/api/v1/agents/pair", { code: pairing.code, hostname: "ada-laptop", version: "0.1.0", platform: "linux" })).body.agent.id as string;
  const echo = { serverId: server, method: "tools/call", name: "echo", arguments: { message: "alpha" }, assert: [{ kind: "status", equals: "ok" }] };
  const collection = (await api("POST", "/api/v1/collections", { name: "Echo checks", steps: [echo, echo] })).body.collection.id as string;
  const run = (await api("POST", `/api/v1/collections/${collection}/runs`, {})).body.run.id as string;
  const monitor = (await api("POST", "/api/v1/monitors", { collectionId: collection, schedule: { everySeconds: 3600 } })).body.monitor.id as string;
  const cookie = await sessionCookie(sb.url, owner.email, owner.password);
  const signedIn = (route: string, url: string): Page => ({ route, url, signedIn: true });
  const pages: Page[] = [
    { route: "/", url: "/", signedIn: true },
    { route: "/sign-in", url: "/sign-in", signedIn: false },
    { route: "/setup", url: "/setup", signedIn: false },
    { route: "/invite/[token]", url: new URL(invite).pathname, signedIn: false },
    { route: "/s/[token]", url: new URL(share).pathname, signedIn: false },
    { route: "/s/[token] (not found)", url: "/s/no-such-link", signedIn: false, status: 404 },
    // Without a pending authorization it answers that the request cannot be answered: the same page and code.
    signedIn("/oauth/consent", "/oauth/consent"),
    { route: "(not found)", url: "/no-such-page", signedIn: true, status: 404 },
    signedIn("/servers", "/servers"),
    signedIn("/servers/new", "/servers/new"),
    signedIn("/servers/[id]", `/servers/${server}`),
    signedIn("/servers/[id]/oauth", `/servers/${server}/oauth`),
    signedIn("/agents", "/agents"),
    signedIn("/agents/[id]", `/agents/${agent}`),
    signedIn("/dashboard", "/dashboard"),
    signedIn("/history", "/history"),
    signedIn("/history/compare", `/history/compare?a=${calls[0]}&b=${calls[1]}`),
    signedIn("/calls/[id]", `/calls/${calls[0]}`),
    signedIn("/settings", "/settings"),
    signedIn("/settings/tokens", "/settings/tokens"),
    signedIn("/settings/members", "/settings/members"),
    signedIn("/settings/workspace", "/settings/workspace"),
    signedIn("/settings/shares", "/settings/shares"),
    signedIn("/settings/audit", "/settings/audit"),
    signedIn("/collections", "/collections"),
    signedIn("/collections/[id]", `/collections/${collection}`),
    signedIn("/runs/[id]", `/runs/${run}`),
    signedIn("/settings/environments", "/settings/environments"),
    signedIn("/monitors", "/monitors"),
    signedIn("/monitors/[id]", `/monitors/${monitor}`),
    signedIn("/alerts", "/alerts"),
  ];
  return { cookie, pages, api };
}

interface Measured {
  page: Page;
  /** The first request after start-up: the route's server code loads then. */
  firstMs: number;
  /** The console's CPU time (user + system) per request. */
  cpuMs: number;
  scripts: number;
  raw: number;
  gzip: number;
  brotli: number;
  p50: number;
  p95: number;
}

/** The page's HTML once, then every `<script src>` it names, compressed as a server would (gzip -6, brotli -5). */
async function pageScripts(base: string, page: Page, cookie: string, cache: Map<string, Buffer>) {
  const res = await fetch(`${base}${page.url}`, { headers: page.signedIn ? { cookie } : {}, redirect: "manual" });
  const html = await res.text();
  if (res.status !== (page.status ?? 200)) throw new Error(`${page.url}: HTTP ${res.status}`);
  // noModule scripts (Next's legacy polyfills) are skipped by every browser that runs modules.
  const tags = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"[^>]*>/g)].filter((m) => !/\snomodule/i.test(m[0]));
  const srcs = [...new Set(tags.map((m) => m[1]!.replace(/&amp;/g, "&")))];
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const src of srcs) {
    let body = cache.get(src);
    if (!body) {
      const chunk = await fetch(new URL(src, base));
      if (!chunk.ok) throw new Error(`${src}: HTTP ${chunk.status}`);
      body = Buffer.from(await chunk.arrayBuffer());
      cache.set(src, body);
    }
    raw += body.length;
    gzip += zlib.gzipSync(body, { level: 6 }).length;
    brotli += zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
  }
  return { scripts: srcs.length, raw, gzip, brotli };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 Hz)
}

/** One request, timed until the whole body has arrived. */
async function timed(base: string, page: Page, cookie: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${base}${page.url}`, { headers: page.signedIn ? { cookie } : {}, redirect: "manual" });
  await res.arrayBuffer();
  if (res.status !== (page.status ?? 200)) throw new Error(`${page.url}: HTTP ${res.status}`);
  return performance.now() - start;
}

/** `REQUESTS` requests one after another after `WARMUP`, and the console's CPU time per request. */
async function responseTimes(base: string, page: Page, cookie: string, pid: number): Promise<{ times: number[]; cpuMs: number }> {
  for (let i = 0; i < WARMUP; i++) await timed(base, page, cookie);
  const before = cpuMs(pid);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await timed(base, page, cookie));
  return { times, cpuMs: (cpuMs(pid) - before) / REQUESTS };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** A seeded console's pages and its 16 signed-in people: the owner and invited members, each with a session of their own. */
async function loadTarget(label: string, sb: ConsoleHandle, everythingUrl: string, seeded?: Awaited<ReturnType<typeof seed>>): Promise<LoadTarget> {
  const { cookie, pages, api } = seeded ?? (await seed(sb, everythingUrl));
  const chosen = chosenPages(pages);
  const people = [new CookieJar(cookie), ...(await invitedPeople(sb.url, api, PEOPLE - 1))];
  return { label, base: sb.url, pages: chosen, people, cpuMs: () => cpuMs(sb.pid()) };
}

/** Per page of the built console: the JavaScript it loads (compressed) and its server response time, one request at a time and under 16 signed-in people at once. */
export async function benchUi(): Promise<void> {
  const everything = await startEverything("streamableHttp");
  const nodeArgs = PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE}`] : [];
  const sb = await startConsole({ nodeArgs });
  const baseline = BASELINE ? await startConsole({ nodeArgs, env: { NEXT_DIST_DIR: BASELINE } }) : null;
  try {
    const seeded = await seed(sb, everything.url);
    const missing = appRoutes().filter((route) => !seeded.pages.some((p) => p.route === route));
    if (missing.length) throw new Error(`bench/ui.ts has no URL for: ${missing.join(", ")}`);
    if (chosenPages(seeded.pages).length !== (ONLY_PAGES?.[0] === "*" ? seeded.pages.length : (ONLY_PAGES?.length ?? seeded.pages.length))) throw new Error(`BENCH_UI_PAGES names an unknown route: ${ONLY_PAGES!.join(", ")}`);
    if (SEQUENTIAL) await sequential(sb, seeded.cookie, chosenPages(seeded.pages));
    const targets = [...(baseline ? [await loadTarget("before", baseline, everything.url)] : []), await loadTarget(baseline ? "after" : "console", sb, everything.url, seeded)];
    const loadBefore = os.loadavg()[0]!;
    const runs = await interleavedLoad(targets, ROUNDS, PROFILE && path.join(PROFILE, "window.json"));
    const lines = [
      `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. The built console as in the section above (SQLite, the same seed)${baseline ? `; "before" is a second console from the build ${process.env.BENCH_UI_BASELINE_LABEL ?? BASELINE}, "after" this tree's` : ""}. Load average (1 min) ${loadBefore.toFixed(1)} before the timed rounds, ${os.loadavg()[0]!.toFixed(1)} after, on ${os.cpus().length} cores.`,
      "",
      ...loadLines(targets.map((t) => t.label), runs, PEOPLE, ROUNDS),
    ];
    // A subset is a profile or a comparison: printed, not written over the whole section.
    if (!ONLY_PAGES) writeSection(`UI: pages under ${PEOPLE} concurrent signed-in users`, lines.join("\n"));
    console.log(lines.join("\n"));
  } catch (err) {
    console.error(sb.logs().slice(-4000));
    throw err;
  } finally {
    await sb.stop();
    await baseline?.stop();
    await everything.stop();
  }
}

/** The section "UI: page JavaScript and server response": each page alone, one request at a time. */
async function sequential(sb: ConsoleHandle, cookie: string, pages: Page[]): Promise<void> {
  // Each page's first request after start-up, before any other request to it.
  const first = new Map<Page, number>();
  for (const page of pages) first.set(page, await timed(sb.url, page, cookie));
  const cache = new Map<string, Buffer>();
  const results: Measured[] = [];
  for (const page of pages) {
    const js = await pageScripts(sb.url, page, cookie, cache);
    const { times, cpuMs } = await responseTimes(sb.url, page, cookie, sb.pid());
    const r: Measured = { page, ...js, firstMs: first.get(page)!, cpuMs, p50: percentile(times, 50), p95: percentile(times, 95) };
    results.push(r);
    console.log(`${page.route.padEnd(24)} ${kb(r.gzip).padStart(7)} KB gzip  first ${r.firstMs.toFixed(0)} ms  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  CPU ${r.cpuMs.toFixed(1)} ms`);
  }
  const largest = results.reduce((a, b) => (b.gzip > a.gzip ? b : a));
  const slowest = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  const over = results.filter((r) => r.p95 > RESPONSE_TARGET_MS).map((r) => r.page.route);
  const met = (ok: boolean) => (ok ? "met" : "**not met**");
  const lines = [
    `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. The built console (\`next build\` served by server.ts as \`npm start\` does) on SQLite, signed in as an owner with two servers (one connected to server-everything), 43 calls, a share link, an invitation and a paired agent. Every page route under app/ (the bench fails if one has no URL here), plus the not-found pages.`,
    "",
    `- JavaScript: the scripts the page's HTML loads (\`<script src>\`, each chunk once; Next's \`noModule\` polyfills left out, modern browsers skip them), compressed here with gzip level 6 and brotli quality 5 (the console serves them uncompressed, \`compress: false\`; a reverse proxy in front compresses). Widgets loaded lazily (the tool run form, CodeMirror, Markdown, Prism, structured content, the interaction dialogs, the command palette, the dashboard's charts, the zod schemas the add/edit server forms parse with) are fetched only when first shown or used and are not counted.`,
    `- Response: the first request after start-up (the route's server code loads then), then ${REQUESTS} requests one after another after ${WARMUP} warm-up, each timed until the whole HTML has arrived; CPU is the console process's user + system time per request (from /proc; a page load includes proxy.ts looking up the signed-in person's theme), which the machine's load does not inflate the way it does wall time.`,
    "",
    "| page | URL | scripts | JS raw KB | JS gzip KB | JS brotli KB | first ms | p50 ms | p95 ms | CPU ms/request |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      (r) =>
        `| ${r.page.route} | ${r.page.url.replace(/[0-9a-z]{20,}|[A-Za-z0-9_-]{24,}/g, "…")} | ${r.scripts} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} | ${r.firstMs.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.cpuMs.toFixed(1)} |`,
    ),
    "",
    `- Largest page's JavaScript: ${largest.page.route}, ${kb(largest.gzip)} KB gzip, ${kb(largest.brotli)} KB brotli (target ≤ ${JS_TARGET_KB} KB compressed): gzip ${met(largest.gzip / 1024 <= JS_TARGET_KB)}, brotli ${met(largest.brotli / 1024 <= JS_TARGET_KB)}.`,
    `- Slowest page's server response: ${slowest.page.route}, p95 ${slowest.p95.toFixed(1)} ms (target every page ≤ ${RESPONSE_TARGET_MS} ms): ${met(!over.length)}${over.length ? ` (over: ${over.join(", ")})` : ""}.`,
    `- Load average (1 min) at the end of the run: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores.`,
  ];
  if (largest.gzip / 1024 > JS_TARGET_KB) {
    lines.push(
      `- Why the JavaScript target is not met: every page shares React, Next, the providers and the console shell (${kb(results.find((r) => r.page.route === "/servers")!.gzip)} KB gzip on /servers); ${largest.page.route} adds its own libraries on top. What would close it: load what the page does not show at once lazily (docs/architecture.md, "Page weight"), as the dashboard's charts and the tool run form are.`,
    );
  }
  if (over.length) {
    // Every page is prerendered HTML (the share page's shell is served by the console itself, lib/domains/shares/page-front.ts).
    const cpu = results.map((r) => r.cpuMs);
    lines.push(
      `- Why the response target is not met: ${over.join(", ")} over it at ${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)} ms of CPU per request: no page renders per request, so wall time above that is the machine's load.`,
    );
  }
  if (!ONLY_PAGES) writeSection("UI: page JavaScript and server response", lines.join("\n"));
  console.log(lines.join("\n"));
}
