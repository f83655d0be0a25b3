-- AlterTable
ALTER TABLE "call" ADD COLUMN     "client" TEXT;

-- CreateTable
CREATE TABLE "gateway_exposure" (
    "server_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "tools" TEXT,
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "rate_limit_per_minute" INTEGER,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gateway_exposure_pkey" PRIMARY KEY ("server_id")
);

-- CreateTable
CREATE TABLE "gateway_connection" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_id" TEXT,
    "oauth_client_id" TEXT,
    "client_name" TEXT,
    "client_version" TEXT,
    "protocol_version" TEXT,
    "instance_id" TEXT,
    "connected_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),
    "end_reason" TEXT,

    CONSTRAINT "gateway_connection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gateway_exposure_workspace_id_idx" ON "gateway_exposure"("workspace_id");

-- CreateIndex
CREATE INDEX "gateway_connection_server_id_ended_at_idx" ON "gateway_connection"("server_id", "ended_at");

-- CreateIndex
CREATE INDEX "gateway_connection_workspace_id_idx" ON "gateway_connection"("workspace_id");

-- AddForeignKey
ALTER TABLE "gateway_exposure" ADD CONSTRAINT "gateway_exposure_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_exposure" ADD CONSTRAINT "gateway_exposure_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_connection" ADD CONSTRAINT "gateway_connection_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_connection" ADD CONSTRAINT "gateway_connection_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

