-- DropIndex
DROP INDEX "call_workspace_id_started_at_id_idx";

-- DropIndex
DROP INDEX "call_workspace_id_server_id_started_at_id_idx";

-- DropIndex
DROP INDEX "call_workspace_id_name_started_at_id_idx";

-- DropIndex
DROP INDEX "call_workspace_id_user_id_started_at_id_idx";

-- DropIndex
DROP INDEX "call_status_idx";

-- DropIndex
DROP INDEX "call_stats_idx";

-- CreateIndex
CREATE INDEX "call_history_time_idx" ON "call"("workspace_id", "started_at", "id", "server_id", "name", "user_id", "origin");

-- CreateIndex
CREATE INDEX "call_history_name_idx" ON "call"("workspace_id", "name", "started_at", "id", "server_id", "user_id", "origin");

-- CreateIndex
CREATE INDEX "call_history_user_idx" ON "call"("workspace_id", "user_id", "started_at", "id", "server_id", "name", "origin");

-- CreateIndex
CREATE INDEX "call_history_origin_idx" ON "call"("workspace_id", "origin", "started_at", "id", "server_id", "name", "user_id");

-- CreateIndex
CREATE INDEX "call_history_status_idx" ON "call"("status", "workspace_id", "started_at", "id", "server_id", "name", "user_id", "origin");

-- CreateIndex
CREATE INDEX "call_stats_idx" ON "call"("workspace_id", "server_id", "started_at", "id", "status", "duration_ms", "method", "name", "user_id", "origin");

