-- CreateTable
CREATE TABLE "alert_seen" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_seen_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_seen_user_id_idx" ON "alert_seen"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_seen_workspace_id_user_id_key" ON "alert_seen"("workspace_id", "user_id");

-- AddForeignKey
ALTER TABLE "alert_seen" ADD CONSTRAINT "alert_seen_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_seen" ADD CONSTRAINT "alert_seen_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
