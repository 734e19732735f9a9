/**
 * Scopes (DESIGN §5, src/sync/protocol/scopes.ts): a store no longer receives other stores' facts, so
 * a customer's balances come from the hub as compacted state plus the facts of the node's own
 * that the state does not cover yet.
 *
 * - customer_states (replicated, customer-state scope): per customer, the hub's fold of
 *   their point records up to a `horizon` stamp — the lots, one per expiry with the points
 *   left (`[[points left, ms after the previous lot's expiry or null], …]`, earliest expiry
 *   first; src/loyalty/stored-facts.ts), and the
 *   `debt_milli` — then the point facts stamped after the horizon (`tail`, `[[kind, points,
 *   moment, stamp, id], …]` in HLC order, as customer_ledgers writes a fact), the credit
 *   balance of the credit records up to the horizon and those after it (`credit_tail`,
 *   `[[signed minor units, stamp, id], …]`). Every fact stamped at or before the horizon is
 *   in the lots or the credit balance (every store had pushed it), and every later one the
 *   hub holds is in a tail: that is the state's coverage, the same for every origin node.
 * - customer_ledgers (node-local, migration 0006, rebuilt here) now holds this node's live
 *   facts stamped after the horizon of the customer's state (`point_facts`, `credit_facts`):
 *   the reader drops those a tail already holds. Triggers on the state keep it so too, for
 *   customers who have a row: one with no facts here needs none (a store bootstrapping a
 *   million customers' states writes no million ledger rows).
 * - customer_state_tails (hub, node-local): the customers whose state has a tail, with the
 *   tail's first stamp, so that the hub publishes them again once the horizon passes it.
 * - sync_node_origins (hub, node-local): the node each stamp origin belongs to, bound when the
 *   node first pushes it, so that no store speaks for another (src/sync/hub/command-policy.ts).
 * - sync_node_clocks (hub, node-local): per store, the stamp it reported having pushed
 *   everything up to, which bounds the horizon (src/loyalty/customer-states.ts).
 * - sync_snapshot_seen (store, node-local): the rows a bootstrap that runs again has loaded,
 *   so that it can delete the ones the hub no longer has (src/sync/store/bootstrap-sweep.ts).
 * - sync_feed_marks (hub, node-local): the feed's last seq at each compaction, so that the
 *   next one knows which changes are older than the feed's retention
 *   (src/sync/hub/feed-compaction.ts).
 */
const uncovered = (customer: string, stamp: string) => `${stamp} > coalesce((SELECT s.horizon FROM customer_states s WHERE s.id = ${customer}), '')`;

const pointFacts = (customer: string) => `(
  SELECT json_group_array(json_array(
    CASE kind WHEN 'collection' THEN 'c' ELSE 'r' END,
    points_milli,
    CASE kind WHEN 'collection' THEN valid_to ELSE created_at END,
    hlc,
    id
  ) ORDER BY hlc)
  FROM point_records p WHERE customer_id = ${customer} AND state = 1 AND ${uncovered(customer, 'p.hlc')})`;

const creditFacts = (customer: string) => `(
  SELECT json_group_array(json_array(CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END, hlc, id) ORDER BY hlc)
  FROM credit_records r WHERE customer_id = ${customer} AND state = 1 AND ${uncovered(customer, 'r.hlc')})`;

const refresh = (customer: string) => `
  INSERT INTO customer_ledgers (customer_id, point_facts, credit_facts)
  VALUES (${customer}, ${pointFacts(customer)}, ${creditFacts(customer)})
  ON CONFLICT (customer_id) DO UPDATE SET point_facts = excluded.point_facts, credit_facts = excluded.credit_facts;`;

/** Triggers that keep a customer's ledger row; `when` limits them (a state alone makes no row). */
const triggers = (table: string, customer: string, when = '') => `
DROP TRIGGER IF EXISTS ${table}_ledger_insert;
DROP TRIGGER IF EXISTS ${table}_ledger_update;
DROP TRIGGER IF EXISTS ${table}_ledger_move;
DROP TRIGGER IF EXISTS ${table}_ledger_delete;
CREATE TRIGGER ${table}_ledger_insert AFTER INSERT ON ${table} ${when.replaceAll('@', 'NEW')} BEGIN ${refresh(`NEW.${customer}`)} END;
CREATE TRIGGER ${table}_ledger_update AFTER UPDATE ON ${table} ${when.replaceAll('@', 'NEW')} BEGIN ${refresh(`NEW.${customer}`)} END;
CREATE TRIGGER ${table}_ledger_move AFTER UPDATE OF ${customer} ON ${table}
  WHEN OLD.${customer} IS NOT NEW.${customer} BEGIN ${refresh(`OLD.${customer}`)} END;
CREATE TRIGGER ${table}_ledger_delete AFTER DELETE ON ${table} ${when.replaceAll('@', 'OLD')} BEGIN ${refresh(`OLD.${customer}`)} END;`;

export const sql = `
CREATE TABLE customer_states (
  id TEXT PRIMARY KEY,
  horizon TEXT NOT NULL,
  lots TEXT NOT NULL,
  debt_milli INTEGER NOT NULL,
  tail TEXT NOT NULL,
  credit_minor INTEGER NOT NULL,
  credit_tail TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE customer_state_tails (
  customer_id TEXT PRIMARY KEY,
  first_stamp TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX customer_state_tails_by_stamp ON customer_state_tails (first_stamp);

CREATE TABLE sync_snapshot_seen (
  entity TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (entity, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_feed_marks (
  marked_at TEXT PRIMARY KEY,
  seq INTEGER NOT NULL
) STRICT;

CREATE TABLE sync_node_origins (
  origin TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  first_seen_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_node_clocks (
  node_id TEXT PRIMARY KEY,
  pushed_through TEXT NOT NULL,
  reported_at TEXT NOT NULL
) STRICT;

DROP TABLE customer_ledgers;
CREATE TABLE customer_ledgers (
  customer_id TEXT PRIMARY KEY,
  point_facts TEXT NOT NULL,
  credit_facts TEXT NOT NULL
) STRICT, WITHOUT ROWID;
${triggers('point_records', 'customer_id')}
${triggers('credit_records', 'customer_id')}
${triggers('customer_states', 'id', 'WHEN EXISTS (SELECT 1 FROM customer_ledgers WHERE customer_id = @.id)')}
INSERT INTO customer_ledgers (customer_id, point_facts, credit_facts)
SELECT owner.customer_id, ${pointFacts('owner.customer_id')}, ${creditFacts('owner.customer_id')}
FROM (SELECT customer_id FROM point_records UNION SELECT customer_id FROM credit_records) AS owner;
`;
