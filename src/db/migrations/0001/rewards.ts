export const sql = `
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
-- The checkout engine asks for the newest reward stamp on every call, to know its cache is fresh.
CREATE INDEX rewards_by_hlc ON rewards (hlc);

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
`;
