/**
 * Changes a store's schema could not take whole when the hub, a schema version ahead, sent
 * them, kept for after the store's upgrade (src/sync/store/deferred-changes.ts). Node-local: no
 * id, hlc or last_change, so never replicated.
 */
export const sql = `
CREATE TABLE sync_deferred (
  position INTEGER PRIMARY KEY,
  entity TEXT NOT NULL,
  change TEXT NOT NULL,
  deferred_at TEXT NOT NULL
) STRICT;
`;
