-- The dashboard counts timeouts and interrupted calls apart from errors, and its durations are
-- now those of calls that got an answer (status ok or error). The rollups made before summed
-- durations of every finished call: drop them all, so the next dashboard request rebuilds them
-- from the call table.
ALTER TABLE "call_rollup" ADD COLUMN "timeouts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "interrupted" INTEGER NOT NULL DEFAULT 0;
DELETE FROM "call_rollup";
DELETE FROM "call_rollup_pending";
DELETE FROM "call_rollup_state";
