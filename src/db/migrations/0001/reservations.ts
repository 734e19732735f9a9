export const sql = `
CREATE TABLE product_reservation_sources (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

-- actual_state is derived: the fold of the reservation's reservation_state_changes facts,
-- rewritten whenever a fact is added, so that the reservation_state filter uses an index.
CREATE TABLE product_reservations (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  store_id TEXT NOT NULL,
  product_reservation_source_id TEXT NOT NULL,
  pickup_date TEXT,
  currency_id TEXT,
  total_price_minor INTEGER,
  actual_state INTEGER NOT NULL CHECK (actual_state BETWEEN 0 AND 8),
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX product_reservations_by_customer ON product_reservations (customer_id);
CREATE INDEX product_reservations_by_store ON product_reservations (store_id);
CREATE INDEX product_reservations_by_actual_state ON product_reservations (actual_state);

CREATE TABLE reservation_codes (
  id TEXT PRIMARY KEY,
  product_reservation_id TEXT NOT NULL REFERENCES product_reservations (id),
  code INTEGER NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX reservation_codes_by_code ON reservation_codes (code, product_reservation_id);
CREATE INDEX reservation_codes_by_reservation ON reservation_codes (product_reservation_id);

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
  order_number TEXT NOT NULL,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  currency_id TEXT NOT NULL,
  total_price_minor INTEGER NOT NULL,
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX orders_by_customer ON orders (customer_id);
CREATE INDEX orders_by_state ON orders (state);
`;
