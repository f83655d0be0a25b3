-- AlterTable
ALTER TABLE "server" ADD COLUMN     "approved_snapshot_id" TEXT,
ADD COLUMN     "pin_definitions" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "call" ADD COLUMN     "policy_rule_id" TEXT,
ADD COLUMN     "virtual_server" TEXT;

-- AlterTable
ALTER TABLE "capability_snapshot" ADD COLUMN     "findings" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "policy_set" (
    "workspace_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "default_effect" TEXT NOT NULL DEFAULT 'allow',
    "rules" TEXT NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "policy_set_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateTable
CREATE TABLE "policy_version" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "default_effect" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval" (
    "id" TEXT NOT NULL,
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
    "decided_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "virtual_server" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tools" TEXT NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "virtual_server_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "policy_version_workspace_id_version_key" ON "policy_version"("workspace_id", "version");

-- CreateIndex
CREATE INDEX "approval_workspace_id_status_created_at_idx" ON "approval"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "approval_status_expires_at_idx" ON "approval"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "virtual_server_workspace_id_name_key" ON "virtual_server"("workspace_id", "name");

-- AddForeignKey
ALTER TABLE "policy_set" ADD CONSTRAINT "policy_set_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policy_version" ADD CONSTRAINT "policy_version_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval" ADD CONSTRAINT "approval_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "virtual_server" ADD CONSTRAINT "virtual_server_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

