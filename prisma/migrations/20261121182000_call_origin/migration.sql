-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_call" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "session_id" TEXT,
    "user_id" TEXT,
    "user_name" TEXT,
    "method" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "is_error" BOOLEAN NOT NULL DEFAULT false,
    "request_id" TEXT NOT NULL,
    "trace_id" TEXT NOT NULL,
    "rerun_of_id" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "parent_call_id" TEXT,
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" DATETIME,
    "duration_ms" REAL,
    "request_size" INTEGER NOT NULL DEFAULT 0,
    "result_size" INTEGER,
    CONSTRAINT "call_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "call_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "call_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "call_rerun_of_id_fkey" FOREIGN KEY ("rerun_of_id") REFERENCES "call" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "call_parent_call_id_fkey" FOREIGN KEY ("parent_call_id") REFERENCES "call" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_call" ("duration_ms", "error", "finished_at", "id", "is_error", "method", "name", "params", "request_id", "request_size", "rerun_of_id", "result", "result_size", "server_id", "session_id", "started_at", "status", "trace_id", "user_id", "user_name", "workspace_id") SELECT "duration_ms", "error", "finished_at", "id", "is_error", "method", "name", "params", "request_id", "request_size", "rerun_of_id", "result", "result_size", "server_id", "session_id", "started_at", "status", "trace_id", "user_id", "user_name", "workspace_id" FROM "call";
DROP TABLE "call";
ALTER TABLE "new_call" RENAME TO "call";
CREATE INDEX "call_workspace_id_started_at_id_idx" ON "call"("workspace_id", "started_at", "id");
CREATE INDEX "call_workspace_id_server_id_started_at_idx" ON "call"("workspace_id", "server_id", "started_at");
CREATE INDEX "call_status_idx" ON "call"("status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

