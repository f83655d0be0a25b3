import { z } from "zod";
import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { loadIcon } from "@/lib/core/icons/server";
import { outboundFetch } from "@/lib/core/net/server";

export const runtime = "nodejs";

const QuerySchema = z.object({ src: z.string().min(1).max(200_000) });

// GET /api/v1/icons?src=<https or data URL> – a server-provided icon, fetched and checked by the console
export const GET = withWorkspace(async ({ request, principal }) => {
  const { src } = parseQuery(request, QuerySchema);
  const { bytes, type } = await loadIcon(src, outboundFetch({ workspaceId: principal.workspaceId, strict: true }));
  return Reply.raw(bytes, 200, {
    "content-type": type,
    "content-disposition": "inline",
    "content-security-policy": "default-src 'none'",
    "x-content-type-options": "nosniff",
    "cache-control": "private, max-age=3600",
  });
});
