/**
 * The stores a node serves, on the hub (`loyaltyd nodes add --store`): a store's facts must
 * name one of them (src/sync/hub/command-policy.ts). Node-local, like `nodes`.
 */
export const sql = `
CREATE TABLE node_stores (
  id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL REFERENCES nodes(id),
  store_id TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL,
  UNIQUE (node_id, store_id)
) STRICT;
`;
