/**
 * The first schema. Every replicated table has `id` (DESIGN §3 ids), `hlc` (the stamp of
 * the change that wrote the row, for last-writer-wins) and `last_change`. Money columns
 * end in `_minor` (integer minor units), points columns in `_milli` (thousandths).
 * Nested wire structures that are never filtered on are kept as JSON text.
 */
export const sql = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
  row TEXT,
  hlc TEXT NOT NULL
) STRICT;
CREATE INDEX changes_by_entity ON changes (entity, entity_id);

CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  command_id TEXT NOT NULL UNIQUE,
  generation TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  hlc TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE external_applications (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  login TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  external_application_id TEXT NOT NULL REFERENCES external_applications (id),
  legacy_basic_md5 TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE user_sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id),
  expires_at TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE api_users (
  id TEXT PRIMARY KEY,
  user_name TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

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

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  gender INTEGER,
  first_name TEXT,
  last_name TEXT,
  birthdate TEXT,
  email TEXT,
  phone TEXT,
  language_id TEXT,
  store_id TEXT,
  address TEXT NOT NULL DEFAULT '{}',
  agreement TEXT NOT NULL DEFAULT '{}',
  password_hash TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX customers_by_email ON customers (email COLLATE NOCASE);
CREATE INDEX customers_by_phone ON customers (phone);
CREATE INDEX customers_by_last_name ON customers (last_name, first_name);

CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  card_number TEXT NOT NULL UNIQUE,
  card_type_id TEXT,
  valid_from TEXT,
  valid_to TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX cards_by_customer ON cards (customer_id);

CREATE TABLE customer_source_records (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  customer_source_id TEXT NOT NULL,
  external_id TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX customer_source_records_by_customer ON customer_source_records (customer_id);

CREATE TABLE product_groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  parent_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE product_brands (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
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

CREATE TABLE campaigns (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  parent_id TEXT,
  external_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

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
  presentation_data TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX campaign_products_by_product ON campaign_products (product_id);

CREATE TABLE campaign_product_store_records (
  id TEXT PRIMARY KEY,
  campaign_product_id TEXT NOT NULL REFERENCES campaign_products (id),
  store_id TEXT NOT NULL REFERENCES stores (id),
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL,
  UNIQUE (campaign_product_id, store_id)
) STRICT;

CREATE TABLE program_rules (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE rewards (
  id TEXT PRIMARY KEY,
  code TEXT,
  name TEXT NOT NULL,
  priority INTEGER,
  points_cost_milli INTEGER NOT NULL DEFAULT 0,
  is_automated INTEGER NOT NULL DEFAULT 0,
  details TEXT NOT NULL DEFAULT '{}',
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX rewards_by_code ON rewards (code);

CREATE TABLE vouchers (
  id TEXT PRIMARY KEY,
  customer_id TEXT REFERENCES customers (id),
  reward_id TEXT REFERENCES rewards (id),
  code TEXT NOT NULL,
  value_minor INTEGER NOT NULL DEFAULT 0,
  valid_from TEXT,
  valid_to TEXT,
  reward_group TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX vouchers_by_customer ON vouchers (customer_id);
CREATE INDEX vouchers_by_code ON vouchers (code);

CREATE TABLE voucher_applications (
  id TEXT PRIMARY KEY,
  voucher_id TEXT NOT NULL REFERENCES vouchers (id),
  store_id TEXT,
  purchase_id TEXT,
  applied_date TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX voucher_applications_by_voucher ON voucher_applications (voucher_id, hlc);

CREATE TABLE purchase_item_types (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

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

CREATE TABLE event_groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  text_id TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE event_properties (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  data_type TEXT NOT NULL,
  items TEXT NOT NULL DEFAULT '[]',
  is_required INTEGER NOT NULL DEFAULT 0,
  is_unique INTEGER NOT NULL DEFAULT 0,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  event_type_id TEXT NOT NULL,
  customer_id TEXT REFERENCES customers (id),
  external_id TEXT,
  secondary_external_id TEXT,
  data TEXT,
  created_at TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_type ON events (event_type_id);

CREATE TABLE event_property_records (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES events (id),
  property_id TEXT NOT NULL,
  property_value TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX event_property_records_by_event ON event_property_records (event_id);

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  api_user_id TEXT NOT NULL REFERENCES api_users (id),
  external_application_id TEXT NOT NULL REFERENCES external_applications (id),
  device TEXT NOT NULL,
  setup TEXT NOT NULL,
  push_token TEXT,
  customer_id TEXT REFERENCES customers (id),
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;

CREATE TABLE auth_tokens (
  id TEXT PRIMARY KEY,
  token_id TEXT NOT NULL REFERENCES tokens (id),
  customer_id TEXT NOT NULL REFERENCES customers (id),
  external_application_id TEXT NOT NULL,
  value_hash TEXT NOT NULL,
  token_request_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX auth_tokens_by_request ON auth_tokens (token_request_id);

CREATE TABLE password_setup_requests (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  email TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  sent_at TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
`;
