-- AlterTable
ALTER TABLE "collection_run" ADD COLUMN "lease_until" DATETIME;

