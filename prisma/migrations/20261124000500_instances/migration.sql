-- AlterTable
ALTER TABLE "call" ADD COLUMN "instance_id" TEXT;

-- CreateTable
CREATE TABLE "instance" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

