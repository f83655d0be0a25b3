-- History search (`call_search`, migration history_search_fts5) indexed in batches behind the
-- call path: no trigger work when a call's pending row is written or completed. lib/calls'
-- search indexer adds finished calls in batches shortly after they end; a search reads the index
-- for what is indexed and LIKE-scans the rest (the calls not indexed yet), so answers stay exact.
--
-- What is indexed: every call with rowid <= call_search_state.indexed_through, except the rowids
-- in call_search_unindexed (calls still pending when the indexer passed them). The index holds
-- exactly those calls, with their current text. It is external content: a 'delete' must carry the
-- values that were indexed, so the two triggers below touch the index only for indexed calls.
--
-- Not in schema.prisma: `migrate diff` between data models leaves it alone. A later migration that
-- redefines "call" (new table, copy, drop, rename) drops these triggers and renumbers rowids: it
-- must recreate both triggers as below and end with
--   INSERT INTO "call_search"("call_search") VALUES ('rebuild');
--   UPDATE "call_search_state" SET "indexed_through" = (SELECT ifnull(max(rowid), 0) FROM "call");
--   DELETE FROM "call_search_unindexed";
-- (the rebuild indexes every call as it is, pending ones too; their completion re-indexes them).
DROP TRIGGER "call_search_insert";
DROP TRIGGER "call_search_update";
DROP TRIGGER "call_search_delete";

CREATE TABLE "call_search_state" (
    "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
    "indexed_through" INTEGER NOT NULL
);

CREATE TABLE "call_search_unindexed" (
    "call_rowid" INTEGER NOT NULL PRIMARY KEY
);

-- The old triggers kept the index equal to the table: every call is indexed as it is now.
INSERT INTO "call_search_state" ("id", "indexed_through") VALUES (1, (SELECT ifnull(max(rowid), 0) FROM "call"));

-- Text that changes after a call was indexed (a completion arriving after the call was marked
-- interrupted) is indexed again. A pending call's completion is past indexed_through or in
-- call_search_unindexed: the condition is false and nothing else runs.
CREATE TRIGGER "call_search_update" AFTER UPDATE OF params, result, error ON "call"
WHEN old.rowid <= (SELECT "indexed_through" FROM "call_search_state")
  AND NOT EXISTS (SELECT 1 FROM "call_search_unindexed" WHERE "call_rowid" = old.rowid)
BEGIN
  INSERT INTO "call_search"("call_search", rowid, params, result, error) VALUES ('delete', old.rowid, old.params, old.result, old.error);
  INSERT INTO "call_search"(rowid, params, result, error) VALUES (new.rowid, new.params, new.result, new.error);
END;

-- A deleted call leaves the index if it was in it, and the bookkeeping. SQLite gives a new row
-- max(rowid) + 1, so once the newest calls are deleted a rowid can come back: indexed_through
-- falls to the largest rowid left, or a new call would count as indexed.
CREATE TRIGGER "call_search_delete" AFTER DELETE ON "call" BEGIN
  INSERT INTO "call_search"("call_search", rowid, params, result, error)
    SELECT 'delete', old.rowid, old.params, old.result, old.error
    WHERE old.rowid <= (SELECT "indexed_through" FROM "call_search_state")
      AND NOT EXISTS (SELECT 1 FROM "call_search_unindexed" WHERE "call_rowid" = old.rowid);
  DELETE FROM "call_search_unindexed" WHERE "call_rowid" = old.rowid;
  UPDATE "call_search_state" SET "indexed_through" = (SELECT ifnull(max(rowid), 0) FROM "call")
    WHERE "indexed_through" > (SELECT ifnull(max(rowid), 0) FROM "call");
END;
