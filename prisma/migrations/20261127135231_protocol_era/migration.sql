-- AlterTable (ADD COLUMN rather than Prisma's table rebuild, which would drop the partial unique
-- index server_workspace_active_name_key and keep concurrent migrations on "server" from composing)
ALTER TABLE "server" ADD COLUMN "protocol_era" TEXT NOT NULL DEFAULT 'auto';

-- AlterTable
ALTER TABLE "mcp_session" ADD COLUMN "negotiation" TEXT;
ALTER TABLE "mcp_session" ADD COLUMN "negotiation_note" TEXT;
