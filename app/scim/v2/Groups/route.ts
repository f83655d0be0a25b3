import { scimHandlers as h } from "@/lib/team/scim/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /scim/v2/Groups – list (filter, startIndex, count); POST – create a group (SCIM token)
export const GET = h.listGroups;
export const POST = h.createGroup;
