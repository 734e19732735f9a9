/**
 * A store behind its hub's schema keeps the changes its schema cannot take whole
 * (src/sync/store/deferred-changes.ts). Kept one for each change, a column added to a table
 * every sale touches would grow this table by the chain's changes each day the store stays
 * behind; kept by row, it holds one change for each row, the newest. The row and stamp of
 * each change are columns, so the one a newer change replaces is found by the index.
 */
export const sql = `
ALTER TABLE sync_deferred ADD COLUMN entity_id TEXT;
ALTER TABLE sync_deferred ADD COLUMN hlc TEXT;
UPDATE sync_deferred SET entity_id = change ->> 'entity_id', hlc = change ->> 'hlc';
CREATE INDEX sync_deferred_by_row ON sync_deferred (entity, entity_id);
`;
