export const sql = `
CREATE TABLE event_groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  text_id TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX event_groups_by_text_id ON event_groups (text_id);

-- The id is the property's textual id (e.g. account_registration_contact_source).
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

-- Events are insert-only facts made at any node. The relation (event type, customer,
-- external ids) is checked by the API, not by a UNIQUE index: two stores may record the
-- same relation offline, and replicating the second must not fail.
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  event_type_id TEXT NOT NULL,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  external_id TEXT NOT NULL,
  secondary_external_id TEXT,
  data TEXT,
  created_at TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_relation ON events (customer_id, event_type_id, external_id, secondary_external_id);
CREATE INDEX events_by_type ON events (event_type_id, created_at);
CREATE INDEX events_by_external_id ON events (external_id);
CREATE INDEX events_by_created_at ON events (created_at);

-- property_value holds the value as JSON, so a number stays a number and a list a list.
CREATE TABLE event_property_records (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES events (id),
  property_id TEXT NOT NULL,
  property_value TEXT NOT NULL,
  hlc TEXT NOT NULL,
  last_change TEXT NOT NULL
) STRICT;
CREATE INDEX event_property_records_by_event ON event_property_records (event_id);
`;
