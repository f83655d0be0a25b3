-- AlterTable
ALTER TABLE "load_test" ADD COLUMN "lag" TEXT;

