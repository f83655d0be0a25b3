-- CreateTable
CREATE TABLE "oauth_client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "info_secret" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_client_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "oauth_credential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "issuer" TEXT,
    "tokens_secret" TEXT NOT NULL,
    "scope" TEXT,
    "expires_at" DATETIME,
    "user_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "oauth_credential_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "oauth_flow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "state_hash" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "flow_secret" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_flow_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (ADD COLUMN keeps the partial unique index server_workspace_active_name_key that a table rebuild would drop)
ALTER TABLE "server" ADD COLUMN "auth_mode" TEXT NOT NULL DEFAULT 'none';
ALTER TABLE "server" ADD COLUMN "oauth_client_id" TEXT;
ALTER TABLE "server" ADD COLUMN "oauth_client_secret" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "oauth_client_workspace_id_issuer_key" ON "oauth_client"("workspace_id", "issuer");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_credential_server_id_subject_key" ON "oauth_credential"("server_id", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_flow_state_hash_key" ON "oauth_flow"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_flow_server_id_idx" ON "oauth_flow"("server_id");

