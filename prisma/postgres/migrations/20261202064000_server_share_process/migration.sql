-- Gateway sessions on a stdio server share one server process, on by default (off for servers that keep per-session state).
ALTER TABLE "server" ADD COLUMN "share_process" BOOLEAN NOT NULL DEFAULT true;
