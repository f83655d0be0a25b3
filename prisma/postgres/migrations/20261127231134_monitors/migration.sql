-- AlterTable
ALTER TABLE "collection_run" ADD COLUMN     "monitor_id" TEXT;

-- CreateTable
CREATE TABLE "monitor" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "collection_id" TEXT NOT NULL,
    "environment" TEXT,
    "schedule" TEXT NOT NULL,
    "mail" TEXT NOT NULL DEFAULT '[]',
    "webhooks" TEXT NOT NULL,
    "max_duration_ms" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_by_id" TEXT NOT NULL,
    "created_by_name" TEXT NOT NULL,
    "next_run_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_tick" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "instance_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "run_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_tick_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),
    "run_ids" TEXT NOT NULL DEFAULT '[]',
    "open_key" TEXT,

    CONSTRAINT "incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "monitor_id" TEXT,
    "monitor_name" TEXT,
    "server_id" TEXT,
    "server_name" TEXT,
    "run_id" TEXT,
    "incident_id" TEXT,
    "deliveries" TEXT NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "monitor_enabled_next_run_at_idx" ON "monitor"("enabled", "next_run_at");

-- CreateIndex
CREATE INDEX "monitor_workspace_id_idx" ON "monitor"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_tick_monitor_id_due_at_key" ON "monitor_tick"("monitor_id", "due_at");

-- CreateIndex
CREATE INDEX "monitor_tick_due_at_idx" ON "monitor_tick"("due_at");

-- CreateIndex
CREATE UNIQUE INDEX "incident_open_key_key" ON "incident"("open_key");

-- CreateIndex
CREATE INDEX "incident_monitor_id_kind_ended_at_idx" ON "incident"("monitor_id", "kind", "ended_at");

-- CreateIndex
CREATE INDEX "incident_monitor_id_started_at_idx" ON "incident"("monitor_id", "started_at");

-- CreateIndex
CREATE INDEX "alert_workspace_id_created_at_idx" ON "alert"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "collection_run_monitor_id_started_at_idx" ON "collection_run"("monitor_id", "started_at");

-- AddForeignKey
ALTER TABLE "monitor" ADD CONSTRAINT "monitor_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor" ADD CONSTRAINT "monitor_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_tick" ADD CONSTRAINT "monitor_tick_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident" ADD CONSTRAINT "incident_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert" ADD CONSTRAINT "alert_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

