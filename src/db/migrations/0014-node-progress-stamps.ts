/**
 * The newest command stamp the hub holds of each store (src/sync/hub/hub-commands.ts). A hub
 * restored from a backup holds less of a store than the store had acknowledged; a
 * bootstrapping store reads the stamp from the snapshot and replays the rows it made after it
 * (src/sync/store/replay.ts). Null on progress rows from before this migration: the hub cannot tell.
 */
export const sql = `
ALTER TABLE sync_node_progress ADD COLUMN last_hlc TEXT;
`;
