import { prisma } from "@/lib/core/db/client";

/** The workspace's own allow-list (a JSON array in `workspace.allowed_networks`), or [] when it has none. */
export async function findAllowedNetworks({ workspaceId }: { workspaceId: string }): Promise<string[]> {
  const row = await prisma.workspace.findUnique({ where: { id: workspaceId }, select: { allowedNetworks: true } });
  return row?.allowedNetworks ? (JSON.parse(row.allowedNetworks) as string[]) : [];
}
