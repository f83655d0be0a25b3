-- CreateIndex
CREATE INDEX "collection_run_collection_origin_idx" ON "collection_run"("collection_id", "origin", "started_at");

-- The steps' calls of monitor runs were recorded with origin "collection": they are the monitor's own view now.
UPDATE "call" SET "origin" = 'monitor'
WHERE "origin" = 'collection'
  AND "id" IN (SELECT s."call_id" FROM "collection_run_step" s JOIN "collection_run" r ON r."id" = s."run_id" WHERE r."origin" = 'monitor' AND s."call_id" IS NOT NULL);
