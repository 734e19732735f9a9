/**
 * A POS user belongs to one store, or to head office when `store_id` is null (DESIGN §4): a
 * store's snapshot and feed carry only the users of the stores its node serves
 * (src/sync/protocol/scopes.ts). The column names a store without a foreign key, as
 * `customers.store_id` does: users come before stores in the order a snapshot loads the tables.
 *
 * A store made before it holds every store's users, with no store named, and the customers'
 * password hashes. Its feed cursor goes, so its next round bootstraps again: the snapshot brings
 * its own users with their store, and the load forgets the rest (src/sync/store/bootstrap.ts).
 * A hub and a store without one hold no cursor.
 */
export const sql = `
ALTER TABLE users ADD COLUMN store_id TEXT;
DELETE FROM meta WHERE key = 'sync.cursor';
`;
