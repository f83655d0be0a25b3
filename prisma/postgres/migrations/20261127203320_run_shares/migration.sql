-- AlterTable
ALTER TABLE "share" ADD COLUMN     "run_id" TEXT,
ALTER COLUMN "call_id" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "share_run_id_idx" ON "share"("run_id");

-- AddForeignKey
ALTER TABLE "share" ADD CONSTRAINT "share_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "collection_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A share names a call or a run, exactly one (written by hand: Prisma does not model CHECKs).
ALTER TABLE "share" ADD CONSTRAINT "share_target_check" CHECK (("call_id" IS NULL) <> ("run_id" IS NULL));
