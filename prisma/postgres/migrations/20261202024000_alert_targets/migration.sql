-- AlterTable
ALTER TABLE "alert" ADD COLUMN "targets" TEXT;
