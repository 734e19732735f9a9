export const sql = `
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
CREATE INDEX customers_by_first_name ON customers (first_name);
CREATE INDEX customers_by_birthdate ON customers (birthdate);

CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  card_number TEXT NOT NULL UNIQUE,
  secondary_card_number TEXT,
  card_type_id TEXT,
  valid_from TEXT,
  valid_to TEXT,
  store_id TEXT,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX cards_by_customer ON cards (customer_id);
CREATE INDEX cards_by_secondary_number ON cards (secondary_card_number);
CREATE INDEX cards_by_type ON cards (card_type_id);

CREATE TABLE customer_source_records (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  customer_source_id TEXT NOT NULL,
  external_id TEXT,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX customer_source_records_by_customer ON customer_source_records (customer_id, customer_source_id);
CREATE INDEX customer_source_records_by_source ON customer_source_records (customer_source_id, customer_id);
CREATE INDEX customer_source_records_by_external_id ON customer_source_records (external_id);
`;
