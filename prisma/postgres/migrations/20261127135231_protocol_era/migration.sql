-- AlterTable
ALTER TABLE "server" ADD COLUMN     "protocol_era" TEXT NOT NULL DEFAULT 'auto';

-- AlterTable
ALTER TABLE "mcp_session" ADD COLUMN     "negotiation" TEXT,
ADD COLUMN     "negotiation_note" TEXT;

