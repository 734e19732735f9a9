/**
 * A store keeps the commands its hub applied, for `retention.local_days`, to send them again
 * to a hub restored from a backup (src/sync/store/replay.ts). They leave the outbox when the
 * hub acknowledges them, as before, so the outbox holds only what is still to push and its
 * reads stay as short as the queue: they are kept here, in the order they were queued.
 */
export const sql = `
CREATE TABLE acknowledged_commands (
  seq INTEGER PRIMARY KEY,
  command_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  changes TEXT NOT NULL,
  hlc TEXT NOT NULL,
  operation TEXT NOT NULL,
  created_at TEXT NOT NULL,
  acked_at TEXT NOT NULL
) STRICT;
`;
