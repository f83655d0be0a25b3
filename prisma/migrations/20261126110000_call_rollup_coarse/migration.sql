-- The dashboard now reads rows of 6 hours and days (grains 360 and 1440) of call_rollup, built as hours are rolled up.
-- Rollups made before have none: drop them all, so the next dashboard request rebuilds them
-- from the call table (no schema change).
DELETE FROM "call_rollup";
DELETE FROM "call_rollup_pending";
DELETE FROM "call_rollup_state";
