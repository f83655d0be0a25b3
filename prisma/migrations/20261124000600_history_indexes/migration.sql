-- DropIndex
DROP INDEX "call_workspace_id_server_id_started_at_idx";

-- CreateIndex
CREATE INDEX "call_workspace_id_server_id_started_at_id_idx" ON "call"("workspace_id", "server_id", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_workspace_id_name_started_at_id_idx" ON "call"("workspace_id", "name", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_workspace_id_user_id_started_at_id_idx" ON "call"("workspace_id", "user_id", "started_at", "id");

