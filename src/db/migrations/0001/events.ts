export const sql = `
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
`;
