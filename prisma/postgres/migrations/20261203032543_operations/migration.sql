-- AlterTable
ALTER TABLE "workspace" ADD COLUMN     "audit_retention_days" INTEGER,
ADD COLUMN     "legal_hold" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "scim_group_roles" TEXT;

-- AlterTable
ALTER TABLE "audit_event" ADD COLUMN     "hash" TEXT,
ADD COLUMN     "seq" INTEGER;

-- CreateTable
CREATE TABLE "workspace_sequence" (
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "workspace_sequence_pkey" PRIMARY KEY ("workspace_id","name")
);

-- CreateTable
CREATE TABLE "audit_sink" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT,
    "include" TEXT NOT NULL DEFAULT '["audit"]',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "delivered_seq" INTEGER NOT NULL DEFAULT 0,
    "delivered" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMP(3),
    "last_delivered_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audit_sink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_outbox" (
    "workspace_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_outbox_pkey" PRIMARY KEY ("workspace_id","seq")
);

-- CreateTable
CREATE TABLE "scim_user" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "external_id" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "attributes" TEXT NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "scim_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scim_group" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "external_id" TEXT,
    "members" TEXT NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "scim_group_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_sink_workspace_id_idx" ON "audit_sink"("workspace_id");

-- CreateIndex
CREATE INDEX "audit_outbox_created_at_idx" ON "audit_outbox"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "scim_user_workspace_id_user_name_key" ON "scim_user"("workspace_id", "user_name");

-- CreateIndex
CREATE UNIQUE INDEX "scim_user_workspace_id_user_id_key" ON "scim_user"("workspace_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "scim_group_workspace_id_display_name_key" ON "scim_group"("workspace_id", "display_name");

-- CreateIndex
CREATE UNIQUE INDEX "audit_event_workspace_id_seq_key" ON "audit_event"("workspace_id", "seq");

-- AddForeignKey
ALTER TABLE "audit_sink" ADD CONSTRAINT "audit_sink_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scim_user" ADD CONSTRAINT "scim_user_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scim_group" ADD CONSTRAINT "scim_group_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

