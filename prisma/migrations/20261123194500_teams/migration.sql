-- DropIndex
DROP INDEX "server_workspace_id_name_key";

-- AlterTable
ALTER TABLE "member" ADD COLUMN "last_active_at" DATETIME;

-- AlterTable
ALTER TABLE "server" ADD COLUMN "archived_at" DATETIME;
ALTER TABLE "server" ADD COLUMN "archived_by" TEXT;

-- AlterTable
ALTER TABLE "agent" ADD COLUMN "created_by" TEXT;

-- CreateTable
CREATE TABLE "invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_secret" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    "accepted_at" DATETIME,
    "accepted_by" TEXT,
    "revoked_at" DATETIME,
    CONSTRAINT "invitation_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "audit_event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" TEXT,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "target_name" TEXT,
    "details" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "audit_event_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "share" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_secret" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "last_viewed_at" DATETIME,
    "view_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "share_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "share_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "call_note" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "user_id" TEXT,
    "user_name" TEXT,
    "body" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "call_note_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "call_tag" (
    "call_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("call_id", "tag"),
    CONSTRAINT "call_tag_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "call_star" (
    "user_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("user_id", "call_id"),
    CONSTRAINT "call_star_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "call_star_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "saved_view" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" TEXT NOT NULL,
    "created_by" TEXT,
    "created_by_name" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "saved_view_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "redaction_keys" TEXT
);
INSERT INTO "new_workspace" ("created_at", "id", "name", "slug") SELECT "created_at", "id", "name", "slug" FROM "workspace";
DROP TABLE "workspace";
ALTER TABLE "new_workspace" RENAME TO "workspace";
CREATE UNIQUE INDEX "workspace_slug_key" ON "workspace"("slug");
CREATE TABLE "new_api_token" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'full',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    CONSTRAINT "api_token_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_api_token" ("created_at", "id", "last_used_at", "name", "prefix", "revoked_at", "token_hash", "user_id", "workspace_id") SELECT "created_at", "id", "last_used_at", "name", "prefix", "revoked_at", "token_hash", "user_id", "workspace_id" FROM "api_token";
DROP TABLE "api_token";
ALTER TABLE "new_api_token" RENAME TO "api_token";
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");
CREATE INDEX "api_token_workspace_id_idx" ON "api_token"("workspace_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "invitation_token_hash_key" ON "invitation"("token_hash");

-- CreateIndex
CREATE INDEX "invitation_workspace_id_created_at_idx" ON "invitation"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_id_idx" ON "audit_event"("workspace_id", "id");

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_action_id_idx" ON "audit_event"("workspace_id", "action", "id");

-- CreateIndex
CREATE UNIQUE INDEX "share_token_hash_key" ON "share"("token_hash");

-- CreateIndex
CREATE INDEX "share_workspace_id_created_at_idx" ON "share"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "share_call_id_idx" ON "share"("call_id");

-- CreateIndex
CREATE INDEX "call_note_call_id_created_at_idx" ON "call_note"("call_id", "created_at");

-- CreateIndex
CREATE INDEX "call_tag_workspace_id_tag_idx" ON "call_tag"("workspace_id", "tag");

-- CreateIndex
CREATE INDEX "call_star_workspace_id_user_id_idx" ON "call_star"("workspace_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "saved_view_workspace_id_name_key" ON "saved_view"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "server_workspace_id_name_idx" ON "server"("workspace_id", "name");


-- Server names are unique among active (not archived) servers only.
CREATE UNIQUE INDEX "server_workspace_active_name_key" ON "server"("workspace_id", "name") WHERE "archived_at" IS NULL;
