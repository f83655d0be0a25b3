-- AlterTable
ALTER TABLE "capability_snapshot" ADD COLUMN     "seq" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "job_claim" (
    "job" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "due_at" TIMESTAMP(3) NOT NULL,
    "instance_id" TEXT NOT NULL,
    "claimed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),
    "outcome" TEXT,

    CONSTRAINT "job_claim_pkey" PRIMARY KEY ("job","key","due_at")
);

-- CreateIndex
CREATE INDEX "job_claim_due_at_idx" ON "job_claim"("due_at");

-- Existing snapshots are numbered per server in the order they were taken.
UPDATE "capability_snapshot" AS s SET "seq" = n."seq" FROM (SELECT "id", ROW_NUMBER() OVER (PARTITION BY "server_id" ORDER BY "taken_at", "id") AS "seq" FROM "capability_snapshot") AS n WHERE s."id" = n."id";

-- CreateIndex
CREATE UNIQUE INDEX "capability_snapshot_server_id_seq_key" ON "capability_snapshot"("server_id", "seq");

