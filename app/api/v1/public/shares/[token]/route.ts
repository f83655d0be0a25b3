import { Reply, withPublic } from "@/lib/api/route";
import { openShare } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// GET /api/v1/public/shares/:token – the shared call, redacted, for anyone with the link (410 when gone)
export const GET = withPublic<{ token: string }>(async ({ params }) => {
  const shared = await openShare(params.token);
  return new Reply(shared, 200, { "cache-control": "no-store", "x-robots-tag": "noindex" });
});
