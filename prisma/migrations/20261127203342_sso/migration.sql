-- AlterTable
ALTER TABLE "server" ADD COLUMN "idp_client_id" TEXT;
ALTER TABLE "server" ADD COLUMN "idp_client_secret" TEXT;
ALTER TABLE "server" ADD COLUMN "idp_issuer" TEXT;
ALTER TABLE "server" ADD COLUMN "idp_token_endpoint" TEXT;
ALTER TABLE "server" ADD COLUMN "oauth_issuer" TEXT;

-- CreateTable
CREATE TABLE "identity_token" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "id_token" TEXT NOT NULL,
    "expires_at" DATETIME,
    "via_sso" BOOLEAN NOT NULL DEFAULT false,
    "refresh_token" TEXT,
    "checked_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "identity_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sso_provider" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "issuer" TEXT NOT NULL,
    "oidc_config" TEXT,
    "saml_config" TEXT,
    "user_id" TEXT,
    "provider_id" TEXT NOT NULL,
    "organization_id" TEXT,
    "domain" TEXT NOT NULL,
    "domain_verified" BOOLEAN,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- AlterTable
ALTER TABLE "workspace" ADD COLUMN "sso_required" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "workspace" ADD COLUMN "sso_default_role" TEXT NOT NULL DEFAULT 'member';

-- CreateIndex
CREATE UNIQUE INDEX "identity_token_user_id_issuer_key" ON "identity_token"("user_id", "issuer");

-- CreateIndex
CREATE UNIQUE INDEX "sso_provider_provider_id_key" ON "sso_provider"("provider_id");

