-- CreateTable
CREATE TABLE "traffic_pin" (
    "user_id" TEXT NOT NULL,
    "message_id" INTEGER NOT NULL,
    "session_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("user_id", "message_id"),
    CONSTRAINT "traffic_pin_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "traffic_pin_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "traffic_message" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "traffic_pin_session_id_user_id_idx" ON "traffic_pin"("session_id", "user_id");

-- CreateIndex
CREATE INDEX "traffic_pin_message_id_idx" ON "traffic_pin"("message_id");

