-- CreateTable
CREATE TABLE "interaction" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "completed_at" DATETIME,
    "deadline_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "answered_at" DATETIME,
    CONSTRAINT "interaction_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "server" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (ADD COLUMN rather than a table rebuild, so concurrent migrations on "server" compose)
ALTER TABLE "server" ADD COLUMN "roots" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "server" ADD COLUMN "unattended_policy" TEXT NOT NULL DEFAULT 'decline';
ALTER TABLE "server" ADD COLUMN "unattended_wait_ms" INTEGER NOT NULL DEFAULT 60000;

-- CreateIndex
CREATE INDEX "interaction_workspace_id_status_created_at_idx" ON "interaction"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "interaction_server_id_elicitation_id_idx" ON "interaction"("server_id", "elicitation_id");

