import { Reply, withWorkspace } from "@/lib/api/route";
import { addDemoServer } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/demo – add the built-in demo server (served in-process); the existing one if there is one
export const POST = withWorkspace(async ({ principal }) => {
  const { server, created } = await addDemoServer(principal);
  return new Reply({ server }, created ? 201 : 200);
});
