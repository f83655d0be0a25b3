-- AlterTable
ALTER TABLE "workspace" ADD COLUMN     "sso_default_role" TEXT NOT NULL DEFAULT 'member',
ADD COLUMN     "sso_required" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "server" ADD COLUMN     "idp_client_id" TEXT,
ADD COLUMN     "idp_client_secret" TEXT,
ADD COLUMN     "idp_issuer" TEXT,
ADD COLUMN     "idp_token_endpoint" TEXT,
ADD COLUMN     "oauth_issuer" TEXT;

-- CreateTable
CREATE TABLE "identity_token" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "id_token" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "via_sso" BOOLEAN NOT NULL DEFAULT false,
    "refresh_token" TEXT,
    "checked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "identity_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_provider" (
    "id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "oidc_config" TEXT,
    "saml_config" TEXT,
    "user_id" TEXT,
    "provider_id" TEXT NOT NULL,
    "organization_id" TEXT,
    "domain" TEXT NOT NULL,
    "domain_verified" BOOLEAN,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sso_provider_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "identity_token_user_id_issuer_key" ON "identity_token"("user_id", "issuer");

-- CreateIndex
CREATE UNIQUE INDEX "sso_provider_provider_id_key" ON "sso_provider"("provider_id");

-- AddForeignKey
ALTER TABLE "identity_token" ADD CONSTRAINT "identity_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

