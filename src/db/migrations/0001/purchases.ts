export const sql = `
CREATE TABLE purchases (
  id TEXT PRIMARY KEY,
  customer_id TEXT REFERENCES customers (id),
  store_id TEXT NOT NULL,
  external_purchase_id TEXT NOT NULL,
  bill_number TEXT,
  payment_time TEXT NOT NULL,
  type_id TEXT,
  total_price_minor INTEGER NOT NULL,
  currency_id TEXT,
  card_number TEXT,
  cashdesk_number INTEGER,
  canceled INTEGER NOT NULL DEFAULT 0,
  cancels_purchase_id TEXT,
  bill TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL,
  UNIQUE (store_id, external_purchase_id)
) STRICT;
CREATE INDEX purchases_by_customer ON purchases (customer_id, payment_time);
CREATE INDEX purchases_by_time ON purchases (payment_time);

CREATE TABLE purchase_items (
  id TEXT PRIMARY KEY,
  purchase_id TEXT NOT NULL REFERENCES purchases (id),
  product_id TEXT,
  external_id TEXT,
  purchase_item_type_id TEXT,
  price_minor INTEGER NOT NULL,
  amount_milli INTEGER,
  vat_rate REAL,
  additional_properties TEXT NOT NULL DEFAULT '[]',
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX purchase_items_by_purchase ON purchase_items (purchase_id);

CREATE TABLE purchase_assignments (
  id TEXT PRIMARY KEY,
  purchase_id TEXT NOT NULL REFERENCES purchases (id),
  customer_id TEXT NOT NULL REFERENCES customers (id),
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX purchase_assignments_by_purchase ON purchase_assignments (purchase_id, hlc);

CREATE TABLE point_records (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  kind TEXT NOT NULL CHECK (kind IN ('collection', 'redemption')),
  points_milli INTEGER NOT NULL CHECK (points_milli >= 0),
  point_type_id TEXT,
  partner_id TEXT,
  valid_to TEXT,
  purchase_id TEXT,
  linked_point_id TEXT,
  created_at TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX point_records_by_customer ON point_records (customer_id, hlc);
CREATE INDEX point_records_by_purchase ON point_records (purchase_id);
`;
