-- AlterTable
ALTER TABLE "call" ADD COLUMN "sent_invalid" BOOLEAN NOT NULL DEFAULT false;
