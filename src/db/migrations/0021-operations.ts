/**
 * Stores push operations and the hub runs them again (DESIGN §5 "Authority",
 * src/sync/CONTEXT.md):
 *
 * - `outbox.operation`: the API call a command is — its input as sent, its principal, the ids
 *   it made, its as-of time. A command queued before this version has none and is pushed in
 *   the protocol it was made for.
 * - `unapplied_commands`, at a store: the commands the hub rejected or holds, readable there
 *   with their reason once their effects are taken back.
 * - `held_commands`, at the hub: operations a node may make but past the chain's limits for
 *   it, recorded and counted nowhere until an operator releases or voids them.
 * - `node_customer_days`, at the hub: what each node gave or took of each customer's points
 *   per day, which those limits are judged by without reading the customer's records.
 * - `applied_commands` takes the status `held`, and keeps the hub's rows of an operation
 *   when they differ from the store's, to answer them again.
 * - `meta.protocol_2_since`: when this node first spoke protocol 2.
 */
export const sql = `
ALTER TABLE outbox ADD COLUMN operation TEXT;

CREATE TABLE unapplied_commands (
  command_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('rejected', 'held')),
  reason TEXT NOT NULL,
  operation TEXT,
  payload TEXT NOT NULL,
  changes TEXT NOT NULL,
  hlc TEXT NOT NULL,
  created_at TEXT NOT NULL,
  settled_at TEXT NOT NULL
) STRICT;

CREATE TABLE held_commands (
  command_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  operation TEXT NOT NULL,
  changes TEXT NOT NULL,
  hlc TEXT NOT NULL,
  reason TEXT NOT NULL,
  held_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'held' CHECK (state IN ('held', 'released', 'voided')),
  resolved_at TEXT
) STRICT;
CREATE INDEX held_commands_open ON held_commands (held_at) WHERE state = 'held';

CREATE TABLE node_customer_days (
  node_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  day TEXT NOT NULL,
  earned_milli INTEGER NOT NULL DEFAULT 0,
  manual_milli INTEGER NOT NULL DEFAULT 0,
  redeemed_milli INTEGER NOT NULL DEFAULT 0,
  manual_credit_minor INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (node_id, customer_id, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX node_customer_days_by_day ON node_customer_days (day);

CREATE TABLE applied_commands_next (
  command_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  generation TEXT NOT NULL,
  seq INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('applied', 'rejected', 'held')),
  reason TEXT,
  applied_at TEXT NOT NULL,
  rows TEXT
) STRICT;
INSERT INTO applied_commands_next (command_id, node_id, generation, seq, status, reason, applied_at) SELECT command_id, node_id, generation, seq, status, reason, applied_at FROM applied_commands;
DROP TABLE applied_commands;
ALTER TABLE applied_commands_next RENAME TO applied_commands;

INSERT OR IGNORE INTO meta (key, value) VALUES ('protocol_2_since', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
`;
