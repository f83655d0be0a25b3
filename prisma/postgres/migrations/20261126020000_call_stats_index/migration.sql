-- CreateIndex
CREATE INDEX "call_stats_idx" ON "call"("workspace_id", "started_at", "server_id", "status", "duration_ms", "method", "name", "user_id", "origin");

