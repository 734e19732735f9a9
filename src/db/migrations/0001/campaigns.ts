export const sql = `
CREATE TABLE campaigns (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  parent_id TEXT,
  external_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX campaigns_by_name ON campaigns (name);

-- name repeats presentation_data.name, the one presentation field the list filters on.
-- display_in holds the places normalised (web, cash desk, api).
CREATE TABLE campaign_products (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products (id),
  campaign_id TEXT REFERENCES campaigns (id),
  currency_id TEXT,
  value_minor INTEGER NOT NULL,
  value_type_id INTEGER NOT NULL CHECK (value_type_id IN (1, 2)),
  valid_from TEXT,
  valid_to TEXT,
  display_in TEXT NOT NULL DEFAULT '[]',
  type_id TEXT,
  name TEXT,
  presentation_data TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX campaign_products_by_product ON campaign_products (product_id);
CREATE INDEX campaign_products_by_type ON campaign_products (type_id);
CREATE INDEX campaign_products_by_value_type ON campaign_products (value_type_id);
CREATE INDEX campaign_products_by_valid_from ON campaign_products (valid_from);
CREATE INDEX campaign_products_by_valid_to ON campaign_products (valid_to);

CREATE TABLE campaign_product_store_records (
  id TEXT PRIMARY KEY,
  campaign_product_id TEXT NOT NULL REFERENCES campaign_products (id),
  store_id TEXT NOT NULL REFERENCES stores (id),
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL,
  UNIQUE (campaign_product_id, store_id)
) STRICT;
CREATE INDEX campaign_product_store_records_by_store ON campaign_product_store_records (store_id);
`;
