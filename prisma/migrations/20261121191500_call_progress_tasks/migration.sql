-- AlterTable
ALTER TABLE "server" ADD COLUMN "max_total_timeout_ms" INTEGER;

-- AlterTable
ALTER TABLE "call" ADD COLUMN "progress" TEXT;
ALTER TABLE "call" ADD COLUMN "task_id" TEXT;
ALTER TABLE "call" ADD COLUMN "task_poll_interval_ms" INTEGER;
ALTER TABLE "call" ADD COLUMN "task_status" TEXT;
ALTER TABLE "call" ADD COLUMN "task_status_message" TEXT;
ALTER TABLE "call" ADD COLUMN "task_updated_at" DATETIME;

-- CreateIndex
CREATE INDEX "call_server_id_task_id_idx" ON "call"("server_id", "task_id");

