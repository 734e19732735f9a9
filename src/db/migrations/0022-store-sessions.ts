/**
 * A customer-app login is made at the hub while it answers, and replicates from there as the
 * token's `customer_id` (DESIGN §5 "Authority"). A login a store takes while its hub does not
 * answer is that store's own session: kept here, on the node alone, until the customer logs
 * in again online or logs out. The hub never takes a session from a store.
 */
export const sql = `
CREATE TABLE store_sessions (
  token_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  started_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;
