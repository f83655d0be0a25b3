-- CreateTable
CREATE TABLE "gateway_oauth_client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT,
    "client_discovery_id" TEXT,
    "disabled" BOOLEAN DEFAULT false,
    "skip_consent" BOOLEAN,
    "enable_end_session" BOOLEAN,
    "subject_type" TEXT,
    "scopes" TEXT,
    "client_credentials_scopes" TEXT,
    "user_id" TEXT,
    "created_at" DATETIME,
    "updated_at" DATETIME,
    "name" TEXT,
    "uri" TEXT,
    "icon" TEXT,
    "contacts" TEXT,
    "tos" TEXT,
    "policy" TEXT,
    "software_id" TEXT,
    "software_version" TEXT,
    "software_statement" TEXT,
    "redirect_uris" TEXT NOT NULL,
    "post_logout_redirect_uris" TEXT,
    "backchannel_logout_uri" TEXT,
    "backchannel_logout_session_required" BOOLEAN,
    "token_endpoint_auth_method" TEXT,
    "application_type" TEXT,
    "jwks" TEXT,
    "jwks_uri" TEXT,
    "grant_types" TEXT,
    "response_types" TEXT,
    "require_pkce" BOOLEAN,
    "dpop_bound_access_tokens" BOOLEAN DEFAULT false,
    "reference_id" TEXT,
    "metadata" TEXT,
    CONSTRAINT "gateway_oauth_client_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "gateway_oauth_resource" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "identifier" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "access_token_ttl" INTEGER,
    "refresh_token_ttl" INTEGER,
    "signing_algorithm" TEXT,
    "signing_key_id" TEXT,
    "allowed_scopes" TEXT,
    "custom_claims" TEXT,
    "dpop_bound_access_tokens_required" BOOLEAN DEFAULT false,
    "disabled" BOOLEAN DEFAULT false,
    "created_at" DATETIME,
    "updated_at" DATETIME,
    "policy_version" INTEGER DEFAULT 1,
    "metadata" TEXT
);

-- CreateTable
CREATE TABLE "gateway_oauth_client_resource" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "metadata" TEXT,
    "created_at" DATETIME,
    CONSTRAINT "gateway_oauth_client_resource_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway_oauth_client" ("client_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_client_resource_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "gateway_oauth_resource" ("identifier") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "gateway_oauth_consent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL,
    "user_id" TEXT,
    "reference_id" TEXT,
    "resources" TEXT,
    "requested_user_info_claims" TEXT,
    "scopes" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "gateway_oauth_consent_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway_oauth_client" ("client_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_consent_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "gateway_oauth_refresh_token" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "session_id" TEXT,
    "user_id" TEXT NOT NULL,
    "reference_id" TEXT,
    "authorization_code_id" TEXT,
    "resources" TEXT,
    "requested_user_info_claims" TEXT,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL,
    "revoked" DATETIME,
    "rotated_at" DATETIME,
    "rotation_replay_response" TEXT,
    "rotation_replay_expires_at" DATETIME,
    "auth_time" DATETIME,
    "confirmation" TEXT,
    "scopes" TEXT NOT NULL,
    CONSTRAINT "gateway_oauth_refresh_token_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway_oauth_client" ("client_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_refresh_token_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_refresh_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "gateway_oauth_access_token" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "session_id" TEXT,
    "user_id" TEXT,
    "reference_id" TEXT,
    "authorization_code_id" TEXT,
    "resources" TEXT,
    "requested_user_info_claims" TEXT,
    "refresh_id" TEXT,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL,
    "revoked" DATETIME,
    "confirmation" TEXT,
    "scopes" TEXT NOT NULL,
    CONSTRAINT "gateway_oauth_access_token_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "gateway_oauth_client" ("client_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_access_token_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_access_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "gateway_oauth_access_token_refresh_id_fkey" FOREIGN KEY ("refresh_id") REFERENCES "gateway_oauth_refresh_token" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "gateway_oauth_client_assertion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expires_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "gateway_oauth_client_client_id_key" ON "gateway_oauth_client"("client_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_client_user_id_idx" ON "gateway_oauth_client"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_oauth_resource_identifier_key" ON "gateway_oauth_resource"("identifier");

-- CreateIndex
CREATE INDEX "gateway_oauth_client_resource_resource_id_idx" ON "gateway_oauth_client_resource"("resource_id");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_oauth_client_resource_client_id_resource_id_key" ON "gateway_oauth_client_resource"("client_id", "resource_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_consent_client_id_idx" ON "gateway_oauth_consent"("client_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_consent_user_id_idx" ON "gateway_oauth_consent"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_oauth_refresh_token_token_key" ON "gateway_oauth_refresh_token"("token");

-- CreateIndex
CREATE INDEX "gateway_oauth_refresh_token_client_id_idx" ON "gateway_oauth_refresh_token"("client_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_refresh_token_session_id_idx" ON "gateway_oauth_refresh_token"("session_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_refresh_token_user_id_idx" ON "gateway_oauth_refresh_token"("user_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_refresh_token_authorization_code_id_idx" ON "gateway_oauth_refresh_token"("authorization_code_id");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_oauth_access_token_token_key" ON "gateway_oauth_access_token"("token");

-- CreateIndex
CREATE INDEX "gateway_oauth_access_token_client_id_idx" ON "gateway_oauth_access_token"("client_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_access_token_session_id_idx" ON "gateway_oauth_access_token"("session_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_access_token_user_id_idx" ON "gateway_oauth_access_token"("user_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_access_token_authorization_code_id_idx" ON "gateway_oauth_access_token"("authorization_code_id");

-- CreateIndex
CREATE INDEX "gateway_oauth_access_token_refresh_id_idx" ON "gateway_oauth_access_token"("refresh_id");

