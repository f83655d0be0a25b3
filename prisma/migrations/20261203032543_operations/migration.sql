-- AlterTable
ALTER TABLE "audit_event" ADD COLUMN "hash" TEXT;
ALTER TABLE "audit_event" ADD COLUMN "seq" INTEGER;

-- CreateTable
CREATE TABLE "workspace_sequence" (
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("workspace_id", "name")
);

-- CreateTable
CREATE TABLE "audit_sink" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "last_attempt_at" DATETIME,
    "last_delivered_at" DATETIME,
    "next_attempt_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "audit_sink_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "audit_outbox" (
    "workspace_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("workspace_id", "seq")
);

-- CreateTable
CREATE TABLE "scim_user" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "external_id" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "attributes" TEXT NOT NULL DEFAULT '{}',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "scim_user_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "scim_group" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "external_id" TEXT,
    "members" TEXT NOT NULL DEFAULT '[]',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "scim_group_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_workspace" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retention_days" INTEGER,
    "public_shares_enabled" BOOLEAN NOT NULL DEFAULT true,
    "redaction_keys" TEXT,
    "allowed_networks" TEXT,
    "sso_required" BOOLEAN NOT NULL DEFAULT false,
    "sso_default_role" TEXT NOT NULL DEFAULT 'member',
    "audit_retention_days" INTEGER,
    "legal_hold" BOOLEAN NOT NULL DEFAULT false,
    "scim_group_roles" TEXT
);
INSERT INTO "new_workspace" ("allowed_networks", "created_at", "id", "name", "public_shares_enabled", "redaction_keys", "retention_days", "slug", "sso_default_role", "sso_required") SELECT "allowed_networks", "created_at", "id", "name", "public_shares_enabled", "redaction_keys", "retention_days", "slug", "sso_default_role", "sso_required" FROM "workspace";
DROP TABLE "workspace";
ALTER TABLE "new_workspace" RENAME TO "workspace";
CREATE UNIQUE INDEX "workspace_slug_key" ON "workspace"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

