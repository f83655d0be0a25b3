import { withWorkspace } from "@/lib/api/route";
import { listTags } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// GET /api/v1/tags – the workspace's tags with how many calls carry each, most used first
export const GET = withWorkspace(async ({ principal }) => ({ items: await listTags(principal) }));
