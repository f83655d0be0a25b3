-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "user" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "token" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "user_id" TEXT NOT NULL,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "access_token" TEXT,
    "refresh_token" TEXT,
    "id_token" TEXT,
    "access_token_expires_at" TIMESTAMP(3),
    "refresh_token_expires_at" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspace" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retention_days" INTEGER,
    "public_shares_enabled" BOOLEAN NOT NULL DEFAULT true,
    "redaction_keys" TEXT,
    "allowed_networks" TEXT,

    CONSTRAINT "workspace_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_active_at" TIMESTAMP(3),

    CONSTRAINT "member_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'full',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "server" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'http',
    "url" TEXT,
    "transport" TEXT NOT NULL DEFAULT 'auto',
    "headers_secret" TEXT,
    "header_names" TEXT NOT NULL DEFAULT '[]',
    "timeout_ms" INTEGER NOT NULL DEFAULT 60000,
    "max_total_timeout_ms" INTEGER,
    "agent_id" TEXT,
    "stdio_config" TEXT,
    "era_hint" TEXT,
    "era_hint_at" TIMESTAMP(3),
    "roots" TEXT NOT NULL DEFAULT '[]',
    "unattended_policy" TEXT NOT NULL DEFAULT 'decline',
    "unattended_wait_ms" INTEGER NOT NULL DEFAULT 60000,
    "archived_at" TIMESTAMP(3),
    "archived_by" TEXT,
    "auth_mode" TEXT NOT NULL DEFAULT 'none',
    "oauth_client_id" TEXT,
    "oauth_client_secret" TEXT,
    "oauth_client_auth" TEXT,
    "oauth_key_alg" TEXT,
    "oauth_scope" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "server_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_session" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'connecting',
    "transport" TEXT,
    "protocol_version" TEXT,
    "era" TEXT,
    "server_info" TEXT,
    "capabilities" TEXT,
    "instructions" TEXT,
    "remote_session_id" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMP(3),
    "health" TEXT,
    "health_error" TEXT,
    "last_ping_at" TIMESTAMP(3),
    "last_ping_ms" DOUBLE PRECISION,
    "log_level" TEXT,

    CONSTRAINT "mcp_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "session_id" TEXT,
    "user_id" TEXT,
    "user_name" TEXT,
    "method" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "params_secret" TEXT,
    "result" TEXT,
    "error" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "is_error" BOOLEAN NOT NULL DEFAULT false,
    "request_id" TEXT NOT NULL,
    "trace_id" TEXT NOT NULL,
    "rerun_of_id" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'user',
    "parent_call_id" TEXT,
    "credential_mode" TEXT,
    "credential_user_id" TEXT,
    "credential_user_name" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),
    "duration_ms" DOUBLE PRECISION,
    "request_size" INTEGER NOT NULL DEFAULT 0,
    "result_size" INTEGER,
    "progress" TEXT,
    "task_id" TEXT,
    "task_status" TEXT,
    "task_status_message" TEXT,
    "task_poll_interval_ms" INTEGER,
    "task_updated_at" TIMESTAMP(3),
    "instance_id" TEXT,

    CONSTRAINT "call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instance" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hostname" TEXT,
    "version" TEXT,
    "token_hash" TEXT,
    "console_url" TEXT,
    "last_seen_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_pairing" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "agent_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_pairing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "interaction" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "session_id" TEXT,
    "call_id" TEXT,
    "kind" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "response" TEXT,
    "answered_by" TEXT,
    "attended" BOOLEAN NOT NULL DEFAULT true,
    "policy" TEXT,
    "outcome" TEXT,
    "from_error" BOOLEAN NOT NULL DEFAULT false,
    "elicitation_id" TEXT,
    "completed_at" TIMESTAMP(3),
    "deadline_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answered_at" TIMESTAMP(3),

    CONSTRAINT "interaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_log" (
    "id" SERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "severity" INTEGER NOT NULL,
    "logger" TEXT,
    "data" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "traffic_message" (
    "id" SERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "method" TEXT,
    "rpc_id" TEXT,
    "size" INTEGER NOT NULL,
    "duration_ms" DOUBLE PRECISION,
    "body" TEXT NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "traffic_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitation" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_secret" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    "accepted_by" TEXT,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_event" (
    "id" SERIAL NOT NULL,
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
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "share" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_secret" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "last_viewed_at" TIMESTAMP(3),
    "view_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "share_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call_note" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "user_id" TEXT,
    "user_name" TEXT,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "call_note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call_tag" (
    "call_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_tag_pkey" PRIMARY KEY ("call_id","tag")
);

-- CreateTable
CREATE TABLE "call_star" (
    "user_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_star_pkey" PRIMARY KEY ("user_id","call_id")
);

-- CreateTable
CREATE TABLE "saved_view" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" TEXT NOT NULL,
    "created_by" TEXT,
    "created_by_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_view_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_client" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "info_secret" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_credential" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "issuer" TEXT,
    "tokens_secret" TEXT NOT NULL,
    "scope" TEXT,
    "expires_at" TIMESTAMP(3),
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oauth_credential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_flow" (
    "id" TEXT NOT NULL,
    "state_hash" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "flow_secret" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_flow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_trace" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "server_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "user_id" TEXT,
    "steps" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_trace_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE UNIQUE INDEX "session_token_key" ON "session"("token");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "session"("user_id");

-- CreateIndex
CREATE INDEX "account_user_id_idx" ON "account"("user_id");

-- CreateIndex
CREATE INDEX "verification_identifier_idx" ON "verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "workspace_slug_key" ON "workspace"("slug");

-- CreateIndex
CREATE INDEX "member_user_id_idx" ON "member"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "member_workspace_id_user_id_key" ON "member"("workspace_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");

-- CreateIndex
CREATE INDEX "api_token_workspace_id_idx" ON "api_token"("workspace_id");

-- CreateIndex
CREATE INDEX "server_workspace_id_name_idx" ON "server"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "server_agent_id_idx" ON "server"("agent_id");

-- CreateIndex
CREATE INDEX "mcp_session_server_id_created_at_idx" ON "mcp_session"("server_id", "created_at");

-- CreateIndex
CREATE INDEX "call_workspace_id_started_at_id_idx" ON "call"("workspace_id", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_workspace_id_server_id_started_at_id_idx" ON "call"("workspace_id", "server_id", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_workspace_id_name_started_at_id_idx" ON "call"("workspace_id", "name", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_workspace_id_user_id_started_at_id_idx" ON "call"("workspace_id", "user_id", "started_at", "id");

-- CreateIndex
CREATE INDEX "call_status_idx" ON "call"("status");

-- CreateIndex
CREATE INDEX "call_server_id_task_id_idx" ON "call"("server_id", "task_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_token_hash_key" ON "agent"("token_hash");

-- CreateIndex
CREATE INDEX "agent_workspace_id_idx" ON "agent"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_pairing_code_hash_key" ON "agent_pairing"("code_hash");

-- CreateIndex
CREATE INDEX "interaction_workspace_id_status_created_at_idx" ON "interaction"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "interaction_server_id_elicitation_id_idx" ON "interaction"("server_id", "elicitation_id");

-- CreateIndex
CREATE INDEX "session_log_session_id_id_idx" ON "session_log"("session_id", "id");

-- CreateIndex
CREATE INDEX "session_log_server_id_id_idx" ON "session_log"("server_id", "id");

-- CreateIndex
CREATE INDEX "traffic_message_session_id_id_idx" ON "traffic_message"("session_id", "id");

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
CREATE UNIQUE INDEX "oauth_client_workspace_id_issuer_key" ON "oauth_client"("workspace_id", "issuer");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_credential_server_id_subject_key" ON "oauth_credential"("server_id", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_flow_state_hash_key" ON "oauth_flow"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_flow_server_id_idx" ON "oauth_flow"("server_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_trace_server_id_subject_kind_key" ON "oauth_trace"("server_id", "subject", "kind");

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member" ADD CONSTRAINT "member_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member" ADD CONSTRAINT "member_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server" ADD CONSTRAINT "server_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "server" ADD CONSTRAINT "server_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_session" ADD CONSTRAINT "mcp_session_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_session" ADD CONSTRAINT "mcp_session_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_rerun_of_id_fkey" FOREIGN KEY ("rerun_of_id") REFERENCES "call"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call" ADD CONSTRAINT "call_parent_call_id_fkey" FOREIGN KEY ("parent_call_id") REFERENCES "call"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent" ADD CONSTRAINT "agent_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_pairing" ADD CONSTRAINT "agent_pairing_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "interaction" ADD CONSTRAINT "interaction_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_log" ADD CONSTRAINT "session_log_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "traffic_message" ADD CONSTRAINT "traffic_message_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "mcp_session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share" ADD CONSTRAINT "share_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share" ADD CONSTRAINT "share_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call_note" ADD CONSTRAINT "call_note_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call_tag" ADD CONSTRAINT "call_tag_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call_star" ADD CONSTRAINT "call_star_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "call_star" ADD CONSTRAINT "call_star_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_view" ADD CONSTRAINT "saved_view_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_client" ADD CONSTRAINT "oauth_client_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_credential" ADD CONSTRAINT "oauth_credential_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_flow" ADD CONSTRAINT "oauth_flow_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_trace" ADD CONSTRAINT "oauth_trace_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server"("id") ON DELETE CASCADE ON UPDATE CASCADE;

