import { withWorkspace } from "@/lib/api/route";
import { SwitchboardError } from "@/lib/core/errors";
import { acceptSnapshot } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// POST /api/v1/runs/:id/steps/:index/accept – keep this step's result as its snapshot (the collection's author, or an admin)
export const POST = withWorkspace<{ id: string; index: string }>(async ({ principal, params }) => {
  const index = Number(params.index);
  if (!/^\d{1,4}$/.test(params.index) || !Number.isInteger(index)) throw new SwitchboardError("bad_request", "A step index is a whole number from 0");
  return { collection: await acceptSnapshot(principal, params.id, index) };
});
