import { scimHandlers as h } from "@/lib/team/scim/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /scim/v2/ResourceTypes – SCIM discovery (RFC 7644 §4)
export const GET = h.resourceTypes;
