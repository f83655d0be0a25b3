-- AlterTable
ALTER TABLE "user" ADD COLUMN "theme" TEXT;
