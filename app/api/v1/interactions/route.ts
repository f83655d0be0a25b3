import { withWorkspace } from "@/lib/api/route";
import { ListInteractionsSchema } from "@/lib/domains/interactions/schemas";
import { listInteractions } from "@/lib/domains/interactions/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/interactions – server-initiated requests (elicitation, sampling), newest first; ?status=pending&serverId=
export const GET = withWorkspace(async ({ request, principal }) => {
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = ListInteractionsSchema.safeParse(search);
  const filter = parsed.success ? parsed.data : {};
  return { items: await listInteractions(principal, filter) };
});
