-- AlterTable
ALTER TABLE "call" ADD COLUMN "credential_mode" TEXT;
ALTER TABLE "call" ADD COLUMN "credential_user_id" TEXT;
ALTER TABLE "call" ADD COLUMN "credential_user_name" TEXT;

