-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_share" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" TEXT NOT NULL,
    "call_id" TEXT,
    "run_id" TEXT,
    "token_hash" TEXT NOT NULL,
    "token_secret" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "last_viewed_at" DATETIME,
    "view_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "share_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "share_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "call" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "share_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "collection_run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    -- Written by hand (Prisma does not model CHECKs; a later rebuild of this table must keep it).
    CONSTRAINT "share_target_check" CHECK (("call_id" IS NULL) <> ("run_id" IS NULL))
);
INSERT INTO "new_share" ("call_id", "created_at", "created_by", "expires_at", "id", "last_viewed_at", "revoked_at", "token_hash", "token_secret", "view_count", "workspace_id") SELECT "call_id", "created_at", "created_by", "expires_at", "id", "last_viewed_at", "revoked_at", "token_hash", "token_secret", "view_count", "workspace_id" FROM "share";
DROP TABLE "share";
ALTER TABLE "new_share" RENAME TO "share";
CREATE UNIQUE INDEX "share_token_hash_key" ON "share"("token_hash");
CREATE INDEX "share_workspace_id_created_at_idx" ON "share"("workspace_id", "created_at");
CREATE INDEX "share_call_id_idx" ON "share"("call_id");
CREATE INDEX "share_run_id_idx" ON "share"("run_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

