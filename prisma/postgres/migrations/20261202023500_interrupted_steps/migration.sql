-- A step the console stopped (its instance or its database) has its own status, `interrupted`;
-- before, it was an `error` whose message began with "interrupted".
UPDATE "collection_run_step" SET "status" = 'interrupted' WHERE "status" = 'error' AND "error" LIKE 'interrupted%';
