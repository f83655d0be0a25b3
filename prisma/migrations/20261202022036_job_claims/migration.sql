-- CreateTable
CREATE TABLE "job_claim" (
    "job" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "due_at" DATETIME NOT NULL,
    "instance_id" TEXT NOT NULL,
    "claimed_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" DATETIME NOT NULL,
    "finished_at" DATETIME,
    "outcome" TEXT,

    PRIMARY KEY ("job", "key", "due_at")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_capability_snapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "taken_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "hash" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "counts" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    CONSTRAINT "capability_snapshot_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "capability_snapshot_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Existing snapshots are numbered per server in the order they were taken.
INSERT INTO "new_capability_snapshot" ("counts", "data", "hash", "id", "server_id", "source", "taken_at", "workspace_id", "seq") SELECT "counts", "data", "hash", "id", "server_id", "source", "taken_at", "workspace_id", ROW_NUMBER() OVER (PARTITION BY "server_id" ORDER BY "taken_at", "id") FROM "capability_snapshot";
DROP TABLE "capability_snapshot";
ALTER TABLE "new_capability_snapshot" RENAME TO "capability_snapshot";
CREATE INDEX "capability_snapshot_server_id_taken_at_idx" ON "capability_snapshot"("server_id", "taken_at");
CREATE INDEX "capability_snapshot_workspace_id_idx" ON "capability_snapshot"("workspace_id");
CREATE UNIQUE INDEX "capability_snapshot_server_id_seq_key" ON "capability_snapshot"("server_id", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "job_claim_due_at_idx" ON "job_claim"("due_at");

