-- CreateTable
CREATE TABLE "collection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "steps" TEXT NOT NULL,
    "variables" TEXT NOT NULL DEFAULT '{}',
    "created_by_id" TEXT,
    "created_by_name" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "collection_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "environment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "values" TEXT NOT NULL DEFAULT '{}',
    "secrets" TEXT,
    "secret_names" TEXT NOT NULL DEFAULT '[]',
    "servers" TEXT NOT NULL DEFAULT '{}',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "environment_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "collection_run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "collection_id" TEXT NOT NULL,
    "collection_name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "environment_name" TEXT,
    "origin" TEXT NOT NULL,
    "stop_on_failure" BOOLEAN NOT NULL DEFAULT true,
    "started_by_id" TEXT,
    "started_by_name" TEXT,
    "instance_id" TEXT,
    "variables" TEXT NOT NULL DEFAULT '{}',
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" DATETIME,
    CONSTRAINT "collection_run_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "collection_run_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collection" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "collection_run_step" (
    "run_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "step_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "call_id" TEXT,
    "status" TEXT NOT NULL,
    "duration_ms" REAL,
    "error" TEXT,
    "assertions" TEXT NOT NULL DEFAULT '[]',

    PRIMARY KEY ("run_id", "index"),
    CONSTRAINT "collection_run_step_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "collection_run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "collection_workspace_id_name_key" ON "collection"("workspace_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "environment_workspace_id_name_key" ON "environment"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "collection_run_collection_id_started_at_idx" ON "collection_run"("collection_id", "started_at");

-- CreateIndex
CREATE INDEX "collection_run_workspace_id_started_at_idx" ON "collection_run"("workspace_id", "started_at");

-- CreateIndex
CREATE INDEX "collection_run_status_instance_id_idx" ON "collection_run"("status", "instance_id");

-- CreateIndex
CREATE INDEX "collection_run_step_call_id_idx" ON "collection_run_step"("call_id");

