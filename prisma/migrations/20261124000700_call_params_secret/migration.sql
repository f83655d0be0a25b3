-- AlterTable
ALTER TABLE "call" ADD COLUMN "params_secret" TEXT;

