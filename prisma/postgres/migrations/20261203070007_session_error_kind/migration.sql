-- AlterTable
ALTER TABLE "mcp_session" ADD COLUMN     "error_kind" TEXT;


-- Sessions that failed for want of a sign-in before the column: their stored message says so (lib/domains/server-oauth signInMessage).
UPDATE "mcp_session" SET "error_kind" = 'sign_in_required' WHERE "status" = 'failed' AND "error" LIKE '%needs %sign-in: sign in to % first';
