import { withWorkspace } from "@/lib/api/route";
import { notFound } from "@/lib/core/errors";
import { CAPABILITY_KINDS, type CapabilityKind } from "@/lib/domains/servers";
import { listOffered } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/{tools,resources,resource-templates,prompts} – every page merged, as the caller may call it (docs/governance.md)
export const GET = withWorkspace<{ id: string; kind: string }>(async ({ principal, params }) => {
  if (!CAPABILITY_KINDS.includes(params.kind as CapabilityKind)) throw notFound("Route");
  return { items: await listOffered(principal, params.id, params.kind as CapabilityKind) };
});
