import { clientMetadataDocument } from "@/lib/domains/server-oauth/server";

export const runtime = "nodejs";

// GET /oauth/client-metadata.json – the console's OAuth Client ID Metadata Document (public; its URL is the client_id)
export function GET(request: Request): Response {
  return Response.json(clientMetadataDocument(request), { headers: { "cache-control": "public, max-age=3600" } });
}
