-- AlterTable
ALTER TABLE "workspace" ADD COLUMN "allowed_networks" TEXT;

