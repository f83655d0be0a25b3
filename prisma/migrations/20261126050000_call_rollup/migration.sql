-- CreateTable
CREATE TABLE "call_rollup" (
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "grain" INTEGER NOT NULL,
    "start_minute" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "timed" INTEGER NOT NULL,
    "duration_sum" REAL NOT NULL,
    "duration_min" REAL,
    "duration_max" REAL,
    "histogram" TEXT NOT NULL DEFAULT '',

    PRIMARY KEY ("workspace_id", "server_id", "grain", "kind", "start_minute", "key", "name"),
    CONSTRAINT "call_rollup_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "call_rollup_state" (
    "workspace_id" TEXT NOT NULL PRIMARY KEY,
    "through_minute" INTEGER NOT NULL,
    CONSTRAINT "call_rollup_state_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "call_rollup_pending" (
    "call_id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "started_at" DATETIME NOT NULL,
    CONSTRAINT "call_rollup_pending_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "call_rollup_pending_workspace_id_started_at_idx" ON "call_rollup_pending"("workspace_id", "started_at");
