-- CreateIndex
CREATE INDEX "call_stats_idx" ON "call"("workspace_id", "server_id", "started_at", "status", "duration_ms", "method", "name", "user_id", "origin");

