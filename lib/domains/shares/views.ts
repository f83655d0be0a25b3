import "server-only";
import { hashToken } from "@/lib/core/crypto";
import { redactionKeys } from "@/lib/core/redaction";
import { cacheEpoch, piece } from "@/lib/core/runtime";
import { serverSecretValues } from "@/lib/domains/server-oauth/server";
import { SHARE_TOKEN_PATTERN, type PublicShareDto } from "./index";
import * as q from "./queries";
import { publicRun } from "./run-shares";
import { toSharedCall } from "./shared-call";
import { shareStatements, type ShareCheck } from "./view-sql";

/** What a link shows now: its call or run (with the JSON the page embeds), why it is gone, or nothing. */
export type ShareView = { state: "open"; share: PublicShareDto; json: string } | { state: "gone"; reason: string } | { state: "unknown" };

interface Built {
  share: PublicShareDto;
  /** The DTO as JSON safe inside an HTML `<script>` (`<` escaped). */
  json: string;
  /** A finished call or run, built from what the check saw: nothing but what an entry is checked against changes it. */
  keep: boolean;
}

/**
 * A built view, reused while the database says the link is open with the same redaction list and
 * expiry, no server's secrets changed since (the serverCache epoch: forgetCache on every
 * instance), and for at most VIEW_MS (environment secrets, a missed announcement).
 */
interface Entry {
  redactionKeys: string | null;
  expiresAt: string | null;
  epoch: number;
  until: number;
  built: Promise<Built | null>;
  bytes: number;
}

const VIEW_MS = 60_000;
const MAX_VIEWS = 500;
const MAX_BYTES = 8 * 1024 * 1024;
// A larger view is built on every request rather than crowd out the others.
const MAX_VIEW_BYTES = 1024 * 1024;

type Views = { entries: Map<string, Entry>; bytes: number; prepared?: Parameters<typeof shareStatements>[0]["prepared"] };
const views = () => piece("shareViews", (): Views => ({ entries: new Map(), bytes: 0 }));

/**
 * A link opened by anyone who has it. Every view asks the database whether the link is still open
 * (one prepared statement; on SQLite synchronous), so a revoked, expired or switched-off link is
 * gone at once on every instance and a deleted one unknown; only the built call or run is kept.
 * `count`: the view is counted (pages and the public API), as before.
 */
export async function viewShare(token: string, { count }: { count: boolean }): Promise<ShareView> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const tokenHash = hashToken(token);
  const statements = await shareStatements(views());
  const check = await statements.check(tokenHash);
  const reason = check && goneReason(check);
  if (!check || reason) {
    forget(tokenHash);
    return check ? { state: "gone", reason: reason! } : { state: "unknown" };
  }
  const built = await builtView(tokenHash, check);
  if (!built) return { state: "unknown" };
  if (count) await statements.countView(check.id, new Date());
  return { state: "open", share: built.share, json: built.json };
}

/** Whether a link is open, gone (with why) or unknown: the check alone, nothing built or counted. */
export async function checkShare(token: string): Promise<{ state: "active" } | { state: "gone"; reason: string } | { state: "unknown" }> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const check = await (await shareStatements(views())).check(hashToken(token));
  if (!check) return { state: "unknown" };
  const reason = goneReason(check);
  return reason ? { state: "gone", reason } : { state: "active" };
}

function goneReason(share: { revoked: boolean; expiresAt: string | null; sharesEnabled: boolean }): string | null {
  if (share.revoked) return "This share link was revoked";
  if (share.expiresAt && Date.parse(share.expiresAt) <= Date.now()) return `This share link expired on ${share.expiresAt.slice(0, 10)}`;
  if (!share.sharesEnabled) return "Public share links are turned off for the workspace this belongs to";
  return null;
}

function builtView(tokenHash: string, check: ShareCheck): Promise<Built | null> {
  const epoch = cacheEpoch("serverCache");
  const hit = views().entries.get(tokenHash);
  if (hit && hit.redactionKeys === check.redactionKeys && hit.expiresAt === check.expiresAt && hit.epoch === epoch && hit.until > Date.now()) return hit.built;
  forget(tokenHash);
  const entry: Entry = { redactionKeys: check.redactionKeys, expiresAt: check.expiresAt, epoch, until: Date.now() + VIEW_MS, built: build(tokenHash, check), bytes: 0 };
  const state = views();
  state.entries.set(tokenHash, entry);
  const drop = () => state.entries.get(tokenHash) === entry && forget(tokenHash);
  entry.built.then((built) => {
    // Kept only if what it was built from is what the check saw, and no server changed meanwhile.
    if (!built?.keep || built.json.length > MAX_VIEW_BYTES || epoch !== cacheEpoch("serverCache")) return drop();
    if (state.entries.get(tokenHash) !== entry) return;
    entry.bytes = built.json.length;
    state.bytes += entry.bytes;
    trim(state);
  }, drop);
  return entry.built;
}

/** Oldest first (a Map keeps insertion order): expired entries, then any over the bounds. */
function trim(state: Views): void {
  const now = Date.now();
  for (const [key, entry] of state.entries) {
    if (entry.until > now && state.entries.size <= MAX_VIEWS && state.bytes <= MAX_BYTES) break;
    forget(key);
  }
}

function forget(tokenHash: string): void {
  const state = views();
  const entry = state.entries.get(tokenHash);
  if (!entry) return;
  state.bytes -= entry.bytes;
  state.entries.delete(tokenHash);
}

/** The call or run as the public sees it, built with the workspace's current redaction list and the servers' stored secrets. */
async function build(tokenHash: string, check: ShareCheck): Promise<Built | null> {
  const share = await q.findShareByToken({ tokenHash });
  if (!share) return null;
  const asChecked = share.workspace.redactionKeys === check.redactionKeys && (share.expiresAt?.toISOString() ?? null) === check.expiresAt;
  const info = { createdAt: share.createdAt.toISOString(), expiresAt: share.expiresAt?.toISOString() ?? null };
  const keys = redactionKeys(share.workspace.redactionKeys);
  let dto: PublicShareDto;
  let final: boolean;
  if (share.run) {
    dto = { kind: "run", run: await publicRun(share.run, keys), share: info };
    final = share.run.status !== "running";
  } else if (share.call) {
    const secrets = await serverSecretValues({ workspaceId: share.call.workspaceId, serverId: share.call.serverId });
    dto = { kind: "call", call: toSharedCall(share.call, keys, secrets).call, share: info };
    final = share.call.status !== "pending";
  } else return null;
  return { share: dto, json: JSON.stringify(dto).replace(/</g, "\\u003c"), keep: final && asChecked };
}
