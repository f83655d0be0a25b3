-- AlterTable
ALTER TABLE "call" ADD COLUMN "policy_rule_id" TEXT;
ALTER TABLE "call" ADD COLUMN "virtual_server" TEXT;

-- CreateTable
CREATE TABLE "policy_set" (
    "workspace_id" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0,
    "default_effect" TEXT NOT NULL DEFAULT 'allow',
    "rules" TEXT NOT NULL DEFAULT '[]',
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "policy_set_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "policy_version" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "default_effect" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "policy_version_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "server_name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "rule_name" TEXT NOT NULL,
    "approver_roles" TEXT NOT NULL DEFAULT '[]',
    "requester_id" TEXT,
    "requester_name" TEXT,
    "client" TEXT,
    "origin" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "decided_by_id" TEXT,
    "decided_by_name" TEXT,
    "decided_at" DATETIME,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "approval_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "virtual_server" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tools" TEXT NOT NULL DEFAULT '[]',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "virtual_server_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Pinned definitions: serve only an approved snapshot's definitions (ALTER keeps the partial unique index on server names).
ALTER TABLE "server" ADD COLUMN "pin_definitions" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "server" ADD COLUMN "approved_snapshot_id" TEXT;
-- What the definition scan marked in each snapshot.
ALTER TABLE "capability_snapshot" ADD COLUMN "findings" TEXT NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE UNIQUE INDEX "policy_version_workspace_id_version_key" ON "policy_version"("workspace_id", "version");

-- CreateIndex
CREATE INDEX "approval_workspace_id_status_created_at_idx" ON "approval"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "approval_status_expires_at_idx" ON "approval"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "virtual_server_workspace_id_name_key" ON "virtual_server"("workspace_id", "name");

