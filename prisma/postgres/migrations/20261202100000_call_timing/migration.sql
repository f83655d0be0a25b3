-- Where the time of a call went: the stages of the console and the upstream split into network and server, as JSON (null for older calls).
ALTER TABLE "call" ADD COLUMN "timing" TEXT;
