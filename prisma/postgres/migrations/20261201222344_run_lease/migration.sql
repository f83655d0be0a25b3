-- AlterTable
ALTER TABLE "collection_run" ADD COLUMN     "lease_until" TIMESTAMP(3);

