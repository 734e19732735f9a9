export const sql = `
CREATE TABLE stores (
  id TEXT PRIMARY KEY,
  store_code TEXT NOT NULL,
  name TEXT NOT NULL,
  partner_id TEXT,
  system_id TEXT,
  visibility_for_customer INTEGER NOT NULL DEFAULT 1,
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX stores_by_code ON stores (store_code);

CREATE TABLE store_property_records (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  property_id TEXT NOT NULL,
  property_value TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX store_property_records_by_store ON store_property_records (store_id);
CREATE INDEX store_property_records_by_value ON store_property_records (property_id, property_value);

CREATE TABLE store_groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE store_group_records (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  store_group_id TEXT NOT NULL REFERENCES store_groups (id),
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX store_group_records_by_store ON store_group_records (store_id);
`;
