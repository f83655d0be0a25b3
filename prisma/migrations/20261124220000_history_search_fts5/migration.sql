-- History search (`q`, a case-insensitive substring of a call's arguments, result or error) by
-- SQLite's own full-text engine: an FTS5 index with the trigram tokenizer over the call table
-- (external content: the index only, no second copy of the text), kept by triggers. lib/calls
-- asks it for the candidate calls and still applies the LIKE filter, so answers are unchanged.
-- Not in schema.prisma: `migrate diff` between data models leaves it alone. A migration that
-- redefines "call" (new table, copy, drop, rename) drops these triggers and renumbers rowids: it
-- must recreate the triggers and end with INSERT INTO call_search(call_search) VALUES ('rebuild').
CREATE VIRTUAL TABLE "call_search" USING fts5(params, result, error, content='call', tokenize='trigram case_sensitive 0');

INSERT INTO "call_search"("call_search") VALUES ('rebuild');

CREATE TRIGGER "call_search_insert" AFTER INSERT ON "call" BEGIN
  INSERT INTO "call_search"(rowid, params, result, error) VALUES (new.rowid, new.params, new.result, new.error);
END;

CREATE TRIGGER "call_search_delete" AFTER DELETE ON "call" BEGIN
  INSERT INTO "call_search"("call_search", rowid, params, result, error) VALUES ('delete', old.rowid, old.params, old.result, old.error);
END;

CREATE TRIGGER "call_search_update" AFTER UPDATE OF params, result, error ON "call" BEGIN
  INSERT INTO "call_search"("call_search", rowid, params, result, error) VALUES ('delete', old.rowid, old.params, old.result, old.error);
  INSERT INTO "call_search"(rowid, params, result, error) VALUES (new.rowid, new.params, new.result, new.error);
END;
