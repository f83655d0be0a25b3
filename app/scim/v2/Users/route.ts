import { scimHandlers as h } from "@/lib/team/scim/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /scim/v2/Users – list (filter, startIndex, count); POST – provision a person (SCIM token)
export const GET = h.listUsers;
export const POST = h.createUser;
