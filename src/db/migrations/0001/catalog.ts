export const sql = `
CREATE TABLE product_groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  parent_id TEXT,
  code TEXT,
  external_id TEXT,
  store_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX product_groups_by_code ON product_groups (code);
CREATE INDEX product_groups_by_store ON product_groups (store_id);

CREATE TABLE product_brands (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  external_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT,
  product_group_id TEXT REFERENCES product_groups (id),
  product_brand_id TEXT REFERENCES product_brands (id),
  additional_properties TEXT NOT NULL DEFAULT '[]',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX products_by_code ON products (code);
CREATE INDEX products_by_name ON products (name);

-- A product's external ids, one list per list_code (GLOBAL is the default list).
CREATE TABLE product_external_ids (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products (id),
  list_code TEXT NOT NULL,
  code TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL,
  UNIQUE (list_code, code)
) STRICT;
CREATE INDEX product_external_ids_by_product ON product_external_ids (product_id, list_code);

CREATE TABLE purchase_item_types (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
`;
