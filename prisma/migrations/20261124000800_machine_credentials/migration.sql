-- AlterTable
ALTER TABLE "server" ADD COLUMN "oauth_client_auth" TEXT;
ALTER TABLE "server" ADD COLUMN "oauth_key_alg" TEXT;
ALTER TABLE "server" ADD COLUMN "oauth_scope" TEXT;

