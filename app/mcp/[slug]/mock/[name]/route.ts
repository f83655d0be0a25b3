import { mockHandler } from "@/lib/gateway/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// A mock server made from history (docs/testing-servers.md, "Mock servers"): it answers from
// recorded calls, with the gateway's auth and transports.
export const GET = mockHandler;
export const POST = mockHandler;
export const DELETE = mockHandler;
