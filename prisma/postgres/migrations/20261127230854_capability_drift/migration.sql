-- CreateTable
CREATE TABLE "capability_snapshot" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "taken_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "hash" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "counts" TEXT NOT NULL,
    "data" TEXT NOT NULL,

    CONSTRAINT "capability_snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "capability_watch" (
    "server_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "mail" TEXT NOT NULL DEFAULT '[]',
    "webhooks" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capability_watch_pkey" PRIMARY KEY ("server_id")
);

-- CreateIndex
CREATE INDEX "capability_snapshot_server_id_taken_at_idx" ON "capability_snapshot"("server_id", "taken_at");

-- CreateIndex
CREATE INDEX "capability_snapshot_workspace_id_idx" ON "capability_snapshot"("workspace_id");

-- CreateIndex
CREATE INDEX "capability_watch_workspace_id_idx" ON "capability_watch"("workspace_id");

-- AddForeignKey
ALTER TABLE "capability_snapshot" ADD CONSTRAINT "capability_snapshot_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "capability_snapshot" ADD CONSTRAINT "capability_snapshot_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "capability_watch" ADD CONSTRAINT "capability_watch_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "capability_watch" ADD CONSTRAINT "capability_watch_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

