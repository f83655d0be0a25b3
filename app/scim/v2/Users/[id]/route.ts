import { scimHandlers as h } from "@/lib/team/scim/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET|PUT|PATCH|DELETE /scim/v2/Users/:id – one provisioned person; active false or DELETE ends their access at once
export const GET = h.getUser;
export const PUT = h.replaceUser;
export const PATCH = h.patchUser;
export const DELETE = h.deleteUser;
