-- History search (`q`) is a case-insensitive substring match (ILIKE '%q%') over the arguments,
-- result and error of a call. Trigram GIN indexes let PostgreSQL answer it without reading every
-- call of the workspace. pg_trgm is a trusted extension: the database owner may create it.
-- Not in schema.prisma (the SQLite schema is the source of both): `migrate diff` between data
-- models leaves these alone.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "call_params_trgm_idx" ON "call" USING gin ("params" gin_trgm_ops);
CREATE INDEX "call_result_trgm_idx" ON "call" USING gin ("result" gin_trgm_ops);
CREATE INDEX "call_error_trgm_idx" ON "call" USING gin ("error" gin_trgm_ops);
