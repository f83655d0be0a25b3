import { z } from "zod";

/** The authenticated caller of an API route. */
export interface Principal {
  userId: string;
  userName: string;
  workspaceId: string;
  role: string;
  via: "session" | "token";
  tokenId?: string;
}

export const SetupSchema = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.email().max(200),
  password: z.string().min(8).max(128),
  workspaceName: z.string().trim().min(1).max(100).default("Default"),
});
export type Setup = z.infer<typeof SetupSchema>;

export const CreateTokenSchema = z.object({ name: z.string().trim().min(1).max(100) });
export type CreateToken = z.infer<typeof CreateTokenSchema>;

export interface ApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const authKeys = {
  me: () => ["me"] as const,
  tokens: () => ["tokens"] as const,
};
