/**
 * The outbox's two indexes, which every write paid a WAL page each for (26 pages a
 * send-purchase with them, test/bench/README.md 11-26). The outbox holds only pending
 * commands since acknowledged and rejected ones are deleted (src/sync/store/pusher.ts), so
 * `outbox_pending` indexed every row: the pusher's reads walk the table in seq order and stop
 * at their limit. `outbox_by_hlc` served the one max(hlc) read when a node opens
 * (src/db/node-identity.ts), a scan of the commands not yet pushed.
 */
export const sql = `
DROP INDEX IF EXISTS outbox_pending;
DROP INDEX IF EXISTS outbox_by_hlc;
`;
