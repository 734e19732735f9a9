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
CREATE INDEX stores_by_name ON stores (name);
CREATE INDEX stores_by_visibility ON stores (visibility_for_customer);

-- The id is <property_id>:<store_id> (interface.md AdditionalProperty), so a store has at
-- most one record per property and every node names it alike.
CREATE TABLE store_property_records (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  property_id TEXT NOT NULL,
  property_name TEXT NOT NULL,
  property_value TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX store_property_records_by_store ON store_property_records (store_id, property_id);
CREATE INDEX store_property_records_by_property ON store_property_records (property_id, store_id);

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
