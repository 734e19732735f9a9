/**
 * Credits: a customer's money balance (DESIGN §6), kept as facts like point records. A
 * collection adds to the balance, a redemption takes from it; the balance is their fold
 * (src/loyalty/credits.repo.ts). Amounts are integer minor units. A record a purchase
 * derives (paid with, given back, taken back) names it, and a cancellation's record names
 * the record it reverses in `linked_credit_id`.
 */
export const sql = `
CREATE TABLE credit_records (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  kind TEXT NOT NULL CHECK (kind IN ('collection', 'redemption')),
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  purchase_id TEXT,
  linked_credit_id TEXT,
  created_at TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX credit_records_by_customer ON credit_records (customer_id, hlc);
CREATE INDEX credit_records_by_purchase ON credit_records (purchase_id);
`;
