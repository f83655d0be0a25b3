-- AlterTable (written by hand: Prisma would rebuild the table, which drops the FTS5 triggers on "call")
ALTER TABLE "call" ADD COLUMN "sent_invalid" BOOLEAN NOT NULL DEFAULT false;
