/**
 * `node_days`, at the hub: what each store's node did in all per day — points and credit
 * created, points redeemed, vouchers issued and their value, customers registered, cards moved
 * from their customer, customers' e-mails and phones changed, returns naming no original bill —
 * which its daily totals are judged by beside the per-customer limits of `node_customer_days`
 * (src/sync/hub/node-limits.ts, src/decisions/0103-per-node-totals.md). Hub-only: a store
 * without it reads and writes the rows its hub does.
 */
export const sql = `
CREATE TABLE node_days (
  node_id TEXT NOT NULL,
  day TEXT NOT NULL,
  points_created_milli INTEGER NOT NULL DEFAULT 0,
  credit_created_minor INTEGER NOT NULL DEFAULT 0,
  points_redeemed_milli INTEGER NOT NULL DEFAULT 0,
  vouchers_issued INTEGER NOT NULL DEFAULT 0,
  voucher_value_minor INTEGER NOT NULL DEFAULT 0,
  customers_registered INTEGER NOT NULL DEFAULT 0,
  card_changes INTEGER NOT NULL DEFAULT 0,
  profile_changes INTEGER NOT NULL DEFAULT 0,
  returns_without_original INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (node_id, day)
) STRICT, WITHOUT ROWID;
`;
