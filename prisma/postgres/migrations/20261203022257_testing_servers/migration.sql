-- CreateTable
CREATE TABLE "mock" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "match" TEXT NOT NULL DEFAULT 'exact',
    "ignore" TEXT NOT NULL DEFAULT '[]',
    "latency" BOOLEAN NOT NULL DEFAULT false,
    "data" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" TEXT,
    "created_by_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mock_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replay" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "server_name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "ignore" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL DEFAULT 0,
    "same" INTEGER NOT NULL DEFAULT 0,
    "different" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "started_by_id" TEXT,
    "started_by_name" TEXT,
    "instance_id" TEXT,
    "lease_until" TIMESTAMP(3),
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "replay_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replay_item" (
    "replay_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "call_id" TEXT NOT NULL,
    "replay_call_id" TEXT,
    "method" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "diff" TEXT,
    "error" TEXT,
    "duration_ms" DOUBLE PRECISION,

    CONSTRAINT "replay_item_pkey" PRIMARY KEY ("replay_id","index")
);

-- CreateTable
CREATE TABLE "load_test" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "collection_id" TEXT,
    "server_id" TEXT,
    "label" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "calls" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '{}',
    "calls_per_second" DOUBLE PRECISION,
    "p50" DOUBLE PRECISION,
    "p95" DOUBLE PRECISION,
    "p99" DOUBLE PRECISION,
    "steps" TEXT NOT NULL DEFAULT '[]',
    "series" TEXT NOT NULL DEFAULT '[]',
    "sample_call_ids" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "started_by_id" TEXT,
    "started_by_name" TEXT,
    "instance_id" TEXT,
    "lease_until" TIMESTAMP(3),
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "load_test_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mock_server_id_idx" ON "mock"("server_id");

-- CreateIndex
CREATE UNIQUE INDEX "mock_workspace_id_name_key" ON "mock"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "replay_workspace_id_started_at_idx" ON "replay"("workspace_id", "started_at");

-- CreateIndex
CREATE INDEX "replay_status_instance_id_idx" ON "replay"("status", "instance_id");

-- CreateIndex
CREATE INDEX "load_test_workspace_id_started_at_idx" ON "load_test"("workspace_id", "started_at");

-- CreateIndex
CREATE INDEX "load_test_status_instance_id_idx" ON "load_test"("status", "instance_id");

-- AddForeignKey
ALTER TABLE "mock" ADD CONSTRAINT "mock_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mock" ADD CONSTRAINT "mock_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replay" ADD CONSTRAINT "replay_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replay_item" ADD CONSTRAINT "replay_item_replay_id_fkey" FOREIGN KEY ("replay_id") REFERENCES "replay"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "load_test" ADD CONSTRAINT "load_test_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

