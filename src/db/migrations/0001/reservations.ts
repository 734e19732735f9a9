export const sql = `
CREATE TABLE product_reservation_sources (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE product_reservations (
  id TEXT PRIMARY KEY,
  customer_id TEXT REFERENCES customers (id),
  store_id TEXT,
  product_reservation_source_id TEXT,
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX product_reservations_by_customer ON product_reservations (customer_id);

CREATE TABLE reservation_state_changes (
  id TEXT PRIMARY KEY,
  product_reservation_id TEXT NOT NULL REFERENCES product_reservations (id),
  reservation_state INTEGER NOT NULL CHECK (reservation_state BETWEEN 0 AND 8),
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX reservation_state_changes_by_reservation ON reservation_state_changes (product_reservation_id, hlc);

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  customer_id TEXT REFERENCES customers (id),
  currency_id TEXT,
  total_price_minor INTEGER NOT NULL,
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
`;
