import { chainHash, GENESIS } from "./chain";
import * as q from "./queries";

const BATCH = 1000;

export interface VerifyAnswer {
  ok: boolean;
  /** Chained rows whose hash was recomputed. */
  checked: number;
  /** Rows written before the chain existed (no seq): not covered by it. */
  unchained: number;
  /** Where the chain starts: after the last row the retention purge deleted (0: from the first row). */
  anchorSeq: number;
  /** The first row that does not fit: changed (its hash differs), missing (a gap, `id` null) or out of order. */
  firstBroken?: { seq: number; id: number | null; reason: "changed" | "missing" | "anchor" };
}

/** The anchor's hash, from the newest purge record that names it (a chained row itself). */
async function anchorHash(workspaceId: string, anchorSeq: number): Promise<string | null> {
  for (const record of await q.purgeRecords({ workspaceId })) {
    try {
      const anchor = (JSON.parse(record.details ?? "{}") as { anchor?: { seq: number; hash: string } }).anchor;
      if (anchor?.seq === anchorSeq) return anchor.hash;
    } catch {
      // A record whose details were edited: the chain names it.
    }
  }
  return null;
}

/**
 * Recomputes a workspace's hash chain in batches, from its anchor to its head (the "audit"
 * sequence): a changed row, a deleted one (a gap, or a missing head) or rows moved are named.
 */
export async function verifyChain({ workspaceId }: { workspaceId: string }): Promise<VerifyAnswer> {
  const seqs = await q.sequences({ workspaceId });
  const head = seqs.audit ?? 0;
  const anchorSeq = seqs["audit-anchor"] ?? 0;
  const unchained = await q.countUnchained({ workspaceId });
  const answer: VerifyAnswer = { ok: true, checked: 0, unchained, anchorSeq };
  const broken = (seq: number, id: number | null, reason: "changed" | "missing" | "anchor"): VerifyAnswer => ({ ...answer, ok: false, firstBroken: { seq, id, reason } });
  let previous = GENESIS;
  if (anchorSeq > 0) {
    const hash = await anchorHash(workspaceId, anchorSeq);
    if (hash === null) return broken(anchorSeq, null, "anchor");
    previous = hash;
  }
  let expected = anchorSeq + 1;
  for (;;) {
    const rows = await q.chainedRows({ workspaceId, afterSeq: expected - 1, limit: BATCH });
    // Rows at or below the anchor should have gone with the purge; one left there is out of place.
    for (const row of rows) {
      const seq = row.seq!;
      if (seq !== expected) return broken(expected, null, "missing");
      if (!row.hash || chainHash(previous, { ...row, workspaceId, seq }) !== row.hash) return broken(seq, row.id, "changed");
      previous = row.hash;
      answer.checked++;
      expected++;
    }
    if (rows.length < BATCH) break;
  }
  if (expected <= head) return broken(expected, null, "missing");
  return answer;
}
