-- CreateIndex
CREATE INDEX "call_rerun_of_id_idx" ON "call"("rerun_of_id");

-- CreateIndex
CREATE INDEX "call_parent_call_id_idx" ON "call"("parent_call_id");

-- CreateIndex
CREATE INDEX "call_star_call_id_idx" ON "call_star"("call_id");

