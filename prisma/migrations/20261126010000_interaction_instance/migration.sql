-- AlterTable
ALTER TABLE "interaction" ADD COLUMN "instance_id" TEXT;

