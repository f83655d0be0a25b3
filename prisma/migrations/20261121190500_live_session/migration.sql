-- AlterTable
ALTER TABLE "mcp_session" ADD COLUMN "health" TEXT;
ALTER TABLE "mcp_session" ADD COLUMN "health_error" TEXT;
ALTER TABLE "mcp_session" ADD COLUMN "last_ping_at" DATETIME;
ALTER TABLE "mcp_session" ADD COLUMN "last_ping_ms" REAL;
ALTER TABLE "mcp_session" ADD COLUMN "log_level" TEXT;

-- CreateTable
CREATE TABLE "session_log" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "severity" INTEGER NOT NULL,
    "logger" TEXT,
    "data" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_log_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "traffic_message" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "method" TEXT,
    "rpc_id" TEXT,
    "size" INTEGER NOT NULL,
    "duration_ms" REAL,
    "body" TEXT NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "at" DATETIME NOT NULL,
    CONSTRAINT "traffic_message_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "session_log_session_id_id_idx" ON "session_log"("session_id", "id");

-- CreateIndex
CREATE INDEX "session_log_server_id_id_idx" ON "session_log"("server_id", "id");

-- CreateIndex
CREATE INDEX "traffic_message_session_id_id_idx" ON "traffic_message"("session_id", "id");

