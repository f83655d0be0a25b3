import { scimHandlers as h } from "@/lib/team/scim/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET|PUT|PATCH|DELETE /scim/v2/Groups/:id – one group; membership changes re-apply the group → role mapping
export const GET = h.getGroup;
export const PUT = h.replaceGroup;
export const PATCH = h.patchGroup;
export const DELETE = h.deleteGroup;
