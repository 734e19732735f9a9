/**
 * A customer-app token stays at the node that made it (DESIGN §5 "Credentials stay at the
 * hub"): at the hub, `tokens.node_id` is the store node whose app asked for the session the hub
 * made for the token (null for a token made at the hub), and only that node may act for it.
 * The column is the hub's alone; `tokens` is still a table of the origin scope, so this counts
 * as a change of the replicated tables.
 */
export const sql = `
ALTER TABLE tokens ADD COLUMN node_id TEXT REFERENCES nodes (id);
`;
