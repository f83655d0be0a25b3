import { withWorkspace } from "@/lib/api/route";
import { previewShare } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// GET /api/v1/calls/:id/share-preview – exactly what a link would show, and which fields are masked
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => previewShare(principal, params.id));
