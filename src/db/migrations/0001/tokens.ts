export const sql = `
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
