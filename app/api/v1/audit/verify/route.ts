import { withWorkspace } from "@/lib/api/route";
import { verifyAudit } from "@/lib/core/audit/server";

export const runtime = "nodejs";

// GET /api/v1/audit/verify – recomputes the workspace's audit hash chain: { ok, checked, unchained, anchorSeq, firstBroken?: { seq, id, reason } }
export const GET = withWorkspace(async ({ principal }) => verifyAudit(principal));
