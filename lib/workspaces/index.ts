import { z } from "zod";

export const CreateWorkspaceSchema = z.object({ name: z.string().trim().min(1).max(100) });
export type CreateWorkspace = z.infer<typeof CreateWorkspaceSchema>;

export interface WorkspaceDto {
  id: string;
  name: string;
  slug: string;
}

export interface MeDto {
  user: { id: string; name: string; email: string };
  workspace: WorkspaceDto;
  role: string;
  workspaces: (WorkspaceDto & { role: string })[];
}

export const workspaceKeys = { me: () => ["me"] as const };
