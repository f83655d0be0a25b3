import { Reply, withWorkspace } from "@/lib/api/route";
import { exportMock } from "@/lib/domains/mocks/server";

export const runtime = "nodejs";

// GET /api/v1/mocks/:id/export – the mock as the file `switchboard mock serve` serves, as an attachment
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  const file = await exportMock(principal, params.id);
  return new Reply(file, 200, { "content-disposition": `attachment; filename="${file.name}.mock.json"` });
});
